import RinDomain
import RinStorage

/// `--json` prints the summary as it did when its values were text and numbers: `now` in Unix
/// seconds, the slot in ISO 8601, `as_of` as `YYYY-MM-DD`.
extension RunSummary: Codable {
  private enum CodingKeys: String, CodingKey {
    case job, runID, status, exitCode, dryRun, asOf, now, shard, users, pipeline, slot, resumedAfterUser
    case durationSeconds, counts, changes, details, provider, paused, error
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      job: try container.decode(JobName.self, forKey: .job),
      dryRun: try container.decode(Bool.self, forKey: .dryRun))
    runID = try container.decodeIfPresent(Int64.self, forKey: .runID)
    status = try container.decode(RunRecord.Status.self, forKey: .status)
    exitCode = try container.decode(RinExitCode.self, forKey: .exitCode)
    asOf = try container.decodeDateText(forKey: .asOf)
    now = try container.decodeSeconds(forKey: .now)
    shard = try container.decode(RunShard.self, forKey: .shard)
    users = try container.decodeIfPresent(String.self, forKey: .users)
    pipeline = try container.decodeIfPresent(PipelineName.self, forKey: .pipeline)
    slot = try container.decodeInstantText(forKey: .slot)
    resumedAfterUser = try container.decodeIfPresent(Int64.self, forKey: .resumedAfterUser)
    durationSeconds = try container.decode(Double.self, forKey: .durationSeconds)
    counts = try container.decode(JobCounts.self, forKey: .counts)
    changes = try container.decode(ChangeSet.self, forKey: .changes)
    details = try container.decode([String: String].self, forKey: .details)
    provider = try container.decodeIfPresent(ProviderHealth.self, forKey: .provider)
    paused = try container.decodeIfPresent(PausedTime.self, forKey: .paused)
    error = try container.decodeIfPresent(String.self, forKey: .error)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(job, forKey: .job)
    try container.encodeIfPresent(runID, forKey: .runID)
    try container.encode(status, forKey: .status)
    try container.encode(exitCode, forKey: .exitCode)
    try container.encode(dryRun, forKey: .dryRun)
    try container.encodeText(asOf, forKey: .asOf)
    try container.encodeSeconds(now, forKey: .now)
    try container.encode(shard, forKey: .shard)
    try container.encodeIfPresent(users, forKey: .users)
    try container.encodeIfPresent(pipeline, forKey: .pipeline)
    try container.encodeText(slot, forKey: .slot)
    try container.encodeIfPresent(resumedAfterUser, forKey: .resumedAfterUser)
    try container.encode(durationSeconds, forKey: .durationSeconds)
    try container.encode(counts, forKey: .counts)
    try container.encode(changes, forKey: .changes)
    try container.encode(details, forKey: .details)
    try container.encodeIfPresent(provider, forKey: .provider)
    try container.encodeIfPresent(paused, forKey: .paused)
    try container.encodeIfPresent(error, forKey: .error)
  }
}
