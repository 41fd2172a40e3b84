import RinStorage

/// upcoming-birthdays' statements, on one batch's (or the run's) transaction.
struct UpcomingBirthdaysQueries {
  let tx: StorageTransaction
}
