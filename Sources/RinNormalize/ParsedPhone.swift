/// A phone number that libphonenumber accepted as valid.
public struct ParsedPhone: Sendable, Hashable {
  /// "+14155550123".
  public var e164: String
  public var countryCallingCode: Int
  /// Country calling code and geographic area code ("+1-415"); nil for numbers without one
  /// (most mobiles outside North America, toll-free and other non-geographic numbers).
  public var geographicAreaCode: String?

  public init(e164: String, countryCallingCode: Int, geographicAreaCode: String?) {
    self.e164 = e164
    self.countryCallingCode = countryCallingCode
    self.geographicAreaCode = geographicAreaCode
  }
}
