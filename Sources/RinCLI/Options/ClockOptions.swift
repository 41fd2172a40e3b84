import ArgumentParser
import RinDomain

/// `--now`: the instant a command takes for the present, to replay a night or test a slot.
/// Shared by `run`, `pipeline run`, `status` and `report`.
struct ClockOptions: ParsableArguments {
  @Option(
    help: "The clock, ISO 8601 with a zone (e.g. 2026-11-22T02:30:00Z; default: now).",
    transform: UTCInstant.parse(argument:))
  var now: UTCInstant?

  init() {}
}
