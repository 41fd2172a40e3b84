import RinConfiguration
import RinDomain

/// One of the batch jobs. Implementations hold no state between runs: everything a run needs
/// comes through the context, and everything it leaves goes through storage.
///
/// A job brings its own types: its section of `jobs:` (`Settings`, read with the catalog's
/// `JobSettingsCatalog`, `config.jobs[Self.self]`) and what it reports beside its counts
/// (`Details`, `context.tally.details[Details.self]`). The runner knows neither.
public protocol Job: Sendable {
  associatedtype Settings: JobSettings
  associatedtype Details: JobDetails
  static var name: JobName { get }
  /// The job with its defaults: what the catalog runs.
  init()
  func run(_ context: JobContext) async throws
  /// The job as a dry run runs it. Its writes need no stand-in (the dry run rolls them back);
  /// a call that is paid or reaches outside the database does: one that only counts.
  var forDryRun: Self { get }
}

extension Job {
  public var name: JobName { Self.name }

  public var forDryRun: Self { self }

  /// The settings type of the job, for the catalog the configuration is read with.
  public static var settingsType: any JobSettings.Type { Settings.self }
}
