import RinCLI

await RinJobsCommand.main()
