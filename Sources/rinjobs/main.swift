import RinCLI

await RinJobsTool.main()
