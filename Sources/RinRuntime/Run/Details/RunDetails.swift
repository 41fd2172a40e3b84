import RinDomain

/// What a run reports beside its counts and changes: its job's details and why it stopped
/// early. Written in `--json` and the ledger's `counts` column as one object of texts by key
/// (`"matches": "4"`); read back typed by the job's own `JobDetails` type,
/// `details[Job.Details.self]`, so that the runtime knows no job's details.
public struct RunDetails: Sendable, Equatable, Codable {
  /// The job's details by key, without the stop reason.
  private var jobTexts: [String: String] = [:]
  /// Why the run stopped early (timeout, signal, gave way, critical load): `stop_reason`.
  public var stopReason: SkipReason?

  public init() {}

  /// A job's details: read from the texts, written back into them.
  public subscript<Details: JobDetails>(_ type: Details.Type) -> Details {
    get { Details(texts: jobTexts) }
    set {
      for key in self[type].texts.keys { jobTexts[key] = nil }
      jobTexts.merge(newValue.texts) { $1 }
    }
  }

  /// The details by key, as the summary and the ledger write them.
  public var texts: [String: String] {
    var texts = jobTexts
    if let stopReason { texts[Self.stopReasonKey] = stopReason.rawValue }
    return texts
  }

  public init(texts: [String: String]) {
    jobTexts = texts
    jobTexts[Self.stopReasonKey] = nil
    stopReason = texts[Self.stopReasonKey].flatMap(SkipReason.init(rawValue:))
  }

  public init(from decoder: any Decoder) throws {
    self.init(texts: try decoder.singleValueContainer().decode([String: String].self))
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(texts)
  }

  static let stopReasonKey = "stop_reason"
}
