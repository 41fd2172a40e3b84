import RinDomain

extension CircuitBreaker {
  /// The state a run starts in, from what the last run left: closed when it left the breaker
  /// closed; open (no request at all) within `coolDown` of the instant it opened; probing after.
  /// A clock earlier than the opening (a catch-up run of an older slot) probes: one request is
  /// all it costs to find out.
  public static func startState(openedAt: UTCInstant?, now: UTCInstant, coolDown: Duration) -> State {
    guard let openedAt else { return .closed(consecutiveFailures: 0) }
    if now >= openedAt, now - openedAt < coolDown { return .open(cause: nil) }
    return .probing(probeInFlight: false)
  }
}
