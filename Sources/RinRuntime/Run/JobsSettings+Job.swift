import RinConfiguration

extension JobsSettings {
  /// A job's settings, typed by the job: `config.jobs[SomeJob.self]`, its defaults until read or set.
  public subscript<J: Job>(_ job: J.Type) -> J.Settings {
    get { self[J.name, as: J.Settings.self] }
    set { self[J.name, as: J.Settings.self] = newValue }
  }
}
