/// Exponential backoff with jitter for 5xx answers, timeouts and malformed bodies: retry `n`
/// (from 1) waits a random time between half and all of `base · 2^(n-1)`, at most `cap`. The
/// jitter keeps concurrent requests (and other clients) from retrying in lock step.
public struct Backoff: Sendable {
  public var base: Double
  public var cap: Double
  /// A uniform random number in 0..<1; tests pin it.
  public var random: @Sendable () -> Double

  public init(
    base: Double = 0.5, cap: Double = 30,
    random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
  ) {
    self.base = base
    self.cap = cap
    self.random = random
  }

  public func delay(beforeRetry retry: Int) -> Double {
    let exponent = Double(max(retry - 1, 0))
    let ceiling = min(cap, base * pow2(exponent))
    return ceiling / 2 + ceiling / 2 * min(max(random(), 0), 1)
  }

  private func pow2(_ exponent: Double) -> Double {
    exponent >= 60 ? Double.greatestFiniteMagnitude : Double(UInt64(1) << UInt64(exponent))
  }
}
