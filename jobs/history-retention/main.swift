import RinCLI

// `rin-history-retention ARGS` behaves exactly as `rinjobs run history-retention ARGS`.
await JobExecutable.main(job: .historyRetention)
