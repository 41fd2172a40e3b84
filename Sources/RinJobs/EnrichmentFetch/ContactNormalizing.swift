/// Where enrichment meets phone and email normalization: the one implementation lives in
/// `RinNormalize` (libphonenumber); enrichment only asks these two questions.
public protocol ContactNormalizing: Sendable {
  /// The E.164 form of a number as typed, national forms read in the owner's region; nil when
  /// it is not a valid number.
  func e164(raw: String, ownerRegion: String?) -> String?
  /// The trimmed, lower-cased address; nil when it is not one address.
  func email(_ raw: String) -> String?
  /// A digest of what decides `e164`'s answers (libphonenumber's metadata): an owner whose
  /// numbers were bucketed by their E.164 form is examined again when it changes.
  var parserDigest: Int64 { get }
}
