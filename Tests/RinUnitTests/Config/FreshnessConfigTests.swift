import RinConfiguration
import RinDomain
import RinJobs
import RinTestSupport
import Testing

@Suite("freshness: promises from pipelines.yaml", .onItsOwnThread)
struct FreshnessConfigTests {
  static func promises(_ yaml: String) throws -> [FreshnessOutput: FreshnessPromise] {
    let config = try ConfigLoader.parse(yaml: yaml, file: "p.yaml", jobs: JobCatalog.settings)
    return Dictionary(uniqueKeysWithValues: FreshnessSettings.promises(in: config).map { ($0.output, $0) })
  }

  static let hour: Int64 = 3_600

  @Test func theDefaultsComeFromThePipelineThatRunsEachJob() throws {
    let promises = try Self.promises(
      examplePipelinesYAML + """
          hourly:
            schedule: "0 * * * *"
            jobs: [upcoming-birthdays]
        """)
    #expect(promises[.score]?.maxAge == .seconds(26 * Self.hour))
    #expect(promises[.score]?.derivation == "1d between nightly's slots + 2h")
    #expect(promises[.upcoming]?.maxAge == .seconds(2 * Self.hour), "an hour's gap + at most the gap")
    #expect(promises[.circleSuggestions]?.fullEvery == .seconds(28 * 86_400))
    #expect(promises[.badges]?.fullEvery == nil)
    #expect(promises.count == 5)
  }

  @Test func aDeadlineIsTheSlackAndAConfiguredAgeWins() throws {
    let promises = try Self.promises(
      """
      pipelines:
        nightly:
          schedule: "30 2 * * 1-5"
          deadline: 3h
          jobs: [daily-score, badge-recount]
      freshness:
        badges: 30h
      """)
    // Weekdays only: Friday's slot to Monday's is 3 days.
    #expect(promises[.score]?.maxAge == .seconds(75 * Self.hour))
    #expect(promises[.score]?.derivation == "3d between nightly's slots + its deadline 3h")
    #expect(promises[.badges]?.maxAge == .seconds(30 * Self.hour) && promises[.badges]?.derivation == nil)
    #expect(promises[.upcoming] == nil, "no pipeline runs upcoming-birthdays: nothing is promised")
  }

  @Test func withoutPipelinesEveryOutputIsJudgedByADayAndTwoHours() throws {
    let promises = try Self.promises("jobs: {}\n")
    #expect(promises.count == 5)
    #expect(promises.values.allSatisfy { $0.maxAge == .seconds(26 * Self.hour) })
  }

  @Test func anUnknownOutputOrABadAgeIsRefusedWithItsPlace() throws {
    let unknown = try configError("freshness:\n  scores: 26h\n")
    #expect(unknown.description.contains("scores"), "\(unknown)")
    let zero = try configError("freshness:\n  score: 0s\n")
    #expect(zero.description.contains("freshness.score"), "\(zero)")
  }
}
