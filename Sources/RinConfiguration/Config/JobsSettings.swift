import RinDomain

/// `jobs:` — each job's settings by job name, typed by the job's own `JobSettings` type, and the
/// `timeout` any job may have. Which jobs there are, and the settings type of each, comes from
/// the catalog the file is read with (`JobSettingsCatalog`): the configuration names no job.
public struct JobsSettings: Sendable, Hashable {
  /// Every job of the catalog: as the file set it, or its defaults when the file left it out.
  private var settings: [JobName: any JobSettings]
  /// `jobs.<job>.timeout` of each job that has one (`RunDeadline`).
  public var timeouts: [JobName: Duration] = [:]

  /// The defaults of every job of `catalog`. Without a catalog, only the typed subscript has
  /// settings (each job's defaults until set): what a test builds by hand.
  public init(catalog: JobSettingsCatalog = [:]) {
    settings = catalog.mapValues { $0.init() }
  }

  public func timeout(for job: JobName) -> Duration? { timeouts[job] }

  /// Every job's section takes `timeout` beside its own keys.
  static let timeoutKey = "timeout"

  /// A job's settings, typed: its defaults when none were read or set.
  public subscript<Settings: JobSettings>(_ job: JobName, as type: Settings.Type) -> Settings {
    get { settings[job] as? Settings ?? Settings() }
    set { settings[job] = newValue }
  }

  /// A job's settings, seen only through what every job's may have; nil for a job the catalog
  /// did not list.
  public func settings(for job: JobName) -> (any JobSettings)? { settings[job] }

  /// The secrets of every job (`JobSettings.secretVariables`), each once.
  public var secretVariables: [String] {
    Array(Set(settings.values.flatMap(\.secretVariables))).sorted()
  }

  init(reading config: ConfigMapping, catalog: JobSettingsCatalog) throws(ConfigError) {
    let names = JobName.allCases.filter { catalog[$0] != nil }
    try config.rejectUnknownKeys(allowed: names.map(\.rawValue), what: "job")
    self.init(catalog: [:])
    // Each job's section read once, in the order of the names: its own keys, and the `timeout`
    // every job accepts.
    for job in names {
      guard let type = catalog[job] else { continue }
      let section = try config.section(job.rawValue, allowing: type.keys + [Self.timeoutKey])
      // The duration reader rejects zero and negative durations with file:line:column.
      if section.entry(Self.timeoutKey) != nil {
        timeouts[job] = try section.duration(Self.timeoutKey, default: .zero)
      }
      settings[job] = try type.init(reading: section)
    }
  }

  /// Equal settings, a job missing on one side counting as its defaults.
  public static func == (a: JobsSettings, b: JobsSettings) -> Bool {
    guard a.timeouts == b.timeouts else { return false }
    return Set(a.settings.keys).union(b.settings.keys).allSatisfy { job in
      if let mine = a.settings[job] { return mine.isEqual(to: b.settings[job]) }
      return b.settings[job]?.isEqual(to: nil) ?? true
    }
  }

  /// The timeouts only: settings equal by `==` may be stored or left to their defaults.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(timeouts)
  }
}
