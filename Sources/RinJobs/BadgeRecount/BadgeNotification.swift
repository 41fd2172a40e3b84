import RinDomain
import RinStorage

/// The silent push that carries a user's new badge counts (docs/CONTRACT.md §2, notifications).
enum BadgeNotification {
  /// One per change of counts, so A → B → A notifies every time.
  static func dedupeKey(user: UserID, computedAt: UTCInstant) -> String {
    "\(NotificationKind.badge.rawValue):\(user):\(computedAt.seconds)"
  }

  /// The four counts as JSON, keys sorted, built by hand: `JSONEncoder` showed in the job's
  /// profile.
  static func payload(_ counts: BadgeCounts) -> String {
    #"{"circles":\#(counts.circles),"home":\#(counts.home),"profile":\#(counts.profile),"score":\#(counts.score)}"#
  }

  static func message(user: UserID, counts: BadgeCounts, computedAt: UTCInstant) -> OutboxMessage {
    OutboxMessage(
      userID: user, kind: .badge, deepLink: nil, payload: payload(counts),
      dedupeKey: dedupeKey(user: user, computedAt: computedAt))
  }
}
