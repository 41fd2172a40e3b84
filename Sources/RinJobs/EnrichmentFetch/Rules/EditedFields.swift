/// `contacts.edited_fields`: the fields the user edited by hand, which enrichment never writes.
public struct EditedFields: Sendable, Equatable {
  public let names: Set<String>

  /// Reads a comma list leniently: spaces around names, any case, empty entries ignored.
  public init(_ text: String?) {
    names = Set(
      (text ?? "").split(separator: ",").map { $0.trimmingCharacters(in: " \t\r\n").lowercased() }
        .filter { !$0.isEmpty })
  }

  public func contains(_ field: EnrichmentField) -> Bool { names.contains(field.rawValue) }

  /// Every field a provider could fill is edited: looking the contact up would be money spent
  /// on nothing.
  public var blocksEveryProviderField: Bool { EnrichmentField.providerFields.allSatisfy(contains) }
}

extension Substring {
  fileprivate func trimmingCharacters(in set: String) -> String {
    let characters = Set(set)
    let start = firstIndex { !characters.contains($0) } ?? endIndex
    let end = self[start...].lastIndex { !characters.contains($0) }.map(index(after:)) ?? start
    return String(self[start..<end])
  }
}
