import RinDomain

/// What daily-score counts from one owner's contacts at a window's end, kept between nights
/// (`score_owner_tallies`) so that a night reads the contacts of only the owners whose counts can
/// differ (docs/SCORE.md "Every night costs what changed").
///
/// Time alone changes two things: churn, as the 30-day window slides, and the liveness of rows
/// dated after the window's end. Churn is kept as the days its events fall on, so any later
/// window counts it without the contacts; a row dated after the end sets `dueEnd`, the first
/// window end at which the tally no longer holds.
public struct ScoreTally: Sendable, Equatable {
  /// The window end the counts were taken at.
  public var end: UTCInstant
  public var contacts = 0
  public var complete = 0
  public var enriched = 0
  public var rin = 0
  public var mutual = 0
  public var organized = 0
  /// Live custom circles with a live member (read with the contacts: the same stamps change it).
  public var customCircles = 0
  /// Churn events (creations a day or more after the owner joined, and deletions) inside the
  /// 30 days before `end`, counted per day (`ChurnDays`).
  public var churnDays = ChurnDays()
  /// The first window end at which a row dated after `end` (a contact created or deleted, an
  /// enrichment fetched) changes the counts; nil when none does.
  public var dueEnd: UTCInstant?

  public init(end: UTCInstant) {
    self.end = end
  }

  /// Folds one contact, as daily-score reads it at `end`, into the tally.
  public mutating func add(_ c: ScoreContact, userCreatedAt: UTCInstant) {
    let churnStart = end.advanced(by: -ScoreWindow.churnSeconds)
    if c.createdAt > end {
      due(at: c.createdAt)
    } else if c.createdAt > churnStart && c.createdAt >= userCreatedAt.saturating(plus: 86_400) {
      churnDays.add(instant: c.createdAt)
    }
    if let deleted = c.deletedAt {
      if deleted > end {
        due(at: deleted)
      } else if deleted > churnStart {
        churnDays.add(instant: deleted)
      }
    }
    guard c.createdAt < end && (c.deletedAt.map { $0 >= end } ?? true) else { return }
    contacts += 1
    if c.hasName && c.hasChannel { complete += 1 }
    if c.isEnriched { enriched += 1 }
    if let enrichedAt = c.enrichedAt, enrichedAt >= end { due(at: enrichedAt) }
    if c.isRinUser {
      rin += 1
      if c.isMutual { mutual += 1 }
    }
    if c.isOrganized { organized += 1 }
  }

  private mutating func due(at instant: UTCInstant) {
    dueEnd = min(dueEnd ?? instant, instant)
  }

  /// Whether the counts hold at `later` (a window end) for an owner none of whose rows changed
  /// since they were taken.
  public func holds(at later: UTCInstant) -> Bool {
    later >= end && (dueEnd.map { later < $0 } ?? true)
  }

  /// The tally's part of `ScoreInputs` at `window` (where it `holds`).
  public func inputs(at window: ScoreWindow) -> ScoreInputs {
    var i = ScoreInputs()
    i.contacts = contacts
    i.complete = complete
    i.enriched = enriched
    i.rin = rin
    i.mutual = mutual
    i.organized = organized
    i.customCircles = customCircles
    i.churn = churnDays.count(after: window.churnStart, through: window.end)
    return i
  }
}

extension ScoreTally {
  /// Whether tonight counts an owner's contacts again, and why; nil when the kept tally holds
  /// unless a row of the owner's was stamped since (`ownersChanged`, asked of these alone).
  /// - Parameters:
  ///   - stored: the kept tally, if any.
  ///   - circlesMatch: the owner's pattern circles are the ones the tally was taken with.
  public static func examination(stored: ScoreTally?, circlesMatch: Bool, at end: UTCInstant, forced: Bool)
    -> OwnerExamination?
  {
    if forced { return .forced }
    guard let stored else { return .new }
    if !stored.holds(at: end) { return .due }
    if !circlesMatch { return .changed }
    return nil
  }
}

/// Churn events counted per UTC day: an instant belongs to the midnight at or after it, so an
/// event lies in a window (start, end] of midnights exactly when its day does.
public struct ChurnDays: Sendable, Equatable {
  /// Day number (midnight / 86,400) → events.
  public private(set) var counts: [Int64: Int] = [:]

  public init() {}

  public init(counts: [Int64: Int]) {
    self.counts = counts.filter { $0.value > 0 }
  }

  public mutating func add(instant: UTCInstant) {
    counts[Self.day(of: instant), default: 0] += 1
  }

  /// Events in (start, end], both midnights.
  public func count(after start: UTCInstant, through end: UTCInstant) -> Int {
    let first = Self.day(of: start)
    let last = Self.day(of: end)
    return counts.reduce(0) { $0 + ($1.key > first && $1.key <= last ? $1.value : 0) }
  }

  /// The day number of the midnight at or after `instant` (any 64-bit value).
  static func day(of instant: UTCInstant) -> Int64 {
    let (quotient, remainder) = instant.seconds.quotientAndRemainder(dividingBy: 86_400)
    return remainder > 0 ? quotient + 1 : quotient
  }

  /// `day:count` pairs, ascending, comma-separated: how `score_owner_tallies` keeps them.
  public var text: String {
    counts.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(separator: ",")
  }

  /// nil when `text` is not what `text` writes (a tally to recompute, not to trust). Read byte
  /// by byte: every owner's row is read every night.
  public init?(text: String) {
    guard text.utf8.last != UInt8(ascii: ",") else { return nil }
    var counts: [Int64: Int] = [:]
    var day: Int64 = 0
    var number: Int64 = 0
    var negative = false
    var digits = 0
    var sawColon = false
    func finish() -> Bool {
      guard sawColon, digits > 0, number > 0 else { return false }
      counts[day, default: 0] += Int(number)
      return true
    }
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        guard let next = DecimalDigits.appending(byte, to: number) else { return nil }
        number = next
        digits += 1
      case UInt8(ascii: "-") where digits == 0 && !negative && !sawColon:
        negative = true
      case UInt8(ascii: ":") where !sawColon && digits > 0:
        day = negative ? -number : number
        (number, digits, negative, sawColon) = (0, 0, false, true)
      case UInt8(ascii: ","):
        guard finish() else { return nil }
        (number, digits, negative, sawColon) = (0, 0, false, false)
      default:
        return nil
      }
    }
    if digits > 0 || sawColon || negative {
      guard finish() else { return nil }
    }
    self.counts = counts
  }
}
