import RinDomain
import RinProviderClient
import RinStorage

/// A batch's contacts and what normalization made of them, read before the batch's
/// transaction while the provider is called.
struct PreparedBatch {
  struct Contact: Sendable {
    var row: EnrichmentContactRow
    var channels: ContactChannels
    var edited: EditedFields
    /// Every field a provider could fill is edited: the contact is not looked up.
    var skipsProvider: Bool { edited.blocksEveryProviderField }
  }

  var contacts: [Contact]

  /// Contacts per parallel slice: parsing numbers (libphonenumber) is most of a batch's CPU.
  static let sliceSize = 2_000

  /// Normalizes the batch's contacts in slices on all cores, keeping their order.
  static func make(
    _ rows: [EnrichmentContactRow], normalizer: any ContactNormalizing, forProvider: Bool
  ) async -> PreparedBatch {
    let slices = stride(from: 0, to: rows.count, by: sliceSize).map {
      Array(rows[$0..<min($0 + sliceSize, rows.count)])
    }
    let prepared = await withTaskGroup(of: (Int, [Contact]).self) { group in
      for (index, slice) in slices.enumerated() {
        group.addTask { (index, slice.map { contact($0, normalizer: normalizer, forProvider: forProvider) }) }
      }
      var done: [Int: [Contact]] = [:]
      for await (index, contacts) in group { done[index] = contacts }
      return done
    }
    return PreparedBatch(contacts: slices.indices.flatMap { prepared[$0] ?? [] })
  }

  private static func contact(
    _ row: EnrichmentContactRow, normalizer: any ContactNormalizing, forProvider: Bool
  ) -> Contact {
    let edited = EditedFields(row.editedFields)
    // A contact whose every provider field is edited is never looked up: nothing to hash.
    let channels = ContactChannels(
      row, normalizer: normalizer, forProvider: forProvider && !edited.blocksEveryProviderField)
    return Contact(row: row, channels: channels, edited: edited)
  }

  /// Each key the provider could be asked about, once.
  var providerLookups: [String: ProviderLookup] {
    var lookups: [String: ProviderLookup] = [:]
    for contact in contacts where !contact.skipsProvider {
      for lookup in contact.channels.lookups { lookups[lookup.id] = lookup }
    }
    return lookups
  }
}
