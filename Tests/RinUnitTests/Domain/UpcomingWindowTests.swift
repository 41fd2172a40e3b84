import RinDomain
import RinJobs
import RinTestSupport
import Testing

@Suite("The upcoming window", .onItsOwnThread)
struct UpcomingWindowTests {
  static func window(_ today: String, days: Int = 7) throws -> UpcomingWindow {
    UpcomingWindow(today: try #require(CalendarDate(today)), days: days)
  }

  func days(_ outcome: UpcomingWindow.Outcome) -> Int? {
    if case .upcoming(let event) = outcome { return event.daysUntil }
    return nil
  }

  @Test func bothEndsAreIncluded() throws {
    let w = try Self.window("2026-11-22")
    #expect(w.last.description == "2026-11-29")
    #expect(days(w.birthday(contactID: 1, text: "--11-22")) == 0)
    #expect(days(w.birthday(contactID: 1, text: "--11-29")) == 7)
    #expect(w.birthday(contactID: 1, text: "--11-30") == .notUpcoming)
    #expect(w.birthday(contactID: 1, text: "--11-21") == .notUpcoming, "passed: next year's is far away")
  }

  @Test func aZeroDayWindowIsTodayOnly() throws {
    let w = try Self.window("2026-11-22", days: 0)
    #expect(days(w.birthday(contactID: 1, text: "--11-22")) == 0)
    #expect(w.birthday(contactID: 1, text: "--11-23") == .notUpcoming)
  }

  @Test func theWindowWrapsTheYear() throws {
    let w = try Self.window("2026-12-28")
    guard case .upcoming(let event) = w.birthday(contactID: 9, text: "--01-03") else {
      Issue.record("Jan 3 is inside Dec 28's window")
      return
    }
    #expect(event.occursOn.description == "2027-01-03")
    #expect(event.daysUntil == 6)
    #expect(event.key == UpcomingEvent.Key(kind: "birthday", refID: 9, occursOn: "2027-01-03"))
    #expect(event.contactID == 9)
    #expect(days(w.birthday(contactID: 9, text: "1990-01-04")) == 7)
    #expect(w.birthday(contactID: 9, text: "--01-05") == .notUpcoming)
  }

  @Test func malformedBirthdaysAreReportedNotFatal() throws {
    let w = try Self.window("2026-11-22")
    #expect(w.birthday(contactID: 1, text: "1990-02-30") == .malformed)
    #expect(w.birthday(contactID: 1, text: "") == .malformed)
  }

  @Test func remindersInTheWindowWithALiveContact() throws {
    let w = try Self.window("2026-12-28")
    func reminder(_ due: String?, live: Bool = true) -> UpcomingWindow.Outcome {
      w.reminder(Reminder(id: 5, contactID: 7, dueOn: due, contactIsLive: live))
    }
    guard case .upcoming(let event) = reminder("2027-01-04") else {
      Issue.record("due in 7 days is upcoming")
      return
    }
    #expect(event.kind == .reminder)
    #expect(event.refID == 5)
    #expect(event.contactID == 7)
    #expect(event.daysUntil == 7)
    #expect(days(reminder("2026-12-28")) == 0)
    #expect(reminder("2026-12-27") == .notUpcoming, "overdue is not upcoming")
    #expect(reminder("2027-01-05") == .notUpcoming)
    #expect(reminder(nil) == .notUpcoming, "no due date")
    #expect(reminder("2026-02-30") == .malformed)
    #expect(reminder("--05-01") == .malformed)
    #expect(reminder("") == .malformed)
    #expect(reminder("2026-12-30", live: false) == .contactGone)
    #expect(
      reminder("2027-03-01", live: false) == .notUpcoming, "outside the window the contact does not matter")
  }
}
