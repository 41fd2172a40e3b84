import RinDomain
import RinJobs
import RinTestSupport
import Testing

@Suite("Syncing a user's upcoming events", .onItsOwnThread)
struct UpcomingEventsSyncTests {
  static func event(
    _ kind: UpcomingEvent.Kind, _ ref: Int64, _ on: String, contact: Int64? = nil, days: Int
  ) throws -> UpcomingEvent {
    UpcomingEvent(
      kind: kind, refID: ref, occursOn: try #require(CalendarDate(on)),
      contactID: ContactID(rawValue: contact ?? ref),
      daysUntil: days)
  }

  static func stored(_ e: UpcomingEvent, dismissed: Bool = false, days: Int? = nil) -> UpcomingEvent.Stored {
    UpcomingEvent.Stored(
      key: e.key, contactID: e.contactID, daysUntil: days ?? e.daysUntil, isDismissed: dismissed)
  }

  @Test func newOccurrencesAreInsertedAndUnchangedOnesLeftAlone() throws {
    let a = try Self.event(.birthday, 1, "2026-11-23", days: 1)
    let b = try Self.event(.birthday, 2, "2026-11-25", days: 3)
    let sync = UpcomingEventsSync(wanted: [b, a], stored: [Self.stored(b)])
    #expect(sync.inserts == [a])
    #expect(sync.updates.isEmpty)
    #expect(sync.deletes.isEmpty)
    #expect(sync.remindersDue.isEmpty, "birthdays never push")
  }

  @Test func aChangedDayCountOrContactIsAnUpdate() throws {
    let a = try Self.event(.birthday, 1, "2026-11-23", days: 1)
    let r = try Self.event(.reminder, 8, "2026-11-24", contact: 3, days: 2)
    var moved = Self.stored(r)
    moved.contactID = 4
    let sync = UpcomingEventsSync(wanted: [a, r], stored: [Self.stored(a, days: 2), moved])
    #expect(sync.updates == [a, r])
    #expect(sync.inserts.isEmpty)
  }

  @Test func rowsNoLongerWantedAreDeletedWhateverTheirKind() throws {
    let a = try Self.event(.birthday, 1, "2026-11-23", days: 1)
    let gone = try Self.event(.reminder, 2, "2026-11-21", days: 0)
    let odd = UpcomingEvent.Stored(
      key: .init(kind: "anniversary", refID: 1, occursOn: "2026-11-23"), contactID: 1, daysUntil: 1,
      isDismissed: false)
    let sync = UpcomingEventsSync(
      wanted: [a], stored: [Self.stored(a), Self.stored(gone, dismissed: true), odd])
    #expect(sync.deletes == [gone.key, odd.key])
    #expect(sync.inserts.isEmpty && sync.updates.isEmpty)
  }

  @Test func aDismissedOccurrenceKeepsItsRowAndDoesNotPush() throws {
    let dueToday = try Self.event(.reminder, 4, "2026-11-22", days: 0)
    let sync = UpcomingEventsSync(
      wanted: [dueToday], stored: [Self.stored(dueToday, dismissed: true, days: 1)])
    #expect(sync.updates == [dueToday], "its day count moves on")
    #expect(sync.deletes.isEmpty)
    #expect(sync.remindersDue.isEmpty)
  }

  @Test func aReminderDueTodayPushesWhetherItsRowIsNewOrNot() throws {
    let r = try Self.event(.reminder, 4, "2026-11-22", days: 0)
    let tomorrow = try Self.event(.reminder, 5, "2026-11-23", days: 1)
    #expect(UpcomingEventsSync(wanted: [r, tomorrow], stored: []).remindersDue == [r])
    #expect(UpcomingEventsSync(wanted: [r], stored: [Self.stored(r)]).remindersDue == [r])
  }

  @Test func aRepeatedOccurrenceCountsOnce() throws {
    let a = try Self.event(.birthday, 1, "2026-11-23", days: 1)
    #expect(UpcomingEventsSync(wanted: [a, a], stored: []).inserts == [a])
  }

  /// The sync orders and matches occurrences by their typed values; the table's key is text.
  /// Both must agree: across a year's end, both kinds, equal ids on different days, repeats.
  @Test func writesComeInTheOrderOfTheTablesKeyAndMatchItsRows() throws {
    var generator = SystemRandomNumberGenerator()
    let first = try #require(CalendarDate("2026-12-24"))
    var wanted: [UpcomingEvent] = []
    for _ in 0..<400 {
      let day = Int.random(in: 0..<20, using: &generator)
      wanted.append(
        UpcomingEvent(
          kind: Bool.random(using: &generator) ? .birthday : .reminder,
          refID: Int64.random(in: 1...30, using: &generator), occursOn: first.adding(days: day),
          contactID: 1, daysUntil: day))
    }
    let stored = wanted.prefix(150).map { Self.stored($0, days: $0.daysUntil + 1) }
    let sync = UpcomingEventsSync(wanted: wanted.shuffled(using: &generator), stored: stored)

    let storedKeys = Set(stored.map(\.key))
    let wantedKeys = Set(wanted.map(\.key))
    #expect(sync.inserts.map(\.key) == wantedKeys.subtracting(storedKeys).sorted())
    #expect(sync.updates.map(\.key) == wantedKeys.intersection(storedKeys).sorted())
    #expect(sync.deletes.isEmpty)
    let unchanged = UpcomingEventsSync(wanted: wanted, stored: wanted.map { Self.stored($0) })
    #expect(unchanged.inserts.isEmpty && unchanged.updates.isEmpty && unchanged.deletes.isEmpty)
  }
}
