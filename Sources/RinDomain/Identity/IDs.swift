// Re-exported: the ids are RinDomain's API, and a module using one uses Tagged's conformances
// (Hashable, Comparable, Codable) with it, which Swift allows only where Tagged is imported.
@_exported import Tagged

/// A user's id (`users.id`): a distinct type from a contact's or a run's, so that one cannot be
/// passed where another belongs. Stored, bound, printed and encoded as the bare integer.
public typealias UserID = Tagged<UserIDTag, Int64>
/// A contact's id (`contacts.id`).
public typealias ContactID = Tagged<ContactIDTag, Int64>
/// A run's id (`job_runs.id`, the ledger's).
public typealias RunID = Tagged<RunIDTag, Int64>

public enum UserIDTag {}
public enum ContactIDTag {}
public enum RunIDTag {}
