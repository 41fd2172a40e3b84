import RinDomain

/// One job's section of `jobs:` (`jobs.<job>:`), declared by the job itself (`Job.Settings`) so
/// that the configuration reads every job's keys without knowing any job. The `timeout` every
/// section accepts is read beside it, into `JobsSettings.timeouts`.
///
/// The runtime reads a job's settings only through what every job may have (the requirements
/// with defaults below), never through a job's own fields.
public protocol JobSettings: Sendable, Hashable {
  /// The keys the section accepts, besides `timeout`: any other key is rejected at load.
  static var keys: [String] { get }
  /// Every default: the section of a job the file leaves out.
  init()
  /// Reads the section; a bad value throws with the file, line and column at fault.
  init(reading config: ConfigMapping) throws(ConfigError)
  /// Users per transaction of the job's user walk.
  var batchSize: Int { get }
  /// Environment variables holding secrets a real run sends somewhere: a dry run, which sends
  /// nothing, gives an unset one a placeholder.
  var secretVariables: [String] { get }
  /// The outside provider the job calls behind a circuit breaker, whose health `rinjobs status`
  /// reports for a pipeline that runs the job.
  var guardedProvider: GuardedProvider? { get }
  /// The longest an owner goes without being examined by a job that otherwise examines only
  /// changed owners: `rinjobs freshness` counts an owner examined longer ago stale.
  var fullPassPeriod: Duration? { get }
}

extension JobSettings {
  public var secretVariables: [String] { [] }
  public var guardedProvider: GuardedProvider? { nil }
  public var fullPassPeriod: Duration? { nil }

  /// Equal to `other`, or to the defaults when there is no `other`.
  func isEqual(to other: (any JobSettings)?) -> Bool {
    guard let other else { return self == Self() }
    return (other as? Self) == self
  }
}
