import RinDomain
import RinJobs
import RinTestSupport
import Testing

/// A kept tally must give, at any later window end it `holds` for, exactly what counting the
/// same contacts afresh at that end gives (docs/SCORE.md "Every night costs what changed").
@Suite("Score tally kept between nights", .onItsOwnThread)
struct ScoreTallyTests {
  static let day = Duration.seconds(86_400)
  /// 2026-11-23T00:00:00Z, a midnight.
  static let end: UTCInstant = 1_795_392_000
  static let joined = end - day * 400

  /// The inputs counted afresh at `window`, as daily-score did before tallies were kept.
  static func fresh(_ contacts: [ScoreContact], at window: ScoreWindow, joined: UTCInstant = joined)
    -> ScoreInputs
  {
    var inputs = ScoreInputs()
    for c in contacts { window.add(c, userCreatedAt: joined, to: &inputs) }
    return inputs
  }

  static func tally(_ contacts: [ScoreContact], end: UTCInstant = end, joined: UTCInstant = joined)
    -> ScoreTally
  {
    var tally = ScoreTally(end: end)
    for c in contacts { tally.add(c, userCreatedAt: joined) }
    return tally
  }

  static func window(endingAt end: UTCInstant) -> ScoreWindow {
    ScoreWindow(asOf: CalendarDate(daysSinceEpoch: Int(end.seconds / 86_400) - 1))
  }

  /// Creations and deletions at every second around the window's edges, from before the churn
  /// window to the end itself: each later night's churn equals a fresh count.
  @Test func churnSlidesOutDayByDayAsAFreshCountDoes() {
    var contacts: [ScoreContact] = []
    for offset in [-31, -30, -29, -1, 0] {
      for seconds in [-1, 0, 1, 43_200] as [Int64] {
        let at = Self.end + Self.day * offset + .seconds(seconds)
        guard at <= Self.end else { continue }
        contacts.append(ScoreContact(hasName: true, createdAt: at))
        contacts.append(ScoreContact(hasName: true, createdAt: at - Self.day * 100, deletedAt: at))
      }
    }
    let tally = Self.tally(contacts)
    #expect(tally.dueEnd == nil)
    for night in 0...32 {
      let later = Self.window(endingAt: Self.end + Self.day * night)
      #expect(tally.holds(at: later.end))
      #expect(tally.inputs(at: later) == Self.fresh(contacts, at: later), "night \(night)")
    }
  }

  /// A contact created less than a day after its owner joined is not churn, on any night.
  @Test func theOwnersOwnImportIsNotChurn() {
    let joined = Self.end - Self.day * 3
    let contacts = [
      ScoreContact(hasName: true, createdAt: joined + .seconds(3600)),
      ScoreContact(hasName: true, createdAt: joined + Self.day),
    ]
    let tally = Self.tally(contacts, joined: joined)
    let window = Self.window(endingAt: Self.end)
    #expect(tally.inputs(at: window).churn == 1)
    #expect(tally.inputs(at: window) == Self.fresh(contacts, at: window, joined: joined))
  }

  /// Rows dated after the end change the counts on the night they fall in: the tally says so.
  @Test func aRowDatedAfterTheEndMakesTheTallyDue() {
    let deletedLater = ScoreContact(
      hasName: true, createdAt: Self.end - Self.day * 90, deletedAt: Self.end + .seconds(5))
    let enrichedLater = ScoreContact(
      hasName: true, createdAt: Self.end - Self.day * 90, isEnriched: false,
      enrichedAt: Self.end + Self.day * 2)
    let createdLater = ScoreContact(hasName: true, createdAt: Self.end + Self.day * 3)
    #expect(Self.tally([deletedLater]).dueEnd == Self.end + .seconds(5))
    #expect(Self.tally([enrichedLater]).dueEnd == Self.end + Self.day * 2)
    #expect(Self.tally([createdLater, deletedLater]).dueEnd == Self.end + .seconds(5))
    let tally = Self.tally([deletedLater])
    #expect(tally.holds(at: Self.end))
    #expect(!tally.holds(at: Self.end + Self.day))
    #expect(!tally.holds(at: Self.end - Self.day), "a backfill before the tally's end counts again")
  }

  @Test func hostileInstantsNeitherTrapNorCount() {
    let contacts = [
      ScoreContact(hasName: true, createdAt: .min, deletedAt: .max),
      ScoreContact(hasName: true, createdAt: .max),
      ScoreContact(hasName: true, createdAt: Self.end - Self.day, deletedAt: .min),
    ]
    let tally = Self.tally(contacts, joined: .max)
    let window = Self.window(endingAt: Self.end)
    #expect(tally.inputs(at: window) == Self.fresh(contacts, at: window, joined: .max))
  }

  @Test func churnDaysReadBackWhatTheyWrite() {
    var days = ChurnDays()
    for instant in [Self.end, Self.end - .seconds(1), Self.end - Self.day, -1, 0, .min, .max] as [UTCInstant]
    {
      days.add(instant: instant)
    }
    #expect(ChurnDays(text: days.text) == days)
    #expect(ChurnDays(text: "") == ChurnDays())
    #expect(ChurnDays(text: "12:0") == nil)
    #expect(ChurnDays(text: "12:x") == nil)
    #expect(ChurnDays(text: "12") == nil)
    #expect(ChurnDays(text: "-3:2,5:1") == ChurnDays(counts: [-3: 2, 5: 1]))
    for bad in [
      "1:2,", ",1:2", ":5", "1::2", "--1:2", "1-2:3", "9999999999999999999:1", "1:2:3", " 1:2", "1:-2",
    ] {
      #expect(ChurnDays(text: bad) == nil, "\(bad)")
    }
    #expect(days.count(after: Self.end - Self.day, through: Self.end) == 2)
  }

  @Test func aTallyIsCountedAgainOnlyForAReason() {
    let kept = ScoreTally(end: Self.end)
    #expect(
      ScoreTally.examination(stored: kept, circlesMatch: true, at: Self.end + Self.day, forced: false) == nil)
    #expect(ScoreTally.examination(stored: kept, circlesMatch: true, at: Self.end, forced: true) == .forced)
    #expect(ScoreTally.examination(stored: nil, circlesMatch: true, at: Self.end, forced: false) == .new)
    #expect(
      ScoreTally.examination(stored: kept, circlesMatch: false, at: Self.end, forced: false) == .changed)
    #expect(
      ScoreTally.examination(stored: kept, circlesMatch: true, at: Self.end - Self.day, forced: false) == .due
    )
    #expect(
      ChangeStamp.after(now: Self.end - .seconds(3600 * 20), end: Self.end) == Self.end - .seconds(3600 * 21))
    #expect(ChangeStamp.after(now: Self.end + Self.day * 90, end: Self.end) == Self.end - .seconds(3600))
    #expect(ChangeStamp.after(now: .min, end: Self.end) == .min)
  }
}
