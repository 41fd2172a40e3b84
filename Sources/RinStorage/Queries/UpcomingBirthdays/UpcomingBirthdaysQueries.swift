import RinDomain

/// upcoming-birthdays' statements (Queries/UpcomingBirthdays): reached as `tx.upcomingBirthdays`, so that a
/// job sees its own queries and the shared ones on `StorageTransaction`, not another job's (see
/// `QueryGroup`).
public struct UpcomingBirthdaysQueries: QueryGroup {
  let tx: StorageTransaction
}

extension StorageTransaction {
  /// upcoming-birthdays's statements.
  public var upcomingBirthdays: UpcomingBirthdaysQueries { UpcomingBirthdaysQueries(tx: self) }
}

extension UpcomingBirthdaysQueries {
  /// The shared pass over the stamps (`StorageTransaction.replaceChangedOwners`), which
  /// `collectUpcomingOwnersChanged` feeds with upcoming-birthdays' own query.
  func replaceChangedOwners(
    job: JobName, scope: String, in selection: UserSelection, owners: SQLFragment
  ) throws -> Int {
    try tx.replaceChangedOwners(job: job, scope: scope, in: selection, owners: owners)
  }
}
