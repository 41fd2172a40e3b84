import RinCLI

// `rin-enrichment-fetch ARGS` behaves exactly as `rinjobs run enrichment-fetch ARGS`.
await JobExecutable.main(job: .enrichmentFetch)
