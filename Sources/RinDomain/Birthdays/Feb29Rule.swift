/// Where a Feb 29 birthday falls in a common year. People born on it disagree: some celebrate
/// the last day of February, some the day after the 28th. `jobs.upcoming-birthdays.
/// feb29_in_common_years` chooses; Feb 28 is the default (the day stays in the birth month).
public enum Feb29Rule: String, Sendable, CaseIterable {
  case feb28
  case mar1
}
