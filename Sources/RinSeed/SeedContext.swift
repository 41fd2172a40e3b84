import RinDomain

/// The fixed inputs every generator reads.
struct SeedContext: Sendable {
  let seed: UInt64
  let now: UTCInstant
  let users: Int
  /// The UTC date of `now`: birthdays and reminders are placed relative to it.
  let today: CalendarDate

  init(options: SeedOptions) {
    seed = options.seed
    now = options.now
    users = options.users
    today = CalendarDate(utcInstant: options.now)
  }

  /// Seconds in a day and an hour: the generators draw spans as whole seconds.
  static let day: Int64 = 86_400
  static let hour: Int64 = 3_600

  func random(_ stream: SeedRandom.Stream, _ id: Int64) -> SeedRandom {
    SeedRandom(seed: seed, stream: stream, id: id)
  }

  /// A uniform instant in the last `days` days (never after `now`, never before `floor`).
  func past(_ rng: inout SeedRandom, days: Int64, floor: UTCInstant = .min) -> UTCInstant {
    let earliest = max(now.advanced(by: -days * Self.day), floor)
    return earliest >= now ? now : rng.instant(earliest...now)
  }
}
