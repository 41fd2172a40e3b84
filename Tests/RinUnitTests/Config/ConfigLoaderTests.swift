import Foundation
import RinConfiguration
import RinJobs
import RinTestSupport
import Testing

@testable import RinRuntime

@Suite("Config loading", .onItsOwnThread)
struct ConfigLoaderTests {
  @Test func exampleFileParsesWithDefaults() throws {
    let config = try withConfigTestDirectory { directory in
      let path = directory.appendingPathComponent("pipelines.yaml").path
      try examplePipelinesYAML.write(toFile: path, atomically: true, encoding: .utf8)
      return (try ConfigLoader.load(path: path, jobs: JobCatalog.settings), path)
    }
    let (loaded, path) = config
    #expect(loaded.sourcePath == path)
    #expect(loaded.storage == StorageSettings(url: "var/rin.sqlite", busyTimeout: .seconds(5)))
    #expect(loaded.jobs[DailyScoreJob.self].batchSize == 2000)
    #expect(loaded.jobs[CirclePatternsJob.self] == CirclePatternsSettings())
    #expect(loaded.jobs[CirclePatternsJob.self].emailDomainShare == 0.6)
    #expect(loaded.jobs[CirclePatternsJob.self].familyNameShare == 0.5)
    #expect(loaded.jobs[UpcomingBirthdaysJob.self].windowDays == 7)
    #expect(loaded.jobs[AttributionExpiryJob.self].window == .seconds(7 * 86_400))
    #expect(loaded.jobs[AttributionExpiryJob.self].deleteBatchSize == 5_000)
    #expect(loaded.jobs[BadgeRecountJob.self].batchSize == 2000)
    let provider = try #require(loaded.jobs[EnrichmentFetchJob.self].provider)
    #expect(provider.name == "acme-people")
    #expect(provider.url == "https://enrich.example.com")
    #expect(provider.apiKeyEnv == "RIN_ENRICH_API_KEY")
    #expect(provider.batchSize == 80)
    #expect(provider.requestsPerMinute == 600)
    #expect(provider.timeout == .seconds(10))
    #expect(provider.maxRetries == 4)
    #expect(provider.minLikelihood == 6)
    #expect(provider.matchTTL == .seconds(90 * 86_400))
    #expect(provider.noMatchTTL == .seconds(30 * 86_400))
    #expect(provider.concurrency == 4)
    #expect(provider.circuitBreaker.failures == 10)
    #expect(provider.circuitBreaker.coolDown == .seconds(600))
    #expect(loaded.pipelines.count == 1)
    let nightly = try #require(loaded.pipeline(named: "nightly"))
    #expect(nightly.schedule.text == "30 2 * * *")
    #expect(nightly.schedule.minute.values == [30])
    #expect(nightly.schedule.hour.values == [2])
    #expect(nightly.timezone == "UTC")
    #expect(nightly.jobs == [.enrichmentFetch, .circlePatterns, .dailyScore, .badgeRecount])
  }

  @Test func emptyMappingsAndOmittedJobsMeanDefaults() throws {
    let config = try ConfigLoader.parse(yaml: "jobs: {}\n", file: "p.yaml", jobs: JobCatalog.settings)
    #expect(config.jobs == JobsSettings())
    #expect(config.storage == StorageSettings())
    #expect(config.pipelines.isEmpty)
    #expect(config.jobs[EnrichmentFetchJob.self].provider == nil)
    let nullJob = try ConfigLoader.parse(
      yaml: "jobs:\n  daily-score:\n", file: "p.yaml", jobs: JobCatalog.settings)
    #expect(nullJob.jobs[DailyScoreJob.self].batchSize == 2000)
  }

  @Test func explicitValuesOverrideDefaults() throws {
    let yaml = """
      storage: {url: "postgres://rin@db:5432/rin", busy_timeout: 1500ms}
      jobs:
        daily-score: {batch_size: 1000}
        circle-patterns:
          email_domain_share: 0.75
          area_code_share: 1
          min_members: 4
          extra_free_mail_domains: [Mail.Example, web.de]
        upcoming-birthdays: {window_days: 14}
        attribution-expiry: {window: 6d, delete_batch_size: 100}
      pipelines:
        hourly: {schedule: "@hourly", jobs: [upcoming-birthdays]}
        nightly: {schedule: "0 3 * * *", timezone: Europe/Paris, jobs: [daily-score]}
      """
    let config = try ConfigLoader.parse(yaml: yaml, file: "p.yaml", jobs: JobCatalog.settings)
    #expect(config.storage.url == "postgres://rin@db:5432/rin")
    #expect(config.storage.busyTimeout == .milliseconds(1500))
    #expect(config.jobs[DailyScoreJob.self].batchSize == 1000)
    #expect(config.jobs[CirclePatternsJob.self].emailDomainShare == 0.75)
    #expect(config.jobs[CirclePatternsJob.self].areaCodeShare == 1.0)
    #expect(config.jobs[CirclePatternsJob.self].minMembers == 4)
    #expect(config.jobs[CirclePatternsJob.self].extraFreeMailDomains == ["mail.example", "web.de"])
    #expect(config.jobs[UpcomingBirthdaysJob.self].windowDays == 14)
    #expect(config.jobs[AttributionExpiryJob.self].window == .seconds(6 * 86_400))
    #expect(config.jobs[AttributionExpiryJob.self].deleteBatchSize == 100)
    #expect(config.pipelines.map(\.name) == ["hourly", "nightly"])
    #expect(config.pipelines[0].timezone == "UTC")
    #expect(config.pipelines[1].timezone == "Europe/Paris")
  }

  @Test func defaultsWithoutAFile() {
    let config = RinConfig.defaults(storageURL: "/tmp/x.sqlite")
    #expect(config.storage.url == "/tmp/x.sqlite")
    #expect(config.storage.busyTimeout == .seconds(5))
    #expect(config.jobs == JobsSettings())
    #expect(config.pipelines.isEmpty)
    #expect(config.sourcePath == RinConfig.defaultsSourcePath)
    #expect(RinConfig.defaults().storage.url == "var/rin.sqlite")
  }

  @Test func missingFileSaysWhatToDo() throws {
    let error = try withConfigTestDirectory { directory in
      configLoadError(path: directory.appendingPathComponent("absent.yaml").path)
    }
    let found = try #require(error)
    #expect(found.file.hasSuffix("/absent.yaml"))
    #expect((found.line, found.column) == (1, 1))
    #expect(
      found.message
        == "configuration file not found; create it, or point --config or RIN_CONFIG at the right file")
    #expect(found.description == "\(found.file):1:1: \(found.message)")
  }

  @Test func directoryInsteadOfFile() throws {
    let error = try withConfigTestDirectory { directory in configLoadError(path: directory.path) }
    #expect(error?.message.hasPrefix("this is a directory, not a configuration file") == true)
  }

  @Test func unknownTopLevelKeyAtEndOfRealFile() throws {
    let error = try withConfigTestDirectory { directory -> ConfigError? in
      let path = directory.appendingPathComponent("pipelines.yaml").path
      try (examplePipelinesYAML + "retries: 3\n").write(toFile: path, atomically: true, encoding: .utf8)
      return configLoadError(path: path)
    }
    let found = try #require(error)
    #expect(found.file.hasSuffix("/pipelines.yaml"))
    #expect(found.line == 22)
    #expect(found.column == 1)
    #expect(
      found.message
        == "unknown key 'retries' at the top level; allowed: storage, jobs, pipelines, metrics, freshness (did you mean 'metrics'?)"
    )
  }
}
