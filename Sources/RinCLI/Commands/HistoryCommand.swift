import ArgumentParser
import Foundation
import RinDomain
import RinRuntime
import RinStorage

/// `rinjobs history`: the run ledger, newest first.
struct HistoryCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "history", abstract: "Show the run ledger, newest first.")

  @OptionGroup var storage: StorageOptions

  @Option(help: "Only runs of this job.") var job: JobName?
  @Option(name: .customLong("pipeline"), help: "Only runs of this pipeline.") var pipelineName: String?
  @Option(help: "Only runs with this status (running, succeeded, failed, interrupted, abandoned, skipped).")
  var status: String?
  @Option(parsing: .unconditional, help: "How many runs.") var limit = 20
  @Flag(help: "One JSON object per run.") var json = false

  func validate() throws {
    if let status, RunRecord.Status(rawValue: status) == nil {
      throw ValidationError(
        "--status '\(status)': expected one of \(RunRecord.Status.allCases.map(\.rawValue).joined(separator: ", "))"
      )
    }
    guard limit > 0 else { throw ValidationError("--limit \(limit): expected 1 or more runs") }
  }

  func run() async throws {
    try await CLIFailure.reporting("rinjobs history") {
      let config = try storage.loadConfig()
      let opened = try storage.openStorage(config)
      // Text that is no pipeline name is in no ledger row: no runs.
      let pipeline = pipelineName.map(PipelineName.init(rawValue:))
      let runs =
        pipeline == .some(nil)
        ? []
        : try opened.read {
          try $0.runtime.runs(
            .init(
              job: job.map(RunSubject.job), pipeline: pipeline ?? nil,
              status: status.flatMap(RunRecord.Status.init), limit: limit))
        }
      // A pipeline neither in the config nor ever in the ledger is a typo, as `status` says.
      if let pipelineName, runs.isEmpty, config.pipeline(named: pipelineName) == nil {
        _ = try PipelineLookup.select(pipelineName, in: config)
      }
      if json {
        for run in runs { print(JSONText.encode(run) ?? "{}") }
        return
      }
      print(HistoryTable.render(runs))
    }
  }
}

enum HistoryTable {
  static func render(_ runs: [RunRecord]) -> String {
    guard !runs.isEmpty else { return "no runs recorded yet" }
    var lines = [
      "   id  job                 status       started (UTC)         secs  as of       shard  mode  pipeline/slot"
    ]
    for r in runs {
      let seconds = r.finishedAt.map { String($0.seconds - r.startedAt.seconds) } ?? "-"
      let place = [r.pipeline?.rawValue, r.slot?.description].compactMap { $0 }.joined(separator: "/")
      lines.append(
        [
          pad(String(r.id), 5, right: true), pad(r.job.description, 19), pad(r.status.rawValue, 12),
          pad(r.startedAt.description, 21), pad(seconds, 5, right: true),
          pad(r.asOf?.description ?? "-", 11), pad(r.shard.description, 6), pad(r.dryRun ? "dry" : "real", 5),
          place,
        ].joined(separator: " "))
      if let error = r.error, r.status != .succeeded { lines.append("       ↳ \(error)") }
    }
    return lines.joined(separator: "\n")
  }

  static func pad(_ s: String, _ width: Int, right: Bool = false) -> String {
    let fill = String(repeating: " ", count: max(0, width - s.count))
    return right ? fill + s : s + fill
  }
}
