import ArgumentParser
import Foundation
import RinDomain
import RinRuntime

/// The options every job takes (docs/CONTRACT.md §4), for `rinjobs run JOB` and `rin-JOB` alike.
public struct JobOptions: ParsableArguments {
  @OptionGroup var storage: StorageOptions

  @Flag(name: .long, help: "Show what would change; commit nothing, call no paid API.")
  var dryRun = false

  @Option(name: .long, help: "The date to compute for, YYYY-MM-DD (default: today, UTC).")
  var asOf: String?

  @Option(name: .long, help: "The job's clock, ISO 8601 (e.g. 2026-11-22T02:30:00Z; default: now).")
  var now: String?

  @Option(name: .long, help: "Only this user id (repeatable).")
  var user: [Int64] = []

  @Option(name: .long, help: "Users with id mod N = K: K/N, or auto/N to read K from JOB_COMPLETION_INDEX.")
  var shard: String?

  @Flag(name: .long, help: "Print a machine-readable summary on stdout.")
  var json = false

  @Option(name: .long, help: "Write Prometheus text-format metrics to this file (atomically).")
  var metricsFile: String?

  @Option(name: .long, help: "Wait up to SECONDS for another run's lease instead of exiting 75.")
  var wait: Double = 0

  @Flag(name: .long, help: "Examine every user, also those unchanged since the last run (circle-patterns).")
  var full = false

  public init() {}

  public mutating func validate() throws {
    _ = try runOptions()
  }

  /// The options as the runtime takes them; a `ValidationError` (exit 64) when one is malformed.
  func runOptions() throws -> RunOptions {
    var options = RunOptions()
    options.dryRun = dryRun
    options.json = json
    options.metricsFile = metricsFile
    options.userIDs = user
    options.full = full
    if let asOf {
      guard let date = CalendarDate(asOf) else {
        throw ValidationError("--as-of '\(asOf)': expected a date as YYYY-MM-DD, e.g. 2026-11-01")
      }
      options.asOf = date
    }
    if let now {
      guard let instant = InstantParser.parse(now) else {
        throw ValidationError("--now '\(now)': expected ISO 8601 with a zone, e.g. 2026-11-22T02:30:00Z")
      }
      options.now = instant
    }
    if let shard {
      switch ShardSpec.parse(shard) {
      case .success(let spec): options.shard = spec
      case .failure(let failure): throw ValidationError(failure.message)
      }
    }
    guard wait >= 0, wait.isFinite else { throw ValidationError("--wait must be 0 or more seconds") }
    options.waitSeconds = wait
    if user.contains(where: { $0 <= 0 }) { throw ValidationError("--user takes positive user ids") }
    return options
  }
}

enum InstantParser {
  /// Unix seconds of an ISO 8601 instant (`Z` or an offset; fractions allowed), or of a bare
  /// `YYYY-MM-DD` taken as 00:00 UTC. Foundation's `ISO8601FormatStyle` parses it without ICU
  /// (`ISO8601DateFormatter` loads ICU: 2.5 ms of every process); it is lenient about the
  /// fields' ranges, so the date and the time of day are checked here.
  static func parse(_ text: String) -> Int64? {
    if let date = CalendarDate(text) { return date.startOfDayUTC }
    let utf8 = Array(text.utf8)
    guard utf8.count >= 20, CalendarDate(String(decoding: utf8[0..<10], as: UTF8.self)) != nil,
      let hour = twoDigits(utf8, 11), hour < 24,
      let minute = twoDigits(utf8, 14), minute < 60,
      let second = twoDigits(utf8, 17), second < 60
    else { return nil }
    for style in [Date.ISO8601FormatStyle(), Date.ISO8601FormatStyle(includingFractionalSeconds: true)] {
      if let date = try? style.parse(text) { return Int64(date.timeIntervalSince1970.rounded(.down)) }
    }
    return nil
  }

  private static func twoDigits(_ bytes: [UInt8], _ offset: Int) -> Int? {
    let tens = Int(bytes[offset]) - 48
    let ones = Int(bytes[offset + 1]) - 48
    guard (0...9).contains(tens), (0...9).contains(ones) else { return nil }
    return tens * 10 + ones
  }
}
