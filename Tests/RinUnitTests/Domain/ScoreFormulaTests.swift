import RinDomain
import RinJobs
import RinTestSupport
import Testing

@Suite("Score formula score_v1", .onItsOwnThread)
struct ScoreFormulaTests {
  static func inputs(_ build: (inout ScoreInputs) -> Void) -> ScoreInputs {
    var i = ScoreInputs()
    build(&i)
    return i
  }

  /// Hand-computed: quality 74, position 67, stability 90, trust 75.
  static let everything = inputs {
    $0.contacts = 100
    $0.complete = 80
    $0.enriched = 50
    $0.pendingDuplicates = 4
    $0.rin = 50
    $0.mutual = 25
    $0.organized = 30
    $0.customCircles = 2
    $0.churn = 10
    $0.tenureDays = 10
    $0.phoneVerified = true
    $0.openSecurityItems = 1
  }

  @Test func withNoContactsOnlyTrustCounts() {
    let result = ScoreFormula.evaluate(
      Self.inputs {
        $0.phoneVerified = true; $0.tenureDays = 400
      })
    #expect(result.components.quality == nil)
    #expect(result.components.position == nil)
    #expect(result.components.stability == nil)
    #expect(result.components.trust == 70)
    #expect(result.score == 70)
    #expect(result.tier == .good)
  }

  @Test func everyComponentPresent() {
    let result = ScoreFormula.evaluate(Self.everything)
    #expect(abs(result.components.quality! - 74) < 1e-9)
    #expect(abs(result.components.position! - 67) < 1e-9)
    #expect(abs(result.components.stability! - 90) < 1e-9)
    #expect(abs(result.components.trust - 75) < 1e-9)
    // 0.35·74 + 0.25·67 + 0.20·90 + 0.20·75 = 75.65
    #expect(result.score == 76)
    #expect(result.tier == .strong)
  }

  @Test func stabilityIsNullUnderSevenDaysAndWeightsRenormalize() {
    var young = Self.everything
    young.tenureDays = 6
    let result = ScoreFormula.evaluate(young)
    #expect(result.components.stability == nil)
    // (0.35·74 + 0.25·67 + 0.20·75) / 0.80 = 72.0625
    #expect(result.score == 72)
    young.tenureDays = 7
    #expect(ScoreFormula.evaluate(young).components.stability != nil)
  }

  @Test func eachClampHolds() {
    let clamped = ScoreFormula.components(
      Self.inputs {
        $0.contacts = 100
        $0.pendingDuplicates = 30  // 1 − 5·0.3 < 0 → 0
        $0.rin = 100  // ln 101 / ln 51 > 1 → 1
        $0.customCircles = 7  // 7/5 > 1 → 1
        $0.churn = 150  // 1 − 1.5 < 0 → 0
        $0.tenureDays = 30
        $0.openSecurityItems = 5  // 1 − 5/3 < 0 → 0
      })
    #expect(clamped.quality == 0)
    #expect(clamped.position == 100 * (0.5 + 0.2))
    #expect(clamped.stability == 0)
    #expect(clamped.trust == 0)
  }

  @Test(
    "rounding is half up at exactly .5",
    arguments: [(59.5, 60), (60.5, 61), (59.4999, 59), (0.5, 1), (99.5, 100)])
  func roundsHalfUp(mean: Double, score: Int) {
    #expect(ScoreFormula.score(.init(quality: mean, position: nil, stability: nil, trust: mean)) == score)
  }

  @Test func halvesThatBinaryFloatingPointWouldMissStillRoundUp() {
    // (0.35·2 + 0.25·6 + 0.20·75) / 0.80 = 21.5 exactly; in doubles it is 21.499999999999996.
    let c = ScoreFormula.Components(quality: 2, position: 6, stability: nil, trust: 75)
    #expect(ScoreFormula.score(c) == 22)
    let d = ScoreFormula.Components(quality: 1, position: 1, stability: nil, trust: 55)
    #expect(ScoreFormula.score(d) == 15)
  }

  @Test(
    "tier boundaries",
    arguments: [
      (0, Tier.building), (39, .building), (40, .fair), (59, .fair), (60, .good), (74, .good), (75, .strong),
      (89, .strong), (90, .excellent), (100, .excellent),
    ])
  func tiers(score: Int, tier: Tier) {
    #expect(Tier(score: score) == tier)
  }
}

@Suite("Score milestone prompt", .onItsOwnThread)
struct MilestoneRuleTests {
  static let now: UTCInstant = 1_000_000_000
  static let day = Duration.seconds(86_400)

  static func facts(_ change: (inout MilestoneRule.Facts) -> Void = { _ in }) -> MilestoneRule.Facts {
    var f = MilestoneRule.Facts(score: 60, liveContacts: 10, now: now)
    change(&f)
    return f
  }

  @Test func queuesTheFirstTimeTheScoreReaches60() {
    #expect(MilestoneRule.decide(Self.facts()) == .queue)
    #expect(MilestoneRule.decide(Self.facts { $0.score = 59 }) == .notReached)
    #expect(MilestoneRule.decide(Self.facts { $0.reachedBefore = true }) == .reachedBefore)
  }

  @Test func eachSuppressionRuleBlocksItInTurn() {
    #expect(MilestoneRule.decide(Self.facts { $0.promptsShown = 3 }) == .suppressed(.tooManyPromptsShown))
    #expect(MilestoneRule.decide(Self.facts { $0.promptsShown = 2 }) == .queue)
    #expect(
      MilestoneRule.decide(Self.facts { $0.lastPromptAt = Self.now - Self.day * 7 + .seconds(1) })
        == .suppressed(.promptedRecently))
    #expect(MilestoneRule.decide(Self.facts { $0.lastPromptAt = Self.now - Self.day * 7 }) == .queue)
    #expect(
      MilestoneRule.decide(Self.facts { $0.lastDismissedAt = Self.now - Self.day })
        == .suppressed(.dismissedRecently))
    #expect(MilestoneRule.decide(Self.facts { $0.lastDismissedAt = Self.now - Self.day * 8 }) == .queue)
    #expect(
      MilestoneRule.decide(Self.facts { $0.lastShareAt = Self.now - Self.day * 13 })
        == .suppressed(.sharedRecently))
    #expect(MilestoneRule.decide(Self.facts { $0.lastShareAt = Self.now - Self.day * 15 }) == .queue)
    #expect(MilestoneRule.decide(Self.facts { $0.liveContacts = 9 }) == .suppressed(.tooFewContacts))
  }
}
