/// Which provider values a contact gets (docs/CONTRACT.md §3.3): matches below `min_likelihood` are
/// discarded, fields the user edited are never written, and when several of the contact's keys
/// matched, each field takes the value of the most likely match that has one (ties: the smaller
/// key, so the choice never depends on order).
public enum ProviderEnrichmentRule {
  public enum Skip: String, Sendable, CaseIterable {
    case belowMinLikelihood = "provider match below min_likelihood"
    case editedByUser = "enrichment field edited by the user"
    case unusableValue = "provider value malformed, blank or too long"
  }

  public struct Outcome: Sendable, Equatable {
    public var values: [EnrichmentField: EnrichmentValue] = [:]
    public var skipped: [Skip: Int] = [:]
  }

  public static func choose(matches: [ProviderMatch], minLikelihood: Int, edited: EditedFields) -> Outcome {
    var outcome = Outcome()
    let usable = matches.filter { match in
      guard match.likelihood >= minLikelihood else {
        outcome.skipped[.belowMinLikelihood, default: 0] += 1
        return false
      }
      return true
    }.sorted { ($0.likelihood, $1.key) > ($1.likelihood, $0.key) }
    for field in EnrichmentField.providerFields {
      var best: EnrichmentValue?
      for match in usable {
        guard let raw = match.value(of: field) else { continue }
        guard let value = ProviderValueCheck.clean(raw, for: field) else {
          outcome.skipped[.unusableValue, default: 0] += 1
          continue
        }
        best = EnrichmentValue(
          value: value, confidence: Double(match.likelihood) / 10, fetchedAt: match.fetchedAt)
        break
      }
      guard let best else { continue }
      if edited.contains(field) {
        outcome.skipped[.editedByUser, default: 0] += 1
      } else {
        outcome.values[field] = best
      }
    }
    return outcome
  }
}
