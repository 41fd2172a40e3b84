import Foundation
import GRDB
import RinTestSupport

/// docs/CONTRACT.md §3.4 computed again from the raw tables with Foundation's calendar, without the
/// production rules (no `Birthday`, `LocalDay`, `UpcomingWindow` or `CalendarDate`).
enum IndependentUpcoming {
  static let utc: Calendar = {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    return calendar
  }()

  /// Foundation's calendar is slow on Linux: each distinct day is asked once per computation.
  struct Days {
    private var known: [Int: Date?] = [:]

    /// A calendar day, as noon UTC so that whole-day differences are exact.
    mutating func day(_ year: Int, _ month: Int, _ dayOfMonth: Int) -> Date? {
      let key = (year * 100 + month) * 100 + dayOfMonth
      if let date = known[key] { return date }
      let date = IndependentUpcoming.day(year, month, dayOfMonth)
      known[key] = date
      return date
    }
  }

  static func day(_ year: Int, _ month: Int, _ dayOfMonth: Int) -> Date? {
    guard (1...12).contains(month), (1...31).contains(dayOfMonth) else { return nil }
    let components = DateComponents(year: year, month: month, day: dayOfMonth, hour: 12)
    guard let date = utc.date(from: components) else { return nil }
    // Foundation rolls Feb 30 over into March: a real day reads back the same.
    let back = utc.dateComponents([.year, .month, .day], from: date)
    return (back.year, back.month, back.day) == (year, month, dayOfMonth) ? date : nil
  }

  static func text(_ date: Date) -> String {
    let c = utc.dateComponents([.year, .month, .day], from: date)
    return String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
  }

  /// The user's today: their zone when it is a tz database name, else UTC.
  static func today(zone: String?, now: Int64) -> Date {
    var calendar = Calendar(identifier: .gregorian)
    let customOffset =
      zone.map { $0.range(of: #"^(GMT|UTC)[+-]"#, options: .regularExpression) != nil } ?? true
    calendar.timeZone =
      (customOffset ? nil : zone.flatMap { TimeZone(identifier: $0) }) ?? TimeZone(identifier: "UTC")!
    let c = calendar.dateComponents(
      [.year, .month, .day], from: Date(timeIntervalSince1970: TimeInterval(now)))
    return day(c.year!, c.month!, c.day!)!
  }

  /// The numbers of `text` when it has exactly the shape `pattern` (`9` a digit, anything else
  /// itself), e.g. `--99-99`.
  static func numbers(_ text: String, shape pattern: String) -> [Int]? {
    let chars = Array(text.utf8)
    let shape = Array(pattern.utf8)
    guard chars.count == shape.count else { return nil }
    var groups: [Int] = []
    var current: Int?
    for (c, p) in zip(chars, shape) {
      if p == UInt8(ascii: "9") {
        guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c) else { return nil }
        current = (current ?? 0) * 10 + Int(c - UInt8(ascii: "0"))
      } else {
        guard c == p else { return nil }
        if let value = current { groups.append(value) }
        current = nil
      }
    }
    if let value = current { groups.append(value) }
    return groups
  }

  /// The next occurrence on or after `today`, Feb 29 on Feb 28 in common years; nil when malformed.
  static func nextBirthday(_ text: String, today: Date, _ days: inout Days) -> Date? {
    let month: Int
    let dayOfMonth: Int
    if let n = numbers(text, shape: "--99-99") {
      guard days.day(2000, n[0], n[1]) != nil else { return nil }
      (month, dayOfMonth) = (n[0], n[1])
    } else if let n = numbers(text, shape: "9999-99-99") {
      guard days.day(n[0], n[1], n[2]) != nil else { return nil }
      (month, dayOfMonth) = (n[1], n[2])
    } else {
      return nil
    }
    let year = utc.component(.year, from: today)
    for y in [year, year + 1] {
      let occurrence = days.day(y, month, dayOfMonth) ?? days.day(y, month, dayOfMonth - 1)!
      if occurrence >= today { return occurrence }
    }
    return nil
  }

  static func compute(_ db: Database, now: Int64, windowDays: Int = 7) throws -> [UpcomingEventRow] {
    var todays: [Int64: Date] = [:]
    for row in try Row.fetchAll(db, sql: "SELECT id, timezone FROM users WHERE deleted_at IS NULL") {
      todays[row[0]] = today(zone: row[1], now: now)
    }
    var rows: [UpcomingEventRow] = []
    var days = Days()
    func add(_ user: Int64, _ kind: String, _ ref: Int64, _ contact: Int64, _ date: Date?) {
      guard let today = todays[user], let date else { return }
      // Both are noon UTC, a zone without DST: whole days apart.
      let until = Int((date.timeIntervalSince(today) / 86_400).rounded())
      guard (0...windowDays).contains(until) else { return }
      rows.append(
        UpcomingEventRow(
          user: user, kind: kind, ref: ref, occursOn: text(date), contact: contact, daysUntil: until))
    }
    for row in try Row.fetchAll(
      db, sql: "SELECT user_id, id, birthday FROM contacts WHERE deleted_at IS NULL AND birthday IS NOT NULL")
    {
      guard let today = todays[row[0]] else { continue }
      add(row[0], "birthday", row[1], row[1], nextBirthday(row[2], today: today, &days))
    }
    for row in try Row.fetchAll(
      db,
      sql: """
        SELECT r.user_id, r.id, r.contact_id, r.due_on FROM reminders r
        JOIN contacts c ON c.id = r.contact_id AND c.user_id = r.user_id AND c.deleted_at IS NULL
        WHERE r.completed_at IS NULL AND r.due_on IS NOT NULL
        """)
    {
      let due: String = row[3]
      let date = numbers(due, shape: "9999-99-99").flatMap { days.day($0[0], $0[1], $0[2]) }
      add(row[0], "reminder", row[1], row[2], date)
    }
    return rows.sorted()
  }
}
