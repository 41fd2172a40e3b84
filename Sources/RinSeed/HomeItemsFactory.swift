import RinDomain
import RinStorage

/// What the Home tab's "Needs Attention" counts: merge suggestions, sync conflicts and
/// security items, with values at and around every threshold the jobs test.
struct HomeItemsFactory {
  let ctx: SeedContext
  let owner: UserProfile
  let book: ContactBook

  /// Exactly at, just under and outside the 0.70 ≤ c < 0.95 band, plus null and out-of-range
  /// values the services have been seen to write.
  static let edgeConfidences: [Double?] = [0.70, 0.95, 0.6999, 0.9499, 1.0, 0.0, nil, 1.7, -0.2, 0.5]
  static let securityKinds = [
    "unverified_phone", "weak_passcode", "recovery_email_missing", "exposed_email",
    "two_factor_disabled", "stale_session",
  ]

  func write(into sink: RowBuffer) {
    guard !book.ids.isEmpty else { return }
    var rng = ctx.random(.suggestions, owner.id)
    mergeSuggestions(sink, &rng)
    for _ in 0..<rng.weighted([(0, 50), (1, 25), (2, 15), (3, 10)]) {
      sink.insert(
        .syncConflicts,
        [
          .integer(IDCounters.next(&sink.ids.syncConflict)), .integer(owner.id), .integer(rng.pick(book.ids)),
          .text(rng.chance(0.6) ? "open" : "resolved"),
          SQLValue(ctx.past(&rng, days: 60, floor: owner.createdAt)),
        ])
    }
    for _ in 0..<rng.weighted([(0, 45), (1, 30), (2, 15), (3, 10)]) {
      sink.insert(
        .securityItems,
        [
          .integer(IDCounters.next(&sink.ids.securityItem)), .integer(owner.id),
          .text(rng.pick(Self.securityKinds)),
          .text(rng.chance(0.55) ? "open" : "resolved"),
          SQLValue(ctx.past(&rng, days: 90, floor: owner.createdAt)),
        ])
    }
  }

  /// One suggestion per planted duplicate pair, plus a few between unrelated contacts.
  /// Every fifth user's first suggestion takes an edge confidence chosen by its id, so every
  /// edge value appears even in a 50-user database.
  private func mergeSuggestions(_ sink: RowBuffer, _ rng: inout SeedRandom) {
    var pairs: [(Int64, Int64)] = []
    for (index, draft) in book.drafts.enumerated() {
      if case .duplicate(let original) = draft.role { pairs.append((book.ids[original], book.ids[index])) }
    }
    for _ in 0..<rng.weighted([(0, 40), (1, 30), (2, 20), (4, 10)]) where book.ids.count >= 2 {
      let a = rng.pick(book.ids)
      let b = rng.pick(book.ids)
      if a != b { pairs.append((min(a, b), max(a, b))) }
    }
    let showcase = owner.id % 5 == 0
    if showcase && pairs.isEmpty && book.ids.count >= 2 { pairs.append((book.ids[0], book.ids[1])) }
    for (position, pair) in pairs.enumerated() {
      let confidence: Double? =
        showcase && position == 0
        ? Self.edgeConfidences[Int(owner.id / 5 % Int64(Self.edgeConfidences.count))]
        : rng.chance(0.1)
          ? rng.pick(Self.edgeConfidences)
          : (Double(rng.int(5_000...9_999)) / 10_000)
      let status = rng.weighted([("pending", 55), ("merged", 12), ("not_same", 15), ("auto_merged", 18)])
      let skipped: UTCInstant? =
        status == "pending" && rng.chance(0.15)
        ? ctx.now.advanced(by: rng.int64((-5 * SeedContext.day)...(10 * SeedContext.day))) : nil
      sink.insert(
        .mergeSuggestions,
        [
          .integer(IDCounters.next(&sink.ids.mergeSuggestion)), .integer(owner.id), .integer(pair.0),
          .integer(pair.1),
          SQLValue(confidence), .text(status), SQLValue(skipped),
          SQLValue(ctx.past(&rng, days: 120, floor: owner.createdAt)),
        ])
    }
  }
}
