import RinDomain
import RinStorage

/// Writes everything one user owns, in a fixed order of tables.
enum UserGenerator {
  static func write(userID: Int64, _ ctx: SeedContext, into sink: RowBuffer) {
    let owner = UserProfile(id: userID, ctx)
    sink.insert(
      .users,
      [
        .integer(owner.id), SQLValue(owner.displayName), SQLValue(owner.phone?.e164),
        .integer(owner.phoneVerified ? 1 : 0), SQLValue(owner.region), SQLValue(owner.timezone),
        SQLValue(owner.createdAt), SQLValue(owner.deletedAt),
      ])
    var planRandom = ctx.random(.patterns, owner.id)
    let groups = PatternGroup.plan(owner: owner, &planRandom)
    let drafts = ContactBook.build(owner: owner, groups: groups, ctx)
    let book = ContactBook.write(drafts, owner: owner, ctx, into: sink)
    let circles = CircleFactory(ctx: ctx, owner: owner, book: book).write(groups: groups, into: sink)
    CircleRequestsFactory.write(owner: owner, circles: circles, ctx, into: sink)
    HomeItemsFactory(ctx: ctx, owner: owner, book: book).write(into: sink)
    ReminderFactory.write(owner: owner, book: book, ctx, into: sink)
    InviteFactory.write(owner: owner, ctx, into: sink)
    UserStateFactory.write(owner: owner, ctx, into: sink)
  }
}
