import Testing

/// The suites that run enrichment-fetch against a provider stub in this process, one test at a
/// time. Run together, their PostgreSQL cases kept both threads of Swift's cooperative pool (two
/// on two cores) waiting on the server, and the stubs and provider clients of the tests beside
/// them missed their timeouts.
@Suite(.serialized) struct EnrichmentEndToEnd {}
