import RinDomain

/// The fixed inputs every generator reads.
struct SeedContext: Sendable {
  let seed: UInt64
  let now: UTCInstant
  let users: Int
  /// The UTC date of `now`: birthdays and reminders are placed relative to it.
  let today: CalendarDate
  /// The first user generated: 1 for a seeding, the next id for sign-ups appended to a
  /// database (`users` is then the last id, existing users included).
  let firstUser: Int
  /// Appending sign-ups: every generated user is a live account created within
  /// `signUpWindow` before `now`.
  let signUps: Bool

  /// How long before `now` a sign-up's account may have been created: less than the 9.5 hours
  /// from the nightly slot (02:30 UTC) to the bench's changes (noon UTC), so that no sign-up
  /// carries a stamp from before the night that preceded it.
  static let signUpWindow: Int64 = 8 * hour

  init(options: SeedOptions, firstUser: Int = 1, signUps: Bool = false) {
    seed = options.seed
    now = options.now
    users = firstUser - 1 + options.users
    today = CalendarDate(utcInstant: options.now)
    self.firstUser = firstUser
    self.signUps = signUps
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
