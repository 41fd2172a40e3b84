import Foundation
import RinProviderStub
import RinRuntime
import RinStorage
import RinTestSupport
import Testing

extension EnrichmentEndToEnd {
  /// `requests_per_minute` and `max_lookups_per_day` hold for all workers of a provider
  /// together (`provider_allowances`), not for each: shard workers started at once send, between
  /// them, what one worker may.
  @Suite("enrichment-fetch shares one provider limit among its workers")
  struct EnrichmentSharedLimitTests {
    static let now = "2026-11-22T12:00:00Z"

    static func config(
      _ db: TestDatabase, _ stub: ProviderStub, requestsPerMinute: Int, maxLookupsPerDay: Int? = nil,
      timeout: String? = nil
    ) throws -> String {
      let path = try TestConfigFile.write(
        """
        jobs:
          enrichment-fetch:
            batch_size: 2
        \(timeout.map { "    timeout: \($0)" } ?? "")
            provider:
              name: fake-people
              url: \(stub.baseURL)
              api_key_env: SEEDED_KEY
              batch_size: 25
              requests_per_minute: \(requestsPerMinute)
              concurrency: 4
        \(maxLookupsPerDay.map { "      max_lookups_per_day: \($0)" } ?? "")
        """, storageURL: "rin.sqlite", in: db.directory, name: "limit.yaml")
      return path
    }

    /// Runs `rin-enrichment-fetch` processes at once, one per argument list; their exit codes
    /// and JSON summaries. Waits without blocking a thread of the cooperative pool, which the
    /// provider stub of this process needs to answer them.
    static func runAtOnce(_ db: TestDatabase, _ config: String, _ runs: [[String]]) async throws -> [(
      Int32, [String: Any]
    )] {
      var processes: [(Process, String)] = []
      for (index, extra) in runs.enumerated() {
        let process = try Executable.start(
          "rin-enrichment-fetch", ["--config", config, "--db", db.path, "--now", now, "--json"] + extra,
          environment: ["SEEDED_KEY": "seeded-secret"], outputIn: db.directory, tag: "worker-\(index)")
        processes.append((process, db.directory.path("worker-\(index).out")))
      }
      var results: [(Int32, [String: Any])] = []
      for (process, out) in processes {
        while process.isRunning { try await Task.sleep(nanoseconds: 50_000_000) }
        let text = try String(contentsOfFile: out, encoding: .utf8)
        let json = (try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]) ?? [:]
        results.append((process.terminationStatus, json))
      }
      return results
    }

    @Test(arguments: Backend.available) func fourShardWorkersTogetherKeepTheRateAndAskEachKeyOnce(
      backend: Backend
    ) async throws {
      let stub = try await ProviderStub.start(
        apiKey: "seeded-secret", fallback: .fakePeople, keepRecords: true)
      defer { Task { await stub.stop() } }
      let sharded = try await offPool { try TestDatabase(backend, seedUsers: 3, seed: 11) }
      let whole = try await offPool { try TestDatabase(backend, seedUsers: 3, seed: 11) }
      let requestsPerMinute = 600
      let config = try Self.config(sharded, stub, requestsPerMinute: requestsPerMinute)
      let workers = try await Self.runAtOnce(sharded, config, (0..<4).map { ["--shard", "\($0)/4"] })
      for (status, json) in workers { #expect(status == 0, "\(json)") }

      // Starts are 60/rpm seconds apart whichever worker sends them: over the run, the requests
      // came at the rate (four workers each keeping it on its own would send four times as many).
      // The stub sees arrivals, not starts: on a loaded machine a request that left late lands
      // next to the ones after it. Up to a second late (seen: 16 in a second at load 10, with
      // 10 a second allowed), a second holds at most two seconds' starts; four workers keeping
      // the rate each would send 40, and a burst of their 16 concurrent requests 26.
      let arrivals = stub.records.map(\.receivedAt).sorted()
      #expect(arrivals.count >= 20, "enough requests to see a rate: \(arrivals.count)")
      let perSecond = Double(requestsPerMinute) / 60
      let span = (arrivals.last ?? 0) - (arrivals.first ?? 0)
      #expect(
        Double(arrivals.count - 1) <= perSecond * span * 1.1 + 3,
        "\(arrivals.count) requests in \(span) s at \(perSecond) a second")
      let allowed = 2 * requestsPerMinute / 60 + 1
      let busiest =
        arrivals.indices.map { start in
          arrivals[start...].prefix { $0 < arrivals[start] + 1.0 }.count
        }.max() ?? 0
      #expect(busiest <= allowed, "\(busiest) requests in one second, allowed \(allowed)")
      let askedTwice = stub.requestsPerKey.filter { $0.value > 1 }
      #expect(askedTwice.isEmpty, "\(askedTwice.count) keys asked more than once")

      // What the four wrote is what one unsharded run writes: the same rows, whatever order
      // the workers inserted them in (notifications aside: their dedupe keys name the run).
      let single = try await Self.runAtOnce(
        whole, try Self.config(whole, stub, requestsPerMinute: 100_000), [[]])
      #expect(single.first?.0 == 0, "\(single.first?.1 ?? [:])")
      try Self.expectTheRowsOfOneUnshardedRun(sharded, whole)
      let outbox = "SELECT user_id || ':' || kind FROM notification_outbox ORDER BY 1"
      #expect(try sharded.strings(outbox) == whole.strings(outbox))
    }

    /// `max_lookups_per_day`: a run stops asking before the request that would pass it, leaves
    /// the rest for the next day, ends `succeeded`, and says so in its summary and metrics; a
    /// second run the same day asks nothing; the next day asking goes on.
    @Test(arguments: Backend.available) func aDailyBudgetStopsLookupsUntilTheNextDay(backend: Backend)
      async throws
    {
      let stub = try await ProviderStub.start(
        apiKey: "seeded-secret", fallback: .fakePeople, keepRecords: true)
      defer { Task { await stub.stop() } }
      let db = try await offPool { try TestDatabase(backend, seedUsers: 3, seed: 11) }
      let config = try Self.config(db, stub, requestsPerMinute: 100_000, maxLookupsPerDay: 60)
      let metrics = db.directory.path("metrics.prom")
      let first = try await Self.runAtOnce(db, config, [["--metrics-file", metrics]])
      #expect(first.first?.0 == 0, "\(first.first?.1 ?? [:])")
      let sent = stub.records.reduce(0) { $0 + $1.ids.count }
      #expect(sent > 0 && sent <= 60, "\(sent) lookups sent under a budget of 60")
      let details = first.first?.1["details"] as? [String: String] ?? [:]
      #expect(Int(details["requests_stopped_by_daily_limit"] ?? "") ?? 0 > 0, "\(details)")
      #expect(Int(details["keys_left_for_next_run"] ?? "") ?? 0 > 0, "\(details)")
      let provider = first.first?.1["provider"] as? [String: Any] ?? [:]
      #expect(provider["daily_limit_reached"] as? Bool == true, "\(provider)")
      let text = try String(contentsOfFile: metrics, encoding: .utf8)
      #expect(try Promtool.checkMetrics(atPath: metrics) == nil)
      #expect(text.contains("rinjobs_provider_daily_limit_reached{provider=\"fake-people\"} 1"), "\(text)")

      let requests = stub.requestCount
      let sameDay = try await Self.runAtOnce(db, config, [[]])
      #expect(sameDay.first?.0 == 0)
      #expect(stub.requestCount == requests, "nothing asked once the day's budget is spent")

      try db.execute("UPDATE provider_allowances SET day = '2026-01-01'")
      let nextDay = try await Self.runAtOnce(db, config, [[]])
      #expect(nextDay.first?.0 == 0)
      #expect(stub.requestCount > requests, "a new day, a new budget")
    }

    /// What shard workers wrote over `sharded` is what one unsharded run wrote over `whole`: the
    /// same rows, whatever order the workers inserted them in (notifications aside: their dedupe
    /// keys name the run).
    static func expectTheRowsOfOneUnshardedRun(_ sharded: TestDatabase, _ whole: TestDatabase) throws {
      let written = ["contact_enrichments", "contacts", "enrichment_lookups"]
      let tables = DataContract.allTables.filter { !written.contains($0) && $0 != "notification_outbox" }
      #expect(try sharded.contentDigest(of: tables) == whole.contentDigest(of: tables))
      let rows = [
        "SELECT contact_id || '|' || field || '|' || coalesce(value, '') || '|' || source || '|' || coalesce(confidence, -1) || '|' || fetched_at FROM contact_enrichments ORDER BY 1",
        "SELECT id || '|' || coalesce(rin_user_id, 0) || '|' || coalesce(company, '') || '|' || coalesce(title, '') || '|' || coalesce(birthday, '') FROM contacts ORDER BY id",
        "SELECT key_high || '|' || key_low || '|' || coalesce(fetched_at, -1) || '|' || expires_at || '|' || coalesce(check_high, 0) || '|' || coalesce(response, '') FROM enrichment_lookups ORDER BY 1",
      ]
      for query in rows {
        let (got, want) = (try sharded.strings(query), try whole.strings(query))
        #expect(
          !got.isEmpty && got == want, "\(query.prefix(40)): \(Set(got).symmetricDifference(want).prefix(3))")
      }
    }
  }
}
