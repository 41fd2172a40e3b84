import RinDomain

/// One contact as daily-score sees it at the end of `as_of`.
public struct ScoreContact: Sendable, Equatable {
  /// One of its given, family or display names is not blank.
  public var hasName: Bool
  public var createdAt: UTCInstant
  public var deletedAt: UTCInstant?
  /// Has a phone or email row whose text is not blank.
  public var hasChannel: Bool
  public var isEnriched: Bool
  /// When its earliest enrichment was fetched, if it has one (a tally's `dueEnd` when later than the end).
  public var enrichedAt: UTCInstant?
  /// Its `rin_user_id` is a user live at the end of `as_of`.
  public var isRinUser: Bool
  /// …who has this user among their own live contacts.
  public var isMutual: Bool
  /// Member of a live prepopulated or custom circle.
  public var isOrganized: Bool

  public init(
    hasName: Bool, createdAt: UTCInstant, deletedAt: UTCInstant? = nil, hasChannel: Bool = false,
    isEnriched: Bool = false, enrichedAt: UTCInstant? = nil, isRinUser: Bool = false, isMutual: Bool = false,
    isOrganized: Bool = false
  ) {
    self.hasName = hasName
    self.enrichedAt = enrichedAt
    self.createdAt = createdAt
    self.deletedAt = deletedAt
    self.hasChannel = hasChannel
    self.isEnriched = isEnriched
    self.isRinUser = isRinUser
    self.isMutual = isMutual
    self.isOrganized = isOrganized
  }

  public init(
    givenName: String? = nil, familyName: String? = nil, displayName: String? = nil, createdAt: UTCInstant,
    deletedAt: UTCInstant? = nil, hasChannel: Bool = false, isEnriched: Bool = false, isRinUser: Bool = false,
    isMutual: Bool = false, isOrganized: Bool = false
  ) {
    self.init(
      hasName: Self.isNotBlank(givenName) || Self.isNotBlank(familyName) || Self.isNotBlank(displayName),
      createdAt: createdAt, deletedAt: deletedAt, hasChannel: hasChannel, isEnriched: isEnriched,
      isRinUser: isRinUser, isMutual: isMutual, isOrganized: isOrganized)
  }

  /// Whether `text` has a character that is not whitespace.
  public static func isNotBlank(_ text: String?) -> Bool {
    guard var copy = text else { return false }
    return copy.withUTF8 { isNotBlank(utf8: $0) }
  }

  /// The same rule on UTF-8 bytes (invalid sequences read as U+FFFD, as `String` decodes them),
  /// so that a reader can answer it without making a `String` for every name of every contact.
  /// A Character is whitespace when its first scalar is, so text whose first byte is ASCII and
  /// not whitespace answers at once, without grapheme breaking (this runs for every contact).
  public static func isNotBlank(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let first = bytes.first else { return false }
    // U+0009…U+000D and U+0020 are the ASCII scalars with the Unicode White_Space property.
    if first < 0x80, first != 0x20, !(0x09...0x0D).contains(first) { return true }
    // The first scalar starts the first Character: when it is not whitespace, neither is that.
    var iterator = bytes.makeIterator()
    var decoder = UTF8()
    if case .scalarValue(let scalar) = decoder.decode(&iterator), !scalar.properties.isWhitespace {
      return true
    }
    return String(decoding: bytes, as: UTF8.self).contains { !$0.isWhitespace }
  }
}
