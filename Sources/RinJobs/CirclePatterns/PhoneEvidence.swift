import RinDomain

/// What a contact's phone numbers showed circle-patterns the last time it parsed all of them:
/// kept (in `contact_states`) so that a later night parses only the numbers that changed,
/// since libphonenumber is most of that job's time. No number is kept: the fingerprint of what the
/// answer was derived from, and the derived values.
public struct PhoneEvidence: Sendable, Equatable {
  /// `fingerprint(numbers:region:parser:)` of the inputs the values were derived from.
  public var fingerprint: Int64
  /// Numbers libphonenumber found valid (the contact counts in an area-code share when above 0).
  public var validNumbers: Int
  /// Numbers it did not: counted as `invalid phone` again each night the evidence is used.
  public var invalidNumbers: Int
  /// Geographic area codes (`+1-415`) of the valid numbers.
  public var areaCodes: Set<String>

  public init(fingerprint: Int64, validNumbers: Int, invalidNumbers: Int, areaCodes: Set<String>) {
    self.fingerprint = fingerprint
    self.validNumbers = validNumbers
    self.invalidNumbers = invalidNumbers
    self.areaCodes = areaCodes
  }

  /// Everything a parse's answer depends on: each number as typed (in any order: rows come back
  /// unordered), the default region it is parsed with, and the parser (libphonenumber's metadata
  /// digest and our derivation's version). Any change gives another fingerprint, so stale
  /// evidence is never used; a 64-bit collision within one contact's history is the only way
  /// to reuse the wrong answer.
  public static func fingerprint(numbers: [String], region: String, parser: Int64) -> Int64 {
    var hash = FNV1a()
    hash.add(String(derivationVersion))
    hash.add(String(parser))
    hash.add(region)
    hash.separate(0x1D)
    for number in numbers.sorted() { hash.add(number) }
    return Int64(bitPattern: hash.value)
  }

  /// Raised whenever what is derived from a number changes (a new rule, another field).
  static let derivationVersion = 1

  /// The area codes as stored: ascending, comma-separated (a code never holds a comma).
  public var areaCodeList: String { areaCodes.sorted().joined(separator: ",") }

  public static func areaCodes(fromList list: String) -> Set<String> {
    Set(list.split(separator: ",").map(String.init))
  }
}
