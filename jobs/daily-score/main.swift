import RinCLI

// `rin-daily-score ARGS` behaves exactly as `rinjobs run daily-score ARGS`.
await JobExecutable.main(job: .dailyScore)
