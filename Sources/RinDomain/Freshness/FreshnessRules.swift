import Foundation

/// Whether a user sees a stale output, for the outputs whose rows cannot say it alone
/// (docs/OPERATIONS.md "Freshness"). Each rule returns nil for a fresh user, else the instant
/// the user's result is from: what `oldest` reports, and what the alert's age counts from.
/// `score` is judged in its query from the same `FreshnessPromise` cutoffs.
public enum FreshnessRules {
  /// upcoming-birthdays turns a user's rows over at their local midnight (docs/CONTRACT.md
  /// §3.4): rows kept for a local date before the one the user's zone showed `maxAge` ago are
  /// stale, and so is a user with no kept state at all (`upcoming_owner_states`), whatever
  /// `upcoming_events` holds: a user with no birthday in the window has no rows and is fresh.
  /// - Returns: the midnight that ended the day the rows are for (the user's zone at the
  ///   cutoff), or `createdAt` when nothing was ever computed.
  public static func upcoming(
    rowsFor today: CalendarDate?, zone: String?, createdAt: UTCInstant, promise: FreshnessPromise,
    now: UTCInstant
  ) -> UTCInstant? {
    let cutoff = promise.cutoff(now: now)
    guard let today else { return createdAt }
    guard today < LocalDay(at: cutoff, zoneName: zone).date else { return nil }
    return startOfLocalDay(today.adding(days: 1), zone: zone, offsetAt: cutoff)
  }

  /// circle-patterns and enrichment-fetch examine an owner when something of theirs changed,
  /// when something found expires (`due_at`) and at least every `full_every`. The owner is fresh
  /// when their shard was checked for changes within `maxAge` (`watermark`, the change
  /// watermark of the best scope holding them), they were examined within `full_every` plus
  /// `maxAge`, and nothing they are due for passed `maxAge` ago.
  /// - Returns: the oldest of the instants that make the owner stale: `createdAt` when never
  ///   examined; the watermark (or `createdAt` without one) when the shard was not checked;
  ///   the examination when it is too old or a due passed.
  public static func examined(
    examinedAt: UTCInstant?, dueAt: UTCInstant?, watermark: UTCInstant?, createdAt: UTCInstant,
    promise: FreshnessPromise, now: UTCInstant
  ) -> UTCInstant? {
    guard let examinedAt else { return createdAt }
    let cutoff = promise.cutoff(now: now)
    var since: UTCInstant?
    func stale(_ instant: UTCInstant) { since = Swift.min(since ?? instant, instant) }
    if examinedAt <= promise.examinationCutoff(now: now) { stale(examinedAt) }
    if let dueAt, dueAt <= cutoff { stale(examinedAt) }
    if let watermark {
      if watermark <= cutoff { stale(watermark) }
    } else {
      stale(createdAt)
    }
    return since
  }

  /// badge-recount writes `badge_counts` only when a count changes; what says it counted a user
  /// is the change watermark its whole runs leave per shard (`BadgeRecountWatermark`). A user is
  /// fresh when they have a row (`counted`) and a scope holding them was marked after the cutoff
  /// (`watermark`, the latest such mark).
  /// - Returns: `createdAt` when never counted or never marked; else the mark when it is at or
  ///   before the cutoff: the badges reflect no later instant.
  public static func badges(
    counted: Bool, watermark: UTCInstant?, createdAt: UTCInstant, promise: FreshnessPromise, now: UTCInstant
  ) -> UTCInstant? {
    guard counted, let watermark else { return createdAt }
    return watermark <= promise.cutoff(now: now) ? watermark : nil
  }

  /// The instant `date` begins in `zone` (UTC for a missing or unknown zone), with the zone's
  /// offset at `offsetAt`: the day a check looks at is the one around the cutoff.
  static func startOfLocalDay(_ date: CalendarDate, zone: String?, offsetAt instant: UTCInstant) -> UTCInstant
  {
    guard let name = zone, !name.isEmpty, let timeZone = LocalDay.timeZone(named: name) else {
      return date.startOfDay
    }
    let offset = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instant.seconds)))
    return date.startOfDay.advanced(by: -Int64(offset))
  }
}
