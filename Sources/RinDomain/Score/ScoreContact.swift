/// One contact as daily-score sees it at the end of `as_of`.
public struct ScoreContact: Sendable, Equatable {
  public var givenName: String?
  public var familyName: String?
  public var displayName: String?
  public var createdAt: Int64
  public var deletedAt: Int64?
  /// Has a phone or email row whose text is not blank.
  public var hasChannel: Bool
  public var isEnriched: Bool
  /// Its `rin_user_id` is a user live at the end of `as_of`.
  public var isRinUser: Bool
  /// …who has this user among their own live contacts.
  public var isMutual: Bool
  /// Member of a live prepopulated or custom circle.
  public var isOrganized: Bool

  public init(
    givenName: String? = nil, familyName: String? = nil, displayName: String? = nil, createdAt: Int64,
    deletedAt: Int64? = nil, hasChannel: Bool = false, isEnriched: Bool = false, isRinUser: Bool = false,
    isMutual: Bool = false, isOrganized: Bool = false
  ) {
    self.givenName = givenName
    self.familyName = familyName
    self.displayName = displayName
    self.createdAt = createdAt
    self.deletedAt = deletedAt
    self.hasChannel = hasChannel
    self.isEnriched = isEnriched
    self.isRinUser = isRinUser
    self.isMutual = isMutual
    self.isOrganized = isOrganized
  }

  public var hasName: Bool {
    Self.isNotBlank(givenName) || Self.isNotBlank(familyName) || Self.isNotBlank(displayName)
  }

  /// Whether `text` has a character that is not whitespace. A Character is whitespace when its
  /// first scalar is, so text whose first byte is ASCII and not whitespace answers at once,
  /// without grapheme breaking (this ran for every contact: about 7 % of daily-score in perf).
  static func isNotBlank(_ text: String?) -> Bool {
    guard let text else { return false }
    // U+0009…U+000D and U+0020 are the ASCII scalars with the Unicode White_Space property.
    if let first = text.utf8.first, first < 0x80, first != 0x20, !(0x09...0x0D).contains(first) {
      return true
    }
    return text.contains { !$0.isWhitespace }
  }
}
