import RinRuntime

/// attribution-expiry's own keys in its summary's `skipped`.
enum AttributionExpiryCounter: String, JobCounter {
  case inviteClickWithoutTime = "invite click with missing or malformed clicked_at (kept)"
}
