import Foundation

/// A suggestion's `contact_ids` (ascending ids, comma-separated) without the contacts that were
/// deleted (docs/OPERATIONS.md "Erasure").
public enum SuggestionContactList {
  /// `list` without the ids in `gone`, in the order it had; unchanged (the same text) when it
  /// holds none of them. A part that is not an id is kept as it was: the services' text is
  /// theirs to mend, and erasure must not drop a row it cannot read.
  public static func removing(_ gone: Set<ContactID>, from list: String) -> String {
    let parts = list.split(separator: ",", omittingEmptySubsequences: false)
    let kept = parts.filter { part in
      guard let id = Int64(part.trimmingCharacters(in: .whitespaces)) else { return true }
      return !gone.contains(ContactID(rawValue: id))
    }
    return kept.count == parts.count ? list : kept.joined(separator: ",")
  }
}
