import RinConfiguration
import RinDomain
import RinRuntime

/// `rinjobs freshness` as text: a line per output, the stale users' first ids, and the counts by
/// shard when there is a split.
public enum FreshnessText {
  public static func render(_ result: FreshnessResult) -> String {
    var lines = [
      "freshness at \(result.now): \(result.staleUsers == 0 ? "every output fresh" : "\(result.staleUsers) stale")"
    ]
    for tally in result.tallies {
      let promise = tally.promise
      var line = "  \(promise.output.rawValue) (max age \(DurationFormat.format(promise.maxAge))"
      if let fullEvery = promise.fullEvery { line += ", examined every \(DurationFormat.format(fullEvery))" }
      line += "): \(tally.users) users, \(tally.stale) stale"
      if let oldest = tally.oldest {
        line +=
          ", the oldest from \(oldest) (\(DurationFormat.format(.seconds(tally.oldestAge(now: result.now)))) ago)"
      }
      lines.append(line)
      if !tally.staleUsers.isEmpty {
        let more =
          tally.stale > tally.staleUsers.count ? " … and \(tally.stale - tally.staleUsers.count) more" : ""
        lines.append("    stale users: \(tally.staleUsers.map(String.init).joined(separator: ", "))\(more)")
      }
      if let count = result.shardCount {
        let shards = tally.byShard.sorted { $0.key < $1.key }.map {
          "\($0.key)/\(count) \($0.value.stale)/\($0.value.users)"
        }
        lines.append("    stale by shard: \(shards.joined(separator: ", "))")
      }
    }
    return lines.joined(separator: "\n")
  }
}
