import RinDomain

/// A slot is named by its UTC instant in ISO 8601 (`2026-11-22T02:30:00Z`, the instant's
/// `description`): fixed width, so the ledger's text column sorts and range-filters in time order.
public enum SlotInstant {
  /// The instant of a slot's name, as `UTCInstant.description` writes it; nil for anything else
  /// (another zone, a fraction, a bare date: another spelling would sort apart from the slot it
  /// names).
  public static func parse(_ text: String) -> UTCInstant? {
    guard text.utf8.count == 20, text.hasSuffix("Z") else { return nil }
    return UTCInstant(text)
  }
}
