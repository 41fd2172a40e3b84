import RinDomain
import RinProviderClient
import RinStorage

/// A batch's contacts and what normalization made of them, read before the batch's
/// transaction while the provider is called.
struct PreparedBatch {
  struct Contact {
    var row: EnrichmentContactRow
    var channels: ContactChannels
    var edited: EditedFields
    /// Every field a provider could fill is edited: the contact is not looked up.
    var skipsProvider: Bool { edited.blocksEveryProviderField }
  }

  var contacts: [Contact]

  init(_ rows: [EnrichmentContactRow], normalizer: any ContactNormalizing) {
    contacts = rows.map { row in
      Contact(
        row: row, channels: ContactChannels(row, normalizer: normalizer),
        edited: EditedFields(row.editedFields))
    }
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
