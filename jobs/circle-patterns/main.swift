import RinCLI

// `rin-circle-patterns ARGS` behaves exactly as `rinjobs run circle-patterns ARGS`.
await JobExecutable.main(job: .circlePatterns)
