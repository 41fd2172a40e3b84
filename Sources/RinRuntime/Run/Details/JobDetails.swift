import Foundation

/// A job's facts worth a line in its summary (ids and counts only): a `Codable` struct of typed
/// values, each written in the summary and the ledger as its text under its own key, beside the
/// other jobs' (`RunDetails`), as they were when details were text.
public protocol JobDetails: Codable, Sendable, Equatable {
  init()
  /// Details whose key is not a fixed name (`requests_given_up (CAUSE)`), by key.
  var keyedTexts: [String: String] { get }
  /// Reads back what `keyedTexts` wrote, from all of a run's details.
  mutating func readKeyedTexts(_ texts: [String: String])
}

extension JobDetails {
  public var keyedTexts: [String: String] { [:] }

  public mutating func readKeyedTexts(_ texts: [String: String]) {}

  /// The details by key, as the summary and the ledger write them.
  var texts: [String: String] {
    guard let data = try? JSONEncoder().encode(self),
      var texts = try? JSONDecoder().decode([String: String].self, from: data)
    else { return keyedTexts }
    texts.merge(keyedTexts) { $1 }
    return texts
  }

  /// Reads the job's details from all of a run's: the keys it knows; none for a value that is
  /// not what it wrote.
  init(texts: [String: String]) {
    guard let data = try? JSONEncoder().encode(texts),
      var details = try? JSONDecoder().decode(Self.self, from: data)
    else {
      self.init()
      return
    }
    details.readKeyedTexts(texts)
    self = details
  }
}
