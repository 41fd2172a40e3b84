import RinNormalize

/// The production normalizer: `RinNormalize`'s libphonenumber parsing (national forms read in
/// the owner's region) and its email rules, the same ones circle-patterns uses.
public struct RinContactNormalizer: ContactNormalizing {
  public init() {}

  public func e164(raw: String, ownerRegion: String?) -> String? {
    PhoneNormalizer.parse(raw: raw, defaultRegion: PhoneNormalizer.region(from: ownerRegion))?.e164
  }

  public var parserDigest: Int64 { PhoneNormalizer.metadataDigest }

  public func email(_ raw: String) -> String? {
    EmailAddress.parse(raw)?.normalized
  }
}
