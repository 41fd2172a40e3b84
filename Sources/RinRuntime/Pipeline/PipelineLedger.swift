import RinDomain
import RinStorage

/// How a pipeline run appears in the run ledger: a row of its own (`RunSubject.pipeline`)
/// beside the rows of its jobs, which carry the same pipeline and slot.
public enum PipelineLedger {
  /// The `counts` column of a pipeline's row.
  struct Counts: Codable, Equatable {
    struct JobEntry: Codable, Equatable {
      var job: JobName
      var runID: RunID?
      var status: RunRecord.Status
    }

    var jobs: [JobEntry] = []
    /// Set on the row of a missed slot that `--catch-up latest` skipped for a later one: that
    /// slot, in ISO 8601 (the row's `superseded_by` column says the same, for the scheduler).
    @AsText var supersededBy: UTCInstant? = nil
    /// Why a slot ran no job: `paused`.
    var skipReason: SkipReason?

    var json: String? { JSONText.encode(self) }

    static func decode(_ text: String?) -> Counts? {
      guard let text else { return nil }
      return JSONText.decode(Counts.self, from: text)
    }
  }
}
