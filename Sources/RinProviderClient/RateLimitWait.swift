import Foundation

/// How long a 429 asks us to wait: `Retry-After` in seconds or as an HTTP date (RFC 9110
/// §10.2.3), else `x-ratelimit-reset`.
public enum RateLimitWait {
  /// `x-ratelimit-reset` values above this are Unix times; below, seconds to wait (providers
  /// use both forms, and no wait is 30 years long).
  static let epochThreshold: Double = 1_000_000_000

  /// Seconds to wait from `now` (Unix seconds); nil when neither header says anything usable.
  public static func seconds(headers: [String: String], now: Double) -> Double? {
    if let value = headers["retry-after"].map(trimmed), let wait = retryAfter(value, now: now) {
      return wait
    }
    if let value = headers["x-ratelimit-reset"].map(trimmed), let number = Double(value), number.isFinite,
      number >= 0
    {
      return number > epochThreshold ? max(0, number - now) : number
    }
    return nil
  }

  static func retryAfter(_ value: String, now: Double) -> Double? {
    if !value.isEmpty, value.allSatisfy(\.isASCII), value.allSatisfy(\.isNumber), let seconds = Double(value)
    {
      return seconds
    }
    guard let date = HTTPDate.parse(value) else { return nil }
    return max(0, date - now)
  }

  private static func trimmed(_ text: String) -> String {
    text.trimmingCharacters(in: .whitespaces)
  }
}
