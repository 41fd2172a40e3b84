import RinDomain
import RinJobs
import RinTestSupport
import Testing

@Suite("Badge rules", .onItsOwnThread)
struct BadgeRulesTests {
  @Test(
    "the review band is 0.70 inclusive to 0.95 exclusive",
    arguments: [
      (0.70, MergeSuggestionBand.Verdict.inBand), (0.9499, .inBand), (0.8, .inBand),
      (0.95, .outsideBand), (0.6999, .outsideBand), (1.0, .outsideBand), (0.0, .outsideBand),
    ])
  func band(confidence: Double, verdict: MergeSuggestionBand.Verdict) {
    #expect(MergeSuggestionBand.classify(confidence) == verdict)
  }

  @Test(
    "null, non-finite and out-of-range confidences are malformed",
    arguments: [
      nil, 1.7, -0.2, Double.nan, Double.infinity,
    ] as [Double?])
  func malformed(confidence: Double?) {
    #expect(MergeSuggestionBand.classify(confidence) == .malformed)
  }

  @Test func homeCountsReviewableSuggestionsAndOpenConflicts() {
    let result = BadgeRules.counts(
      .init(pendingMergeConfidences: [0.70, 0.95, 0.9499, nil, 1.7, 0.5], openSyncConflicts: 2))
    #expect(result.counts.home == 4)
    #expect(result.malformedConfidences == 2)
  }

  @Test func circlesAndProfileCountTheirInputs() {
    let result = BadgeRules.counts(.init(pendingAccessRequests: 3, openSecurityItems: 5))
    #expect(result.counts == BadgeCounts(home: 0, circles: 3, score: 0, profile: 5))
  }

  @Test func scoreBadgeShowsAnUnviewedChange() {
    #expect(BadgeRules.scoreBadge(changedAt: nil, viewedAt: nil) == 0)
    #expect(BadgeRules.scoreBadge(changedAt: nil, viewedAt: 10) == 0)
    #expect(BadgeRules.scoreBadge(changedAt: 10, viewedAt: nil) == 1)
    #expect(BadgeRules.scoreBadge(changedAt: 10, viewedAt: 9) == 1)
    #expect(BadgeRules.scoreBadge(changedAt: 10, viewedAt: 10) == 0)
    #expect(BadgeRules.scoreBadge(changedAt: 10, viewedAt: 11) == 0)
  }

  @Test(
    "display: nothing, the number, or 99+",
    arguments: [
      (0, nil), (-1, nil), (1, "1"), (99, "99"), (100, "99+"), (5000, "99+"),
    ] as [(Int, String?)])
  func display(count: Int, shown: String?) {
    #expect(BadgeRules.display(count) == shown)
  }
}
