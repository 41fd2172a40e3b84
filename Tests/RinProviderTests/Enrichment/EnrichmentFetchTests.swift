import Foundation
import RinDomain
import RinJobs
import RinProviderStub
import RinRuntime
import RinTestSupport
import Testing

extension EnrichmentEndToEnd {
  /// enrichment-fetch end to end: a real database (SQLite file or PostgreSQL), a real HTTP server
  /// on loopback.
  @Suite("enrichment-fetch end to end")
  struct EnrichmentFetchTests {
    @Test(arguments: Backend.available) func writesExactlyTheExpectedEnrichmentsAndPaysForEachKeyOnce(
      backend: Backend
    ) async throws {
      let f = try await EnrichmentFixture.make(backend)
      defer { Task { await f.stop() } }
      let summary = await f.run()
      #expect(summary.status == .succeeded, "\(summary.error ?? "")")
      #expect(try f.enrichments() == EnrichmentFixture.expectedEnrichments)
      #expect(try f.rinUsers() == EnrichmentFixture.expectedRinUsers)
      #expect(try f.outbox() == EnrichmentFixture.expectedOutbox)
      #expect(f.valuesSent == EnrichmentFixture.lookedUp)
      #expect(f.stub.requestCount == 4)  // ten keys, three per request
      #expect(f.noAnsweredKeyWasRequestedAgain())
      let statuses = try f.cachedStatuses()
      #expect(statuses.count == 10)
      #expect(statuses["ada@example.com"] == "match")
      #expect(statuses["carol@example.net"] == "match")  // paid for, so cached, though too unlikely to use
      #expect(statuses["bob@example.org"] == "no_match")
      #expect(statuses["+14155550001"] == "no_match")
      #expect(try f.db.int("SELECT count(*) FROM contact_enrichments WHERE seen_at IS NOT NULL") == 0)
      // A first answer: a no-match kept 30 days, a match 30, 60 or 90 by its key (`RefreshPhase`).
      let expiries = try f.cachedExpiries(askedAt: TestClock.now)
      #expect(expiries.count == 10)
      for (value, cached) in expiries {
        #expect(cached.expiresAt == cached.expected, "\(value)")
        #expect(cached.fetchedAt == (statuses[value] == "match" ? TestClock.now : nil), "\(value)")
      }
      #expect(
        Set(
          expiries.filter { statuses[$0.key] == "match" }.map {
            ($0.value.expiresAt - TestClock.now) / 86_400
          }
        )
        .isSubset(of: [30, 60, 90]))
      #expect(
        expiries.filter { statuses[$0.key] == "no_match" }.allSatisfy {
          $0.value.expiresAt == TestClock.now + 30 * 86_400
        })
      #expect(summary.counts.skipped["contact phone is the owner's own number"] == 1)
      #expect(summary.counts.skipped["contact phones belong to several verified users"] == 1)
      #expect(summary.counts.skipped["provider match below min_likelihood"] == 1)
      #expect(summary.counts.skipped["enrichment field edited by the user"] == 1)
      #expect(summary.counts.skipped["contact has every provider field edited (not looked up)"] == 1)
      #expect(summary.counts.skipped["contact phone malformed"] == 2)
      #expect(summary.counts.skipped["contact email malformed"] == 1)
      #expect(summary.details[EnrichmentFetchDetails.self].lookupsRequested == 10)
      #expect(summary.details[EnrichmentFetchDetails.self].matches == 4)
      #expect(summary.details[EnrichmentFetchDetails.self].noMatches == 6)
      #expect(summary.changes.notifications["contact_enrichment"] == 3)

      // A rerun pays for nothing and changes nothing.
      let before = try f.db.contentDigest()
      let again = await f.run(TestClock.options(now: TestClock.now + 3600))
      #expect(again.status == .succeeded)
      #expect(f.stub.requestCount == 4)
      #expect(try f.db.contentDigest() == before)
      // Owners whose contacts' inputs and cached answers are as at the last check are left alone.
      #expect((again.details[EnrichmentFetchDetails.self].ownersUnchanged ?? 0) > 0)
    }

    @Test(arguments: Backend.available) func dryRunSendsNothingAndReportsCacheHitsAndWouldBeLookups(
      backend: Backend
    ) async throws {
      let f = try await EnrichmentFixture.make(backend)
      defer { Task { await f.stop() } }
      // ada@example.com is already cached (hex SHA-256 of the address) beyond its owner's next
      // visit (`RefreshPhase`), so it is not asked again; so is an expired no-match.
      let ada = LookupCacheKey(
        provider: "acme", key: "b5fc85e55755f9e0d030a10ab4429b6b2944855f9a0d60077fe832becbc41d72")
      let expired = LookupCacheKey(
        provider: "acme", key: "06c02db8e15d9dec36449aeda2a089dea81fa8125d8198f63b9f53626acef466")
      try f.db.execute(
        """
        INSERT INTO enrichment_lookups (key_high, key_low, expires_at, fetched_at, check_high, check_low, response)
        VALUES (?, ?, ?, 0, ?, ?, '{"likelihood":8,"person":{"company":"Acme"}}'), (?, ?, ?, NULL, NULL, NULL, NULL)
        """,
        [
          ada.high, ada.low, TestClock.now + 60 * 86_400, ada.checkHigh, ada.checkLow, expired.high,
          expired.low,
          TestClock.now - 10,
        ])
      let before = try f.db.contentDigest()
      let summary = await f.run(TestClock.options(dryRun: true))
      #expect(summary.status == .succeeded, "\(summary.error ?? "")")
      #expect(f.stub.requestCount == 0)
      #expect(try f.db.contentDigest() == before)
      #expect(summary.details[EnrichmentFetchDetails.self].cacheHits == 1)
      #expect(summary.details[EnrichmentFetchDetails.self].wouldBeLookups == 9)
      #expect(summary.details[EnrichmentFetchDetails.self].wouldBeRequestsAtLeast == 3)
      // What the cache already holds is reported as the enrichments it would write.
      #expect(summary.changes.tables["contact_enrichments"]?.inserted == 4)  // two rin_user, two companies
      #expect(summary.changes.notifications["contact_enrichment"] == 2)
    }

    /// Each server behaviour, met on the first request; the run ends with exactly the expected
    /// rows, and no key the server answered was sent again.
    @Test(
      arguments: Backend.available,
      [
        ProviderStubBehaviour.tooManyRequests(retryAfterSeconds: 1),
        .tooManyRequestsUntilDate(secondsFromNow: 1),
        .tooManyRequestsRateLimitReset(seconds: 1),
        .status(500),
        .status(503),
        .slow(seconds: 12),
        .malformedJSON,
        .answerOutOfOrder,
        .answerWithUnknownIDs,
      ])
    func everyServerBehaviourEndsInTheSameRows(backend: Backend, _ behaviour: ProviderStubBehaviour)
      async throws
    {
      let f = try await EnrichmentFixture.make(backend)
      defer { Task { await f.stop() } }
      f.stub.enqueue(behaviour)
      // Timeouts generous enough for a loaded machine: a normal answer that arrived after the client
      // gave up would be asked for again, which is the one repeat no client can avoid.
      let summary = await f.run(config: f.config(timeout: .seconds(5), concurrency: 1))
      #expect(summary.status == .succeeded, "\(summary.error ?? "")")
      #expect(try f.enrichments() == EnrichmentFixture.expectedEnrichments)
      #expect(try f.outbox() == EnrichmentFixture.expectedOutbox)
      #expect(try f.cachedStatuses().count == 10)
      #expect(f.noAnsweredKeyWasRequestedAgain())
      #expect(summary.details[EnrichmentFetchDetails.self].keysLeftForNextRun == 0)
      let retried =
        !ProviderStubBehaviour.answerOutOfOrder.isSameCase(as: behaviour)
        && !ProviderStubBehaviour.answerWithUnknownIDs.isSameCase(as: behaviour)
      #expect(f.stub.requestCount == (retried ? 5 : 4))
      if case .tooManyRequests = behaviour {
        let times = f.stub.records.map(\.receivedAt)
        #expect(times[1] - times[0] >= 0.95)  // the server's own clock: Retry-After was honoured
      }
    }

    @Test(arguments: Backend.available) func keysThatStillFailAreLeftUncachedAndTheNextRunAsksOnlyForThem(
      backend: Backend
    ) async throws {
      let f = try await EnrichmentFixture.make(backend)
      defer { Task { await f.stop() } }
      // The first request fails three times (max_retries 2): its three keys are given up.
      f.stub.enqueue(.status(503), .status(503), .status(503))
      // gus@example.com gets a per-item 500 in an otherwise good response.
      f.stub.setAnswer(.itemStatus(500), forLookedUp: "gus@example.com")
      let first = await f.run(config: f.config(concurrency: 1))
      #expect(first.status == .succeeded, "\(first.error ?? "")")
      #expect(first.details[EnrichmentFetchDetails.self].keysLeftForNextRun == 4)
      let firstKeys = Set(f.stub.records[0].items.compactMap { $0["email"] ?? $0["phone"] })
      let cached = try f.cachedStatuses()
      #expect(cached.count == 6)
      #expect(firstKeys.isDisjoint(with: cached.keys))
      #expect(cached["gus@example.com"] == nil)
      let requestsBefore = f.stub.requestCount

      f.scriptAnswers()
      let second = await f.run(TestClock.options(now: TestClock.now + 60), config: f.config(concurrency: 1))
      #expect(second.status == .succeeded)
      let asked = Set(
        f.stub.records[requestsBefore...].flatMap { $0.items }.compactMap { $0["email"] ?? $0["phone"] })
      #expect(asked == firstKeys.union(["gus@example.com"]))
      #expect(try f.enrichments() == EnrichmentFixture.expectedEnrichments)
      #expect(f.noAnsweredKeyWasRequestedAgain())
    }

    @Test(arguments: Backend.available) func aCrashAfterResponsesArriveNeverPaysForAKeyTwice(backend: Backend)
      async throws
    {
      let f = try await EnrichmentFixture.make(backend)
      defer { Task { await f.stop() } }
      // The batch's transaction fails after every response was cached (a crash at that point
      // would leave the same state: cache committed, enrichments not).
      try f.failEnrichmentInserts(ofContact: 21)
      let crashed = await f.run()
      #expect(crashed.status == .failed)
      #expect(try f.db.int("SELECT count(*) FROM contact_enrichments") == 0)
      #expect(try f.db.int("SELECT count(*) FROM enrichment_lookups") == 10)
      let paid = f.stub.requestCount

      try f.stopFailingEnrichmentInserts()
      let resumed = await f.run(TestClock.options(now: TestClock.now + 60))
      #expect(resumed.status == .succeeded)
      #expect(f.stub.requestCount == paid)
      #expect(try f.enrichments() == EnrichmentFixture.expectedEnrichments)
      #expect(try f.outbox() == EnrichmentFixture.expectedOutbox)
    }

    @Test(arguments: Backend.available) func aStopDuringTheProviderCallsKeepsWhatWasPaidForAndResumes(
      backend: Backend
    ) async throws {
      let f = try await EnrichmentFixture.make(backend)
      defer { Task { await f.stop() } }
      let stop = StopSignal()
      // One request at a time; the second hangs past its timeout while the stop arrives.
      f.stub.enqueue(.answer, .slow(seconds: 12))
      let watcher = Task {
        while f.stub.requestCount < 2 { try await Task.sleep(nanoseconds: 5_000_000) }
        stop.request()
      }
      let stopped = await f.run(config: f.config(timeout: .seconds(5), concurrency: 1), stop: stop)
      _ = try? await watcher.value
      #expect(stopped.status == .interrupted)
      #expect(stopped.exitCode == .temporary)
      #expect(try f.db.int("SELECT count(*) FROM contact_enrichments") == 0)
      let cachedAfterStop = try f.db.int("SELECT count(*) FROM enrichment_lookups")
      #expect(cachedAfterStop >= 3)

      let resumed = await f.run(TestClock.options(now: TestClock.now + 60))
      #expect(resumed.status == .succeeded)
      #expect(try f.enrichments() == EnrichmentFixture.expectedEnrichments)
      #expect(f.noAnsweredKeyWasRequestedAgain())
    }

    @Test(arguments: Backend.available) func requestRateSeenByTheServerStaysWithinRequestsPerMinute(
      backend: Backend
    ) async throws {
      let f = try await EnrichmentFixture.make(backend)
      defer { Task { await f.stop() } }
      // The server runs in a process of its own and prints when each request arrived: its clock
      // is not held up by this test process's busy threads.
      let server = try BackgroundProcess("rinjobs-dev", ["provider-stub", "--port", "0", "--log-requests"])
      defer { server.stop() }
      let url = try #require(try await server.waitForOutput(matching: ProviderStubCommandTests.listening))
      // 240 a minute: one request per 0.25 s at most; ten requests of one key each, four at once.
      var config = f.config(batchSize: 1, requestsPerMinute: 240, concurrency: 4)
      config.jobs[EnrichmentFetchJob.self].provider?.url = url
      let summary = await f.run(config: config)
      #expect(summary.status == .succeeded, "\(summary.error ?? "")")
      let times = try Self.arrivals(in: server.text)
      #expect(times.count == 10)
      // Any one-second window of the server's clock holds at most 4 requests (+1 for arrival
      // jitter at the window's edges); the whole run spans at least nine intervals.
      for (i, start) in times.enumerated() {
        let inWindow = times[i...].prefix { $0 < start + 1 }.count
        #expect(inWindow <= 5, "\(inWindow) requests within one second from \(start)")
      }
      #expect(try #require(times.last) - times[0] >= 9 * 0.25 * 0.9)
    }

    static func arrivals(in output: String) throws -> [Double] {
      let regex = try NSRegularExpression(pattern: "request at=([0-9.]+)")
      return regex.matches(in: output, range: NSRange(output.startIndex..., in: output)).compactMap { match in
        Range(match.range(at: 1), in: output).flatMap { Double(output[$0]) }
      }.sorted()
    }

    @Test(arguments: Backend.available) func withoutAProviderOnlyTheRinNetworkRunsAndSaysSoOnce(
      backend: Backend
    ) async throws {
      let f = try await EnrichmentFixture.make(backend)
      defer { Task { await f.stop() } }
      let logs = CapturedLogs()
      let summary = await f.run(config: f.config(provider: false), environment: [:], logs: logs)
      #expect(summary.status == .succeeded)
      #expect(f.stub.requestCount == 0)
      #expect(logs.all.filter { $0.contains("no enrichment provider configured") }.count == 1)
      #expect(
        try f.enrichments() == EnrichmentFixture.expectedEnrichments.filter { $0.contains("rin_network") })
      #expect(try f.outbox() == ["1|rin://contacts/10", "2|rin://contacts/20"])
    }

    @Test(arguments: Backend.available) func aMissingAPIKeyFailsWithExit78BeforeAnyWork(backend: Backend)
      async throws
    {
      let f = try await EnrichmentFixture.make(backend)
      defer { Task { await f.stop() } }
      for environment in [[:], [EnrichmentFixture.apiKeyVariable: ""]] {
        let summary = await f.run(environment: environment)
        #expect(summary.status == .failed)
        #expect(summary.exitCode == .configuration)
        #expect(summary.error?.contains(EnrichmentFixture.apiKeyVariable) == true)
      }
      #expect(f.stub.requestCount == 0)
      #expect(try f.db.int("SELECT count(*) FROM contact_enrichments") == 0)
    }

    @Test(arguments: Backend.available) func aRefusedKeyFailsTheRunAndSaysWhy(backend: Backend) async throws {
      let f = try await EnrichmentFixture.make(backend)
      defer { Task { await f.stop() } }
      let summary = await f.run(environment: [EnrichmentFixture.apiKeyVariable: "sk-wrong-key-123"])
      #expect(summary.status == .failed)
      #expect(summary.exitCode == .failure)
      #expect(summary.error?.contains("HTTP 401") == true)
      #expect(summary.error?.contains("sk-wrong-key-123") == false)
      // A full run sends 4 requests, 2 at a time. The refusal cancels the other request in
      // flight, which may or may not have reached the stub yet; none is sent after it.
      #expect((1...2).contains(f.stub.requestCount), "\(f.stub.requestCount) requests")
    }

    @Test(arguments: Backend.available) func aNewValueIsShownAgainAndAnUnchangedOneStaysSeen(backend: Backend)
      async throws
    {
      let f = try await EnrichmentFixture.make(backend)
      defer { Task { await f.stop() } }
      _ = await f.run()
      try f.db.execute("UPDATE contact_enrichments SET seen_at = ?", [TestClock.now + 10])
      // After the match cache expires the provider knows a new company for Ada.
      f.stub.setAnswer(
        .match(likelihood: 8, person: StubPerson(company: "Acme Inc", title: "CTO", birthday: "1980-02-29")),
        forLookedUp: "ada@example.com")
      let later = TestClock.now + 91 * 86_400
      let summary = await f.run(TestClock.options(now: later))
      #expect(summary.status == .succeeded)
      #expect(
        try f.db.strings(
          "SELECT contact_id || ':' || field FROM contact_enrichments WHERE seen_at IS NULL ORDER BY 1")
          == ["10:company", "20:company"])
      #expect(try f.db.int("SELECT count(*) FROM notification_outbox WHERE created_at = ?", [later]) == 2)
    }
  }
}

extension ProviderStubBehaviour {
  fileprivate func isSameCase(as other: ProviderStubBehaviour) -> Bool {
    switch (self, other) {
    case (.answerOutOfOrder, .answerOutOfOrder), (.answerWithUnknownIDs, .answerWithUnknownIDs): true
    default: false
    }
  }
}
