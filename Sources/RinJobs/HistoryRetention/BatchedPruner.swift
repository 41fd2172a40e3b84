import RinRuntime
import RinStorage

/// One table's deletes, a batch per transaction until a batch comes back short, with the run's
/// stop checks between batches.
struct BatchedPruner {
  let context: JobContext
  let limit: Int
  private(set) var batches = 0
  private var summary: [String] = []

  init(context: JobContext, limit: Int) {
    self.context = context
    self.limit = limit
  }

  /// Returns how many rows `delete` removed in all.
  mutating func prune(_ what: String, _ delete: (StorageTransaction, Int) throws -> Int) throws -> Int {
    var total = 0
    while true {
      try context.stopIfRequested(batchesCommitted: batches, done: doneText(what, total))
      let count = try context.write { try delete($0, limit) }
      total += count
      if count > 0 {
        batches += 1
        context.tally.details[HistoryRetentionDetails.self].deleteBatches = batches
        context.logger.debug("batch committed", metadata: ["deleted": "\(count)", "rows": "\(what)"])
      }
      if count < limit { break }
    }
    summary.append("\(total) \(what)")
    return total
  }

  private func doneText(_ what: String, _ count: Int) -> String {
    "deleting " + (summary + ["\(count) \(what)"]).joined(separator: ", ")
  }
}
