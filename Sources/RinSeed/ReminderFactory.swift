import RinDomain
import RinStorage

/// Reminders around the upcoming-events window (today … today + 7 in the user's zone):
/// inside it, just outside it, long past, far ahead, completed, and malformed `due_on`.
enum ReminderFactory {
  static let texts = [
    "Call about the lease", "Send birthday card", "Follow up on the intro", "Return the book 📚",
    "Coffee catch-up ☕", "Ask about the job opening", "Wish luck before the exam", "",
  ]
  static let malformed = ["2026-02-30", "tomorrow", "13/05/2026", "", "2026-1-5", "--05-01", "2026-13-01"]

  static func write(owner: UserProfile, book: ContactBook, _ ctx: SeedContext, into sink: RowBuffer) {
    guard !book.ids.isEmpty else { return }
    var rng = ctx.random(.reminders, owner.id)
    let count = rng.weighted([(0, 40), (1, 25), (2, 15), (3, 10), (5, 10)])
    // Some users always have one due today (days_until 0 triggers a `reminder_due` push).
    let dueToday = owner.id % 10 == 4
    for position in 0..<(dueToday ? max(1, count) : count) {
      let dueOn: String?
      if dueToday && position == 0 {
        dueOn = ctx.today.description
      } else {
        dueOn =
          switch rng.weighted([(0, 40), (1, 15), (2, 15), (3, 10), (4, 5)]) {
          case 0: ctx.today.adding(days: rng.int(-1...9)).description
          case 1: ctx.today.adding(days: -rng.int(2...400)).description
          case 2: ctx.today.adding(days: rng.int(10...700)).description
          case 3: rng.pick(malformed)
          default: nil
          }
      }
      let completed: UTCInstant? =
        !(dueToday && position == 0) && rng.chance(0.2) ? ctx.past(&rng, days: 10) : nil
      sink.insert(
        .reminders,
        [
          .integer(IDCounters.next(&sink.ids.reminder)), .integer(owner.id), .integer(rng.pick(book.ids)),
          .text(rng.pick(texts)), SQLValue(dueOn), SQLValue(completed),
        ])
    }
  }
}
