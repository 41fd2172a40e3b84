import RinCLI

// `rin-attribution-expiry ARGS` behaves exactly as `rinjobs run attribution-expiry ARGS`.
await JobExecutable.main(job: .attributionExpiry)
