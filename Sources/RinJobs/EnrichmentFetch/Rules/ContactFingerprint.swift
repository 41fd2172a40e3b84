import RinDomain

/// A 64-bit digest of everything enrichment-fetch reads about a contact (its numbers and
/// addresses as typed, the owner's region, `edited_fields`, `rin_user_id`): the same inputs
/// give the same fingerprint in every process, so a later run can tell that nothing changed
/// without parsing a number. FNV-1a: fast and stable; not a security boundary (a collision only
/// delays a recheck until the contact's cache expires).
public enum ContactFingerprint {
  public static func of(
    ownerRegion: String?, editedFields: String?, rinUserID: Int64?, phones: [String], emails: [String]
  ) -> Int64 {
    var hash = FNV1a()
    hash.add(ownerRegion)
    hash.add(editedFields)
    hash.add(rinUserID.map(String.init))
    hash.separate(0x1D)
    for phone in phones { hash.add(phone) }
    hash.separate(0x1D)
    for email in emails { hash.add(email) }
    return Int64(bitPattern: hash.value)
  }
}
