import RinRuntime

/// upcoming-birthdays' own keys in its summary's `read` and `skipped`.
enum UpcomingBirthdaysCounter: String, JobCounter {
  case ownersWithContactsStampedSinceTheEarliestKeptState =
    "owners with contacts stamped since the earliest kept state"
  case usersTurnedFromTheirRows = "users turned from their rows"
  case contactBirthdays = "contact birthdays"
  case openReminders = "open reminders"
  case contactBirthdayMalformed = "contact birthday malformed"
  case reminderDueOnMalformed = "reminder due_on malformed"
  case reminderOfADeletedContact = "reminder of a deleted contact"
  case userTimeZoneMissing = "user time zone missing (UTC date used)"
  case userTimeZoneInvalid = "user time zone invalid (UTC date used)"
}
