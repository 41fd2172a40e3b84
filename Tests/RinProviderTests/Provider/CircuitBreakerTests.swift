import RinDomain
import RinProviderClient
import RinTestSupport
import Testing

/// The circuit breaker's rules, without a network: what opens it, what does not, and how a run
/// that starts after an outage probes.
@Suite("circuit breaker", .onItsOwnThread)
struct CircuitBreakerTests {
  @Test func opensAtTheThresholdOfConsecutiveFailuresWithTheLastCause() {
    var breaker = CircuitBreaker(threshold: 3)
    #expect(breaker.record(.failure(.unreachable)) == nil)
    #expect(breaker.record(.failure(.timedOut)) == nil)
    #expect(breaker.permit() == .send)
    #expect(
      breaker.record(.failure(.serverError(status: 503)))
        == .opened(cause: .serverError(status: 503), consecutiveFailures: 3))
    #expect(breaker.isOpen)
    #expect(breaker.permit() == .refuse)
    #expect(breaker.permit() == .refuse, "an open breaker stays open for the rest of the run")
  }

  @Test func aSuccessResetsTheCount() {
    var breaker = CircuitBreaker(threshold: 3)
    _ = breaker.record(.failure(.unreachable))
    _ = breaker.record(.failure(.unreachable))
    #expect(breaker.record(.success) == nil)
    #expect(breaker.state == .closed(consecutiveFailures: 0))
    _ = breaker.record(.failure(.malformedBody))
    _ = breaker.record(.failure(.malformedBody))
    #expect(!breaker.isOpen, "two failures after a success are two, not four")
  }

  @Test func a429InterleavedNeitherCountsNorResets() {
    var breaker = CircuitBreaker(threshold: 3)
    _ = breaker.record(.failure(.timedOut))
    #expect(breaker.record(.neutral) == nil)
    _ = breaker.record(.failure(.timedOut))
    #expect(breaker.record(.neutral) == nil)
    #expect(breaker.state == .closed(consecutiveFailures: 2), "back-pressure is not a failure, nor an answer")
    #expect(breaker.record(.failure(.timedOut)) == .opened(cause: .timedOut, consecutiveFailures: 3))
  }

  @Test func onlyProviderDownFailuresCount() {
    #expect(ProviderFailure.unreachable.isProviderDown)
    #expect(ProviderFailure.timedOut.isProviderDown)
    #expect(ProviderFailure.serverError(status: 500).isProviderDown)
    #expect(ProviderFailure.malformedBody.isProviderDown)
    #expect(!ProviderFailure.rateLimited.isProviderDown)
    #expect(!ProviderFailure.rateLimitWaitTooLong(seconds: 900).isProviderDown)
    #expect(!ProviderFailure.clientError(status: 400).isProviderDown)
  }

  @Test func aThresholdOfOneOpensAtTheFirstFailureAndZeroIsReadAsOne() {
    var one = CircuitBreaker(threshold: 1)
    #expect(one.record(.failure(.unreachable)) == .opened(cause: .unreachable, consecutiveFailures: 1))
    var zero = CircuitBreaker(threshold: 0)
    #expect(zero.threshold == 1)
    #expect(zero.permit() == .send)
  }

  @Test func answersArrivingAfterItOpenedChangeNothing() {
    var breaker = CircuitBreaker(threshold: 1)
    _ = breaker.record(.failure(.unreachable))
    #expect(breaker.record(.success) == nil, "a request in flight when it opened")
    #expect(breaker.isOpen)
  }

  @Test func aProbeGoesAloneAndItsSuccessCloses() {
    var breaker = CircuitBreaker(threshold: 10, state: .probing(probeInFlight: false))
    #expect(breaker.isProbing)
    #expect(breaker.permit() == .sendProbe)
    #expect(breaker.permit() == .wait, "nothing else goes while the probe is out")
    #expect(breaker.record(.success) == .closed)
    #expect(breaker.state == .closed(consecutiveFailures: 0))
    #expect(breaker.permit() == .send)
  }

  @Test func aFailedProbeReopensAtOnce() {
    var breaker = CircuitBreaker(threshold: 10, state: .probing(probeInFlight: false))
    _ = breaker.permit()
    #expect(
      breaker.record(.failure(.serverError(status: 503)))
        == .opened(cause: .serverError(status: 503), consecutiveFailures: 1),
      "one failed probe is enough: the provider is still down")
    #expect(breaker.permit() == .refuse)
  }

  @Test func aProbeAnswered429IsSentAgainAsTheProbe() {
    var breaker = CircuitBreaker(threshold: 10, state: .probing(probeInFlight: false))
    _ = breaker.permit()
    #expect(breaker.record(.neutral) == nil)
    #expect(breaker.permit() == .sendProbe)
    #expect(breaker.permit() == .wait)
  }

  @Test func whereARunStarts() {
    let opened: UTCInstant = 1_000_000
    #expect(
      CircuitBreaker.startState(openedAt: nil, now: opened, coolDown: .seconds(600))
        == .closed(consecutiveFailures: 0))
    #expect(
      CircuitBreaker.startState(openedAt: opened, now: opened, coolDown: .seconds(600)) == .open(cause: nil))
    #expect(
      CircuitBreaker.startState(openedAt: opened, now: opened + .seconds(599), coolDown: .seconds(600))
        == .open(cause: nil))
    #expect(
      CircuitBreaker.startState(openedAt: opened, now: opened + .seconds(600), coolDown: .seconds(600))
        == .probing(probeInFlight: false), "the cool-down is over: probe")
    #expect(
      CircuitBreaker.startState(openedAt: opened, now: opened - .seconds(3_600), coolDown: .seconds(600))
        == .probing(probeInFlight: false), "a clock before the opening (a catch-up of an older slot) probes")
  }
}
