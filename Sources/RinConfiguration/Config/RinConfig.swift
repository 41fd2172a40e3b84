import RinDomain

/// Everything `pipelines.yaml` says, validated and with defaults filled in.
public struct RinConfig: Sendable, Hashable {
  public var storage: StorageSettings
  public var jobs: JobsSettings
  /// In file order, which is the order `rinjobs plan` and the crontab list them.
  public var pipelines: [PipelineConfig]
  /// `metrics:`: the Pushgateway every run pushes to, if any.
  public var metrics: MetricsSettings
  /// `freshness:`: each output's configured maximum age (`FreshnessSettings.promises(in:)`).
  public var freshness: FreshnessSettings
  /// The file this came from, for messages; `defaultsSourcePath` when there was no file.
  public var sourcePath: String

  public static let defaultsSourcePath = "(built-in defaults)"

  public init(
    storage: StorageSettings = .init(), jobs: JobsSettings = .init(),
    pipelines: [PipelineConfig] = [], metrics: MetricsSettings = .init(),
    freshness: FreshnessSettings = .init(), sourcePath: String
  ) {
    self.storage = storage
    self.jobs = jobs
    self.pipelines = pipelines
    self.metrics = metrics
    self.freshness = freshness
    self.sourcePath = sourcePath
  }

  /// For running a single job with no config file: every default of every job of `jobs`, no
  /// pipelines.
  public static func defaults(storageURL: String? = nil, jobs: JobSettingsCatalog = [:]) -> RinConfig {
    RinConfig(
      storage: StorageSettings(url: storageURL ?? StorageSettings().url), jobs: JobsSettings(catalog: jobs),
      sourcePath: defaultsSourcePath)
  }

  public func pipeline(named name: PipelineName) -> PipelineConfig? {
    pipelines.first { $0.name == name }
  }

  /// The pipeline a command line names; nil for a name not in the config (or not a name).
  public func pipeline(named text: String) -> PipelineConfig? {
    PipelineName(rawValue: text).flatMap { pipeline(named: $0) }
  }
}
