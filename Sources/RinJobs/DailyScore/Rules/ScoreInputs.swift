import RinDomain

/// What daily-score counts for one user at the end of `as_of` (docs/CONTRACT.md §3.1).
public struct ScoreInputs: Sendable, Equatable {
  /// Live contacts (N).
  public var contacts = 0
  /// With a non-blank name and a non-blank phone or email.
  public var complete = 0
  /// With at least one enrichment.
  public var enriched = 0
  /// Pending merge suggestions in the review band.
  public var pendingDuplicates = 0
  /// Contacts that are live Rin users.
  public var rin = 0
  /// Of those, the ones whose Rin user has this user as a contact too.
  public var mutual = 0
  /// In at least one live prepopulated or custom circle.
  public var organized = 0
  /// Live custom circles with at least one live member.
  public var customCircles = 0
  /// Contacts created in the last 30 days (a day or more after the user joined) plus contacts
  /// deleted in them.
  public var churn = 0
  /// Whole days from the user's creation to the end of `as_of`.
  public var tenureDays = 0
  public var phoneVerified = false
  public var openSecurityItems = 0

  public init() {}
}
