import CRinShim

/// Phone numbers through Google's libphonenumber (thread-safe; its metadata is loaded once).
public enum PhoneNormalizer {
  /// The region libphonenumber uses when none is known: only numbers written with `+` parse.
  public static let unknownRegion = "ZZ"

  /// libphonenumber's own input limit (`kMaxInputStringLength`), in bytes.
  public static let maxInputLength = 250

  /// Parses `raw` as typed, national forms read with `defaultRegion` (see `region(from:)`);
  /// nil when it is not a valid number.
  public static func parse(raw: String, defaultRegion: String) -> ParsedPhone? {
    parse(raw: raw, defaultRegion: defaultRegion, with: rin_phone_parse)
  }

  /// `parse` through libphonenumber's own validity and area-code calls, which find the number's
  /// region and type three times where `parse` finds them once: the reference `parse` is tested
  /// against, not for the jobs.
  public static func parseByLibrary(raw: String, defaultRegion: String) -> ParsedPhone? {
    parse(raw: raw, defaultRegion: defaultRegion, with: rin_phone_parse_by_library)
  }

  /// The E.164 form of whatever `raw` parses into, valid or not: `parse(…)?.e164` wherever that
  /// answers, without the type lookup that decides validity (most of `parse`'s time). For
  /// finding rows keyed by valid numbers' forms, where a key too many costs a lookup that finds
  /// nothing and a key too few would leave a row behind.
  public static func e164OfAnyNumber(raw: String, defaultRegion: String) -> String? {
    guard raw.utf8.count <= maxInputLength else { return nil }
    var buffer = [CChar](repeating: 0, count: 32)
    let parsed = raw.withCString { text in
      defaultRegion.withCString { region in
        rin_phone_e164_of_any_number(text, region, &buffer, buffer.count)
      }
    }
    guard parsed == 1 else { return nil }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// A digest of libphonenumber's metadata: a stored answer of `parse` holds while it is unchanged.
  public static let metadataDigest = Int64(bitPattern: rin_phone_metadata_digest())

  private static func parse(
    raw: String, defaultRegion: String,
    with parser: (UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafeMutablePointer<rin_phone>?) -> Int32
  ) -> ParsedPhone? {
    // Longer text is no phone number, and libphonenumber's regular expressions take minutes
    // over a megabyte of digits.
    guard raw.utf8.count <= maxInputLength else { return nil }
    var phone = rin_phone()
    let valid = raw.withCString { text in
      defaultRegion.withCString { region in parser(text, region, &phone) }
    }
    guard valid == 1 else { return nil }
    let e164 = text(of: &phone.e164)
    let area = text(of: &phone.area_code)
    let code = Int(phone.country_code)
    return ParsedPhone(
      e164: e164, countryCallingCode: code, geographicAreaCode: area.isEmpty ? nil : "+\(code)-\(area)")
  }

  /// The default region for a stored `users.region`: trimmed and upper-cased when
  /// libphonenumber knows it, else `unknownRegion`.
  public static func region(from stored: String?) -> String {
    guard let stored else { return unknownRegion }
    let code = stored.trimmingWhitespace.uppercased()
    guard code.count == 2, code.allSatisfy({ $0.isASCII && $0.isLetter }) else { return unknownRegion }
    return code.withCString { rin_phone_region_known($0) } == 1 ? code : unknownRegion
  }

  private static func text<T>(of buffer: inout T) -> String {
    withUnsafeBytes(of: &buffer) { bytes in
      String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }
  }
}
