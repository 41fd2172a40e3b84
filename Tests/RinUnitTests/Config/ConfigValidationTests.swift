import RinConfiguration
import RinJobs
import RinTestSupport
import Testing

@testable import RinRuntime

/// Each mistake is planted at a known place in the example file; the error must point there.
@Suite("Config errors", .onItsOwnThread)
struct ConfigValidationTests {
  @Test func marksAreOneBased() throws {
    let error = try configError("jobs:\n  daily-score: {foo: 1}\n")
    #expect(
      error.description
        == "pipelines.yaml:2:17: unknown key 'foo' in 'jobs.daily-score'; allowed: batch_size, timeout"
    )
  }

  @Test func unknownJobUnderJobs() throws {
    let error = try configError(exampleConfig(replacingLine: 4, with: "  daily-scores: {}"))
    #expect((error.line, error.column) == (4, 3))
    #expect(
      error.message == "unknown job 'daily-scores' in 'jobs'; known jobs: daily-score, circle-patterns, "
        + "enrichment-fetch, upcoming-birthdays, attribution-expiry, badge-recount, history-retention "
        + "(did you mean 'daily-score'?)"
    )
  }

  @Test func unknownJobInPipelineList() throws {
    let yaml = exampleConfig(replacingLine: 21, with: "    jobs: [enrichment-fetch, nightly-score]")
    let error = try configError(yaml)
    #expect((error.line, error.column) == (21, 30))
    #expect(
      error.message.hasPrefix(
        "unknown job 'nightly-score' in 'pipelines.nightly.jobs'; known jobs: daily-score,"))
  }

  @Test func duplicateJobInPipelineList() throws {
    let yaml = exampleConfig(replacingLine: 21, with: "    jobs: [daily-score, badge-recount, daily-score]")
    let error = try configError(yaml)
    #expect((error.line, error.column) == (21, 40))
    #expect(
      error.message == "job 'daily-score' is listed twice in 'pipelines.nightly.jobs'; list each job once")
  }

  @Test func emptyAndMissingPipelineJobs() throws {
    let empty = try configError(exampleConfig(replacingLine: 21, with: "    jobs: []"))
    #expect((empty.line, empty.column) == (21, 11))
    #expect(empty.message.hasPrefix("'pipelines.nightly.jobs' is empty; list at least one job"))
    let missing = try configError("pipelines:\n  nightly:\n    schedule: '@daily'\n")
    #expect(
      missing.description == "pipelines.yaml:3:5: missing required key 'jobs' in 'pipelines.nightly'; add it")
  }

  @Test func unknownKeyInProviderSuggestsSpelling() throws {
    let error = try configError(exampleConfig(replacingLine: 12, with: "      request_per_minute: 600"))
    #expect((error.line, error.column) == (12, 7))
    #expect(
      error.message.hasPrefix(
        "unknown key 'request_per_minute' in 'jobs.enrichment-fetch.provider'; allowed: name, url,"))
    #expect(error.message.hasSuffix("(did you mean 'requests_per_minute'?)"))
  }

  @Test func wrongTypes() throws {
    let text = try configError(exampleConfig(replacingLine: 11, with: "      batch_size: eighty"))
    #expect(
      text.description
        == "pipelines.yaml:11:19: 'jobs.enrichment-fetch.provider.batch_size' must be a whole number, got the string 'eighty'"
    )
    let quoted = try configError(exampleConfig(replacingLine: 11, with: "      batch_size: \"80\""))
    #expect(quoted.message.hasSuffix("must be a whole number, got the string '80'"))
    let list = try configError(exampleConfig(replacingLine: 8, with: "      name: [a, b]"))
    #expect(
      list.description
        == "pipelines.yaml:8:13: 'jobs.enrichment-fetch.provider.name' must be a string, got a list")
    let scalarJob = try configError(exampleConfig(replacingLine: 4, with: "  daily-score: 5"))
    #expect(
      scalarJob.description
        == "pipelines.yaml:4:16: 'jobs.daily-score' must be a mapping of keys to values, got the number 5")
    let share = try configError("jobs:\n  circle-patterns: {area_code_share: yes}\n")
    #expect(share.message == "'jobs.circle-patterns.area_code_share' must be a number, got the boolean 'yes'")
  }

  @Test func outOfRangeValues() throws {
    let batch = try configError(exampleConfig(replacingLine: 11, with: "      batch_size: 101"))
    #expect(
      batch.description
        == "pipelines.yaml:11:19: 'jobs.enrichment-fetch.provider.batch_size' must be between 1 and 100, got 101"
    )
    let users = try configError("jobs:\n  daily-score: {batch_size: 0}\n")
    #expect(users.message == "'jobs.daily-score.batch_size' must be between 1 and 100000, got 0")
    let share = try configError("jobs:\n  circle-patterns: {family_name_share: 1.5}\n")
    #expect(share.message == "'jobs.circle-patterns.family_name_share' must be between 0.0 and 1.0, got 1.5")
    let retries = try configError(exampleConfig(replacingLine: 12, with: "      max_retries: -1"))
    #expect(retries.message == "'jobs.enrichment-fetch.provider.max_retries' must be at least 0, got -1")
  }

  @Test func aDailyLookupBudgetIsAPositiveWholeNumberAndNoneByDefault() throws {
    let zero = try configError(exampleConfig(replacingLine: 12, with: "      max_lookups_per_day: 0"))
    #expect(
      zero.description
        == "pipelines.yaml:12:28: 'jobs.enrichment-fetch.provider.max_lookups_per_day' must be at least 1, got 0"
    )
    let set = try ConfigLoader.parse(
      yaml: exampleConfig(replacingLine: 12, with: "      max_lookups_per_day: 250000"),
      file: "pipelines.yaml", jobs: JobCatalog.settings)
    #expect(set.jobs[EnrichmentFetchJob.self].provider?.maxLookupsPerDay == 250_000)
    let unset = try ConfigLoader.parse(
      yaml: examplePipelinesYAML, file: "pipelines.yaml", jobs: JobCatalog.settings)
    #expect(unset.jobs[EnrichmentFetchJob.self].provider?.maxLookupsPerDay == nil)
  }

  @Test func notifyTakesHTTPURLs() throws {
    let bad = try configError(
      "pipelines:\n  p:\n    schedule: \"@daily\"\n    jobs: [daily-score]\n    notify: {start: hc-ping.com/x}\n"
    )
    #expect(
      bad.message
        == "'pipelines.p.notify.start' must be an http or https URL such as https://hc-ping.com/UUID, got 'hc-ping.com/x'"
    )
    let unknown = try configError(
      "pipelines:\n  p:\n    schedule: \"@daily\"\n    jobs: [daily-score]\n    notify: {begin: https://x.example}\n"
    )
    #expect(unknown.message.hasPrefix("unknown key 'begin' in 'pipelines.p.notify'"), "\(unknown.message)")
  }

  @Test func circuitBreakerKeys() throws {
    let zero = try configError(
      exampleConfig(replacingLine: 12, with: "      circuit_breaker:\n        failures: 0"))
    #expect(
      zero.description
        == "pipelines.yaml:13:19: 'jobs.enrichment-fetch.provider.circuit_breaker.failures' must be between 1 and 10000, got 0"
    )
    let bare = try configError(
      exampleConfig(replacingLine: 12, with: "      circuit_breaker: {cool_down: 10}"))
    #expect((bare.line, bare.column) == (12, 36))
    #expect(
      bare.message.hasPrefix(
        "bad duration for 'jobs.enrichment-fetch.provider.circuit_breaker.cool_down': '10' has no unit"))
    let typo = try configError(
      exampleConfig(replacingLine: 12, with: "      circuit_breaker: {failure: 3}"))
    #expect((typo.line, typo.column) == (12, 25))
    #expect(
      typo.message
        == "unknown key 'failure' in 'jobs.enrichment-fetch.provider.circuit_breaker'; allowed: failures, cool_down (did you mean 'failures'?)"
    )
    let set = try ConfigLoader.parse(
      yaml: exampleConfig(replacingLine: 12, with: "      circuit_breaker: {failures: 3, cool_down: 1h}"),
      file: "pipelines.yaml", jobs: JobCatalog.settings)
    #expect(
      set.jobs[EnrichmentFetchJob.self].provider?.circuitBreaker
        == CircuitBreakerSettings(failures: 3, coolDown: .seconds(3_600)))
  }

  @Test func badDurations() throws {
    let bare = try configError(exampleConfig(replacingLine: 15, with: "    window: 7"))
    #expect(
      bare.description
        == "pipelines.yaml:15:13: bad duration for 'jobs.attribution-expiry.window': '7' has no unit; write a number with a unit (w, d, h, m, s, ms), e.g. 7d, 48h or 1h30m"
    )
    let unit = try configError(exampleConfig(replacingLine: 15, with: "    window: 7 days"))
    #expect(
      unit.message.hasPrefix("bad duration for 'jobs.attribution-expiry.window': '7 days' contains spaces;"))
    let bad = try configError(exampleConfig(replacingLine: 15, with: "    window: 7y"))
    #expect(
      bad.message.hasPrefix("bad duration for 'jobs.attribution-expiry.window': '7y' has unknown unit 'y';"))
    let zero = try configError(exampleConfig(replacingLine: 15, with: "    window: 0s"))
    #expect(zero.message == "'jobs.attribution-expiry.window' must be longer than zero, got 0s")
  }

  @Test(arguments: [
    ("75 2 * * *", "minute field: 75 is out of range 0-59"),
    ("30 2 * *", "expected 5 fields (minute hour day-of-month month day-of-week) but found 4"),
    ("30 2 * FOO *", "month field: 'FOO' is not a number or a name JAN-DEC"),
    ("*/0 * * * *", "minute field: step 0 must be at least 1"),
    (
      "0 0 30 2 *",
      "day-of-month field: day 30 never occurs in the chosen month(s), so this schedule would never fire"
    ),
    (
      "@reboot",
      "unknown macro '@reboot'; use one of @annually, @daily, @hourly, @midnight, @monthly, @weekly, @yearly"
    ),
  ])
  func badSchedules(schedule: String, reason: String) throws {
    let yaml = exampleConfig(replacingLine: 19, with: "    schedule: \"\(schedule)\"")
    let error = try configError(yaml)
    #expect(error.description == "pipelines.yaml:19:15: bad schedule '\(schedule)': \(reason)")
  }

  @Test func unquotedMacroGetsAQuotingHint() throws {
    let error = try configError(exampleConfig(replacingLine: 19, with: "    schedule: @daily"))
    #expect(error.line == 19)
    #expect(error.column == 15)
    #expect(error.message.hasPrefix("malformed YAML: found character that cannot start any token"))
    #expect(error.message.contains("values starting with @, `, * or & must be quoted"))
  }

  @Test func badTimezone() throws {
    let error = try configError(exampleConfig(replacingLine: 20, with: "    timezone: Mars/Olympus_Mons"))
    #expect(
      error.description
        == "pipelines.yaml:20:15: unknown time zone 'Mars/Olympus_Mons' in 'pipelines.nightly.timezone'; use an IANA name such as UTC or Europe/Paris"
    )
  }

  @Test func malformedYAMLHasALine() throws {
    let yaml = exampleConfig(replacingLine: 21, with: "    jobs: [enrichment-fetch, daily-score")
    let error = try configError(yaml)
    #expect(error.line == 22)
    #expect(error.message.hasPrefix("malformed YAML: did not find expected ',' or ']'"))
    #expect(error.message.contains("while parsing a flow sequence at line 21, column 11"))
  }

  @Test func duplicateKeys() throws {
    let yaml = exampleConfig(replacingLine: 20, with: "    schedule: \"0 3 * * *\"")
    let error = try configError(yaml)
    #expect(
      error.description
        == "pipelines.yaml:19:5: duplicate key 'schedule' in one mapping (first use here); keep only one")
  }

  @Test func providerChecks() throws {
    let url = try configError(exampleConfig(replacingLine: 9, with: "      url: ftp://enrich.example.com"))
    #expect(
      url.description
        == "pipelines.yaml:9:12: 'jobs.enrichment-fetch.provider.url' must be an http or https URL such as https://enrich.example.com, got 'ftp://enrich.example.com'"
    )
    let missing = try configError(exampleConfig(replacingLine: 10, with: ""))
    #expect(
      missing.description
        == "pipelines.yaml:8:7: missing required key 'api_key_env' in 'jobs.enrichment-fetch.provider'; add it"
    )
    let secret = try configError(exampleConfig(replacingLine: 10, with: "      api_key_env: sk-live-123"))
    #expect(!secret.description.contains("sk-live-123"))
    #expect(secret.line == 10)
  }

  @Test func pipelineNamesNeedNoQuoting() throws {
    let error = try configError(exampleConfig(replacingLine: 18, with: "  night ly:"))
    #expect(
      error.description
        == "pipelines.yaml:18:3: pipeline name 'night ly' must start with a letter or digit and use only letters, digits, '-', '_' and '.'"
    )
  }

  @Test func topLevelMustBeAMapping() throws {
    let error = try configError("- storage\n")
    #expect(
      error.description == "pipelines.yaml:1:1: the top level must be a mapping of keys to values, got a list"
    )
  }
}

@Suite("YAML syntax errors", .onItsOwnThread)
struct YAMLSyntaxErrorTests {
  @Test func unquotedCronStarGetsAQuotingHint() throws {
    let error = try configError(exampleConfig(replacingLine: 19, with: "    schedule: */5 * * * *"))
    #expect((error.line, error.column) == (19, 16))
    #expect(error.message.hasPrefix("malformed YAML: did not find expected alphabetic or numeric character"))
    #expect(error.message.contains("values starting with @, `, * or & must be quoted"))
  }

  @Test func tabsGetTheirOwnHint() throws {
    let error = try configError("jobs:\n\tdaily-score: {}\n")
    #expect((error.line, error.column) == (2, 1))
    #expect(error.message.contains("; indent with spaces, YAML does not allow tabs; fix the syntax"))
    #expect(!error.message.contains("quoted"))
  }

  @Test func secondDocumentIsRejected() throws {
    let error = try configError("storage: {url: x}\n---\nstorage: {}\n")
    #expect(
      error.description
        == "pipelines.yaml:2:1: the file holds more than one YAML document (a second '---'); keep only one")
  }

  @Test func nullSectionPointsAtItsKey() throws {
    let error = try configError("pipelines:\n  n:\n")
    #expect(
      error.description == "pipelines.yaml:2:3: missing required key 'schedule' in 'pipelines.n'; add it")
  }

  @Test func emptyScalarIsATypeError() throws {
    let error = try configError("storage:\n  url:\n")
    #expect(error.description == "pipelines.yaml:2:7: 'storage.url' must be a string, got an empty value")
  }
}
