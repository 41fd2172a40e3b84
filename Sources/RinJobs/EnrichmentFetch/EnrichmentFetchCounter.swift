import RinRuntime

/// enrichment-fetch's own keys in its summary's `read` and `skipped` (and the provider rule's
/// skips, `ProviderEnrichmentRule.Skip`).
enum EnrichmentFetchCounter: String, JobCounter {
  case contactsLeftToTheirChecks = "contacts left to their checks (not read)"
  case contactsSettledByTheirChecks = "contacts whose checks settled a verified user's change (not read)"
  case usersWithDeparturesOnly = "users whose departed verified users' contacts alone were checked"
  case contactPhoneMalformed = "contact phone malformed"
  case contactEmailMalformed = "contact email malformed"
  case contactPhoneIsTheOwnersOwnNumber = "contact phone is the owner's own number"
  case contactPhonesOfSeveralVerifiedUsers = "contact phones belong to several verified users"
  case everyProviderFieldEdited = "contact has every provider field edited (not looked up)"
  case cachedProviderResponseUnreadable = "cached provider response unreadable"
}

extension ProviderEnrichmentRule.Skip: JobCounter {}
