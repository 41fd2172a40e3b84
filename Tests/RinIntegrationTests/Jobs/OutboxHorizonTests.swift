import Foundation
import RinConfiguration
import RinDomain
import RinJobs
import RinRuntime
import RinStorage
import RinTestSupport
import Testing

/// A day whose outbox rows history-retention may have pruned queues no notification again: a
/// re-run or backfill of it cannot see the row whose dedupe key would have stopped a second push.
@Suite("notifications and the outbox window", .onItsOwnThread)
struct OutboxHorizonTests {
  static let day: Int64 = 86_400
  static let today = CalendarDate(utcInstant: UTCInstant(seconds: TestClock.now))

  /// A 3-day outbox window: the horizon is the day after the cutoff's day plus one, yesterday.
  static func config(_ db: TestDatabase) -> RinConfig {
    var config = RinConfig.defaults(storageURL: db.path)
    config.jobs[HistoryRetentionJob.self].keep.notificationOutbox = .seconds(3 * day)
    return config
  }

  static func scoreDay(_ db: TestDatabase, _ asOf: CalendarDate) async -> RunSummary {
    var options = TestClock.options()
    options.asOf = asOf
    let summary = await db.run(DailyScoreJob(), options, config: Self.config(db))
    #expect(summary.status == .succeeded, "\(summary.error ?? "")")
    return summary
  }

  /// Every user's snapshot three days ago at a score of 1, so that the next day scored has a delta.
  static func lowSnapshots(_ db: TestDatabase) throws {
    try db.execute(
      """
      INSERT INTO score_snapshots (user_id, as_of, score, tier, formula_version, computed_at)
      SELECT id, ?, 1, 'building', 'v1', ? FROM users
      """, [Self.today.adding(days: -3).description, TestClock.now - 3 * Self.day])
  }

  static func scoreUpdates(_ db: TestDatabase, _ asOf: CalendarDate) throws -> Int {
    try db.int(
      "SELECT count(*) FROM notification_outbox WHERE kind = 'score_updated' AND dedupe_key LIKE ?",
      ["%:\(asOf)"])
  }

  @Test(arguments: Backend.available) func aScoreDayBeforeTheHorizonQueuesNoUpdateAndADayInsideDoes(
    backend: Backend
  ) async throws {
    let db = try TestDatabase(backend, seedUsers: 12, seed: 3)
    let horizon = OutboxHorizon(now: UTCInstant(seconds: TestClock.now), outboxWindow: .seconds(3 * Self.day))
    #expect(horizon.firstDay == Self.today.adding(days: -1))
    try Self.lowSnapshots(db)
    let moved = "SELECT count(*) FROM score_snapshots WHERE as_of = ? AND delta IS NOT NULL AND delta <> 0"

    let before = Self.today.adding(days: -2)
    let old = await Self.scoreDay(db, before)
    let changed = try db.int(moved, [before.description])
    #expect(changed > 0, "the seed's scores are not all 1")
    #expect(try Self.scoreUpdates(db, before) == 0)
    #expect(old.counts.skipped[OutboxHorizon.skipReason] == changed)

    // The same users, a day inside the horizon, against the same low snapshot.
    try db.execute("DELETE FROM score_snapshots WHERE as_of = ?", [before.description])
    let inside = Self.today.adding(days: -1)
    let new = await Self.scoreDay(db, inside)
    #expect(try Self.scoreUpdates(db, inside) == db.int(moved, [inside.description]))
    #expect(try Self.scoreUpdates(db, inside) > 0)
    #expect(new.counts.skipped[OutboxHorizon.skipReason] == nil)
  }
}
