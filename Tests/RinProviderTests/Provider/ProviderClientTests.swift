import Foundation
import RinProviderClient
import RinProviderStub
import RinTestSupport
import Testing

/// The bulk protocol against a real server on loopback, one server behaviour at a time.
@Suite("provider client over loopback", .onItsOwnThread)
struct ProviderClientTests {
  static let lookups = [
    ProviderLookup(id: "k1", channel: .email("ada@example.com")),
    ProviderLookup(id: "k2", channel: .phone("+14155550123")),
    ProviderLookup(id: "k3", channel: .email("bob@example.org")),
  ]

  static func client(
    _ stub: ProviderStub, timeout: Duration = .seconds(5), maxRetries: Int = 2, rpm: Int = 60_000,
    apiKey: String = "test-key"
  ) throws -> ProviderClient {
    let url = try #require(URL(string: stub.baseURL))
    return ProviderClient(
      settings: ProviderClientSettings(
        baseURL: url, apiKey: apiKey, requestsPerMinute: rpm, timeout: timeout, maxRetries: maxRetries,
        backoff: Backoff(base: 0.01, cap: 0.05, random: { 0.5 })))
  }

  static func scriptedStub() async throws -> ProviderStub {
    let stub = try await ProviderStub.start(apiKey: "test-key", fallback: .notFound)
    stub.setAnswer(
      .match(likelihood: 8, person: StubPerson(company: "Acme", title: "CTO", birthday: "1980-02-29")),
      for: "k1")
    stub.setAnswer(.notFound, for: "k2")
    stub.setAnswer(.match(likelihood: 3, person: StubPerson(company: "Globex")), for: "k3")
    return stub
  }

  static let expected: [String: ProviderItemResult] = [
    "k1": .match(
      likelihood: 8, person: ProviderPerson(company: "Acme", title: "CTO", birthday: "1980-02-29")),
    "k2": .noMatch,
    "k3": .match(likelihood: 3, person: ProviderPerson(company: "Globex")),
  ]

  @Test func answersAreMatchedByIDAndTheRequestIsTheDocumentedShape() async throws {
    let stub = try await Self.scriptedStub()
    defer { Task { await stub.stop() } }
    let outcome = try await Self.client(stub).lookup(Self.lookups)
    #expect(outcome == .answered(results: Self.expected, unknownIDs: 0, duplicateIDs: 0))
    let record = try #require(stub.records.first)
    #expect(record.authorization == "Bearer test-key")
    #expect(
      record.items == [
        ["id": "k1", "email": "ada@example.com"], ["id": "k2", "phone": "+14155550123"],
        ["id": "k3", "email": "bob@example.org"],
      ])
  }

  @Test func oddCharactersSurviveTheRequestBody() async throws {
    let stub = try await Self.scriptedStub()
    defer { Task { await stub.stop() } }
    let odd = #"we"ird\na\#u{1}me\#té@example.com"#
    _ = try await Self.client(stub).lookup([ProviderLookup(id: #"id""#, channel: .email(odd))])
    #expect(stub.records.first?.items == [["id": #"id""#, "email": odd]])
  }

  @Test func resultsOutOfOrderAndUnknownIDsStillMatchByID() async throws {
    let stub = try await Self.scriptedStub()
    defer { Task { await stub.stop() } }
    stub.enqueue(.answerOutOfOrder, .answerWithUnknownIDs)
    let client = try Self.client(stub)
    #expect(
      await client.lookup(Self.lookups) == .answered(results: Self.expected, unknownIDs: 0, duplicateIDs: 0))
    #expect(
      await client.lookup(Self.lookups) == .answered(results: Self.expected, unknownIDs: 2, duplicateIDs: 0))
    #expect(stub.requestCount == 2)
  }

  @Test func serverErrorsTimeoutsAndMalformedBodiesAreRetriedThenSucceed() async throws {
    let stub = try await Self.scriptedStub()
    defer { Task { await stub.stop() } }
    // A timeout with room to spare for the answers that should come in time: on a loaded machine
    // (a second test run beside this one) a 5 s timeout also caught the malformed answer.
    stub.enqueue(.status(500), .slow(seconds: 25), .malformedJSON)
    let client = try Self.client(stub, timeout: .seconds(10), maxRetries: 3)
    #expect(
      await client.lookup(Self.lookups) == .answered(results: Self.expected, unknownIDs: 0, duplicateIDs: 0))
    #expect(stub.requestCount == 4)
    let stats = client.statistics
    #expect(stats.retries == 3)
    #expect(stats.serverErrors == 1)
    #expect(stats.timeouts == 1)
    #expect(stats.malformedBodies == 1)
  }

  @Test func givesUpAfterMaxRetries() async throws {
    let stub = try await Self.scriptedStub()
    defer { Task { await stub.stop() } }
    stub.setDefaultBehaviour(.status(503))
    let client = try Self.client(stub, maxRetries: 2)
    #expect(await client.lookup(Self.lookups) == .gaveUp(.serverError(status: 503)))
    #expect(stub.requestCount == 3)
  }

  @Test(arguments: [
    ProviderStubBehaviour.tooManyRequests(retryAfterSeconds: 1),
    .tooManyRequestsUntilDate(secondsFromNow: 1),
    .tooManyRequestsRateLimitReset(seconds: 1),
  ])
  func aRateLimitWaitsAsToldBeforeTheNextRequest(_ behaviour: ProviderStubBehaviour) async throws {
    let stub = try await Self.scriptedStub()
    defer { Task { await stub.stop() } }
    stub.enqueue(behaviour)
    let client = try Self.client(stub)
    #expect(
      await client.lookup(Self.lookups) == .answered(results: Self.expected, unknownIDs: 0, duplicateIDs: 0))
    let times = stub.records.map(\.receivedAt)
    try #require(times.count == 2)
    // The server's own clock: the retry came no sooner than the wait it asked for (a date
    // rounds to whole seconds, so it asks for at least one).
    #expect(times[1] - times[0] >= 0.95)
    #expect(client.statistics.rateLimited == 1)
  }

  @Test func aRefusedKeyIsNotRetried() async throws {
    let stub = try await Self.scriptedStub()
    defer { Task { await stub.stop() } }
    let client = try Self.client(stub, apiKey: "wrong")
    #expect(await client.lookup(Self.lookups) == .refused(status: 401))
    #expect(stub.requestCount == 1)
  }

  @Test func anotherClientErrorGivesUpAtOnce() async throws {
    let stub = try await Self.scriptedStub()
    defer { Task { await stub.stop() } }
    stub.enqueue(.status(422))
    #expect(try await Self.client(stub).lookup(Self.lookups) == .gaveUp(.clientError(status: 422)))
    #expect(stub.requestCount == 1)
  }

  @Test func perItemFailuresAndOmittedKeysAreNotAnswers() async throws {
    let stub = try await Self.scriptedStub()
    defer { Task { await stub.stop() } }
    stub.setAnswer(.itemStatus(500), for: "k2")
    stub.setAnswer(.omitted, for: "k3")
    let outcome = try await Self.client(stub).lookup(Self.lookups)
    guard case .answered(let results, _, _) = outcome else {
      Issue.record("expected an answer, got \(outcome)")
      return
    }
    #expect(results["k2"] == .failed(status: 500))
    #expect(results["k3"] == nil)
  }
}
