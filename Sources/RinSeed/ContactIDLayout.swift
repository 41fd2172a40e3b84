/// How a seeded database hands out contact ids (docs/CONTRACT.md §6).
public enum ContactIDLayout: String, Sendable, CaseIterable {
  /// As production does: ids in the order contacts were created, across all users. A user's
  /// import at signup lands in one run of ids among the other users who signed up around then;
  /// the contacts they add later (a quarter or so) are spread among everyone else's. Phones,
  /// emails and memberships follow their contact's new id.
  case creationOrder = "creation-order"
  /// One contiguous run of ids per user, in user order: how earlier seeds laid ids out, kept to
  /// show what a job's cost owes to that clustering (the bench compares the two).
  case clustered
}
