import RinTestSupport
import Testing

/// The suites that run enrichment-fetch against a provider stub in this process. Each test case
/// runs on a thread of its own: on the cooperative pool (two threads on two cores), the queue
/// of other tests' work made the provider clients miss their timeouts.
@Suite(.onItsOwnThread) struct EnrichmentEndToEnd {}
