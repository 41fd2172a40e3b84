import RinCLI

// `rin-badge-recount ARGS` behaves exactly as `rinjobs run badge-recount ARGS`.
await JobExecutable.main(job: .badgeRecount)
