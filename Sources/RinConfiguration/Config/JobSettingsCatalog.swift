import RinDomain

/// The settings type of every job a build runs, by job name: what `ConfigLoader` reads the
/// `jobs:` sections with. The job catalog supplies it (`JobCatalog.settings`).
public typealias JobSettingsCatalog = [JobName: any JobSettings.Type]
