import RinRuntime

/// circle-patterns' own keys in its summary's `read` and `skipped`.
enum CirclePatternsCounter: String, JobCounter {
  case phones
  case phonesParsed = "phones parsed"
  case phonesRecalled = "phones recalled"
  case invalidPhone = "invalid phone"
  case emails
  case invalidEmail = "invalid email"
  case circlesExamined = "circles examined"
  case circleBelowMinMembers = "circle with fewer live members than min_members"
}
