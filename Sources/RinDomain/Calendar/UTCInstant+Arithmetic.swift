/// Instants and spans together. A `Duration` counts attoseconds, an instant whole seconds: a sum
/// or a difference with a fraction of a second rounds toward the past (the floor of the exact
/// result), as `UTCInstant(_:)` drops a fraction it reads. Plain `Int64` arithmetic underneath,
/// trapping on overflow as it did.
extension UTCInstant: Strideable {
  /// Seconds from `self` to `other`.
  public func distance(to other: UTCInstant) -> Int64 { other.seconds - seconds }

  public func advanced(by seconds: Int64) -> UTCInstant { UTCInstant(seconds: self.seconds + seconds) }

  public static func + (instant: UTCInstant, span: Duration) -> UTCInstant {
    let (seconds, attoseconds) = span.components
    return UTCInstant(seconds: instant.seconds + seconds - (attoseconds < 0 ? 1 : 0))
  }

  public static func - (instant: UTCInstant, span: Duration) -> UTCInstant {
    let (seconds, attoseconds) = span.components
    return UTCInstant(seconds: instant.seconds - seconds - (attoseconds > 0 ? 1 : 0))
  }

  /// The span from `earlier` to `later`, negative when `later` is before it.
  public static func - (later: UTCInstant, earlier: UTCInstant) -> Duration {
    .seconds(later.seconds - earlier.seconds)
  }

  /// `self + seconds`, held at the ends of the range instead of trapping: for instants read
  /// from the services' rows, which may be any 64-bit value.
  public func saturating(plus seconds: Int64) -> UTCInstant {
    let (sum, overflow) = self.seconds.addingReportingOverflow(seconds)
    return UTCInstant(seconds: overflow ? (seconds > 0 ? .max : .min) : sum)
  }

  /// The earliest and latest instants a 64-bit count of seconds holds.
  public static let min = UTCInstant(seconds: .min)
  public static let max = UTCInstant(seconds: .max)
}

/// An integer literal is Unix seconds: `UTCInstant` `1_700_000_000`.
extension UTCInstant: ExpressibleByIntegerLiteral {
  public init(integerLiteral seconds: Int64) { self.init(seconds: seconds) }
}

extension Duration {
  /// The whole seconds of a span, a fraction rounded toward zero (`components.seconds`).
  public var wholeSeconds: Int64 { components.seconds }

  /// The whole milliseconds of a span, a fraction rounded toward zero.
  public var wholeMilliseconds: Int64 {
    let (seconds, attoseconds) = components
    return seconds * 1_000 + attoseconds / 1_000_000_000_000_000
  }

  /// The whole microseconds of a span, a fraction rounded toward zero.
  public var wholeMicroseconds: Int64 {
    let (seconds, attoseconds) = components
    return seconds * 1_000_000 + attoseconds / 1_000_000_000_000
  }

  /// The span in seconds, fractions included: for what counts seconds as a `Double` (waits, ratios).
  public var inSeconds: Double {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }

  /// Seconds to the millisecond: how long a run took, as summaries, logs and the ledger report it.
  public var millisecondSeconds: Double { (inSeconds * 1000).rounded() / 1000 }
}
