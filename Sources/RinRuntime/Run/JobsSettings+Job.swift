import RinConfiguration

extension JobsSettings {
  /// A job's settings, typed by the job: `config.jobs[EnrichmentFetchJob.self].provider`.
  public subscript<J: Job>(_ job: J.Type) -> J.Settings {
    get { self[J.name, as: J.Settings.self] }
    set { self[J.name, as: J.Settings.self] = newValue }
  }
}
