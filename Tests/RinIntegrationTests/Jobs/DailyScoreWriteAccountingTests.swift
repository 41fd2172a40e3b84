import RinJobs
import RinRuntime
import RinTestSupport
import Testing

/// daily-score writes a batch's rows in multi-row statements: what a run reports in its changes
/// must still be exactly the rows it wrote, on both backends, and a batch larger than one
/// statement's chunk of rows must be written whole.
@Suite("daily-score write accounting", .onItsOwnThread)
struct DailyScoreWriteAccountingTests {
  static func options(asOf: String, dryRun: Bool = false) -> RunOptions {
    var options = TestClock.options(dryRun: dryRun)
    options.asOf = .init(asOf)
    return options
  }

  /// Users of `sql`'s first column, as a SQL list.
  static func list(_ ids: [Int]) -> String { ids.map(String.init).joined(separator: ", ") }

  @Test(arguments: Backend.available) func aRerunReportsExactlyTheRowsItWroteAgain(backend: Backend)
    async throws
  {
    let db = try TestDatabase(backend, seedUsers: 150, seed: 12)
    let first = await db.run(DailyScoreJob(), Self.options(asOf: "2026-11-21"))
    #expect(first.status == .succeeded, "\(first.error ?? "")")
    let scored = try db.int("SELECT count(*) FROM score_snapshots")
    #expect(scored > 64, "more users than one multi-row chunk")
    #expect(first.changes.tables["score_snapshots"]?.inserted == scored)
    let prompted = try db.strings("SELECT user_id FROM invite_prompt_queue ORDER BY user_id").compactMap {
      Int($0)
    }
    try #require(prompted.count >= 2, "the seed has users past the milestone")
    #expect(first.changes.tables["invite_prompt_queue"]?.inserted == prompted.count)

    // Five users lose their snapshot; the first of them also their queued prompt.
    let unprompted = try db.strings(
      "SELECT user_id FROM score_snapshots WHERE user_id NOT IN (\(Self.list(prompted))) ORDER BY user_id LIMIT 3"
    ).compactMap { Int($0) }
    let redone = Array(prompted.prefix(2)) + unprompted
    try db.execute("DELETE FROM score_snapshots WHERE user_id IN (\(Self.list(redone)))")
    try db.execute("DELETE FROM invite_prompt_queue WHERE user_id = ?", [prompted[0]])
    let dry = await db.run(DailyScoreJob(), Self.options(asOf: "2026-11-21", dryRun: true))
    let again = await db.run(DailyScoreJob(), Self.options(asOf: "2026-11-21"))
    for summary in [dry, again] {
      #expect(summary.changes.tables["score_snapshots"]?.inserted == redone.count)
      #expect(summary.changes.tables["score_snapshots"]?.updated ?? 0 == 0)
      // The second prompted user's prompt is still queued: queued once, ever, and not counted.
      #expect(summary.changes.tables["invite_prompt_queue"]?.inserted == 1)
      #expect(
        summary.changes.tables["invite_prompt_queue"]?.samples == [
          "insert user \(prompted[0]): score_milestone"
        ])
    }
    #expect(try db.int("SELECT count(*) FROM score_snapshots") == scored)
    #expect(try db.int("SELECT count(*) FROM invite_prompt_queue") == prompted.count)
  }

  @Test(arguments: Backend.available) func requeuedScoreNotificationsAreCountedOnlyWhenNew(backend: Backend)
    async throws
  {
    let db = try TestDatabase(backend, seedUsers: 150, seed: 13)
    _ = await db.run(DailyScoreJob(), Self.options(asOf: "2026-11-20"))
    // Something changes for every user between the days: an open security item each.
    try db.execute(
      "INSERT INTO security_items (user_id, kind, status, created_at) SELECT id, 'x', 'open', 0 FROM users")
    let second = await db.run(DailyScoreJob(), Self.options(asOf: "2026-11-21"))
    let notified = try db.strings(
      "SELECT user_id FROM notification_outbox WHERE kind = 'score_updated' ORDER BY user_id"
    ).compactMap { Int($0) }
    try #require(notified.count >= 6)
    #expect(second.changes.notifications["score_updated"] == notified.count)
    #expect(second.changes.tables["user_state"]?.updated == notified.count)

    // Six of them lose their snapshot of the day; three also their queued notification.
    let redone = Array(notified.prefix(6))
    try db.execute(
      "DELETE FROM score_snapshots WHERE as_of = '2026-11-21' AND user_id IN (\(Self.list(redone)))")
    try db.execute(
      "DELETE FROM notification_outbox WHERE kind = 'score_updated' AND user_id IN (\(Self.list(Array(redone.prefix(3)))))"
    )
    let again = await db.run(DailyScoreJob(), Self.options(asOf: "2026-11-21"))
    #expect(again.changes.tables["score_snapshots"]?.inserted == 6)
    #expect(again.changes.tables["user_state"]?.updated == 6)
    #expect(again.changes.tables["notification_outbox"]?.inserted == 3)
    #expect(again.changes.notifications["score_updated"] == 3)
    #expect(
      try db.int("SELECT count(*) FROM notification_outbox WHERE kind = 'score_updated'") == notified.count)
    let last = await db.run(DailyScoreJob(), Self.options(asOf: "2026-11-21"))
    #expect(last.changes.isEmpty)
  }
}
