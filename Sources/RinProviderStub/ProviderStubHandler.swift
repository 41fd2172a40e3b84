import FlyingFox
import Foundation
import RinDomain

/// Answers one `POST /v1/person/bulk`.
struct ProviderStubHandler: Sendable {
  let state: ProviderStubMemory
  let settings: ProviderStub.Settings

  /// The provider's documented limit of items per request.
  static let maxItems = 100

  func respond(to request: HTTPRequest) async -> HTTPResponse {
    let receivedAt = WallClock.system.secondsSince1970
    let authorization = request.headers[HTTPHeader("Authorization")]
    guard let body = try? await request.bodyData, let items = Self.items(in: body) else {
      state.withLock { $0.requestCount += 1 }
      return Self.plain(
        400, "expected {\"requests\":[{\"id\":…,\"email\"|\"phone\":…}]} with at most 100 items")
    }
    let ids = items.compactMap { $0["id"] }
    // A refused key consumes no scripted behaviour: the script is about authorized traffic.
    let behaviour = authorized(authorization) ? state.withLock { $0.nextBehaviour() } : .status(401)
    let delivers = Self.deliversResults(behaviour)
    let answers = state.withLock { s in
      let answers = items.map { item in
        let id = item["id"] ?? ""
        let value = item["email"] ?? item["phone"] ?? ""
        return s.answers[id] ?? s.answersByValue[value] ?? fallback(id)
      }
      let answeredIDs = delivers ? zip(ids, answers).filter { $0.1.isAnswer }.map(\.0) : []
      s.requestCount += 1
      for id in ids { s.requestsPerKey[id, default: 0] += 1 }
      for id in answeredIDs { s.answersPerKey[id, default: 0] += 1 }
      if settings.keepRecords {
        s.records.append(
          ProviderStubRecord(
            receivedAt: receivedAt, ids: ids, items: items, authorization: authorization,
            behaviour: behaviour,
            answeredIDs: answeredIDs))
      }
      return answers
    }
    settings.onRequest?(receivedAt, ids.count)
    return await response(behaviour, ids: ids, answers: answers)
  }

  private func response(_ behaviour: ProviderStubBehaviour, ids: [String], answers: [ProviderStubAnswer])
    async
    -> HTTPResponse
  {
    let pairs = Array(zip(ids, answers))
    switch behaviour {
    case .answer: return Self.results(pairs)
    case .answerOutOfOrder: return Self.results(pairs.reversed())
    case .answerWithUnknownIDs:
      return Self.results(pairs, extra: [("unknown-\(ids.count)", .notFound), ("", .notFound)])
    case .tooManyRequests(let seconds):
      return Self.plain(429, "slow down", headers: ["Retry-After": String(seconds)])
    case .tooManyRequestsUntilDate(let seconds):
      return Self.plain(429, "slow down", headers: ["Retry-After": Self.httpDate(secondsFromNow: seconds)])
    case .tooManyRequestsRateLimitReset(let seconds):
      return Self.plain(429, "slow down", headers: ["x-ratelimit-reset": String(seconds)])
    case .status(let code): return Self.plain(code, "")
    case .slow(let seconds):
      try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
      return Self.results(pairs)
    case .neverAnswer:
      // Polls rather than sleeps long: the server may not cancel a handler when it stops.
      while !state.withLock({ $0.stopping }), !Task.isCancelled {
        try? await Task.sleep(nanoseconds: 50_000_000)
      }
      return Self.plain(503, "")
    case .malformedJSON:
      return HTTPResponse(
        statusCode: HTTPStatusCode(200, phrase: "OK"),
        headers: [HTTPHeader("Content-Type"): "application/json"], body: Data(#"{"results": [{"id": "#.utf8))
    }
  }

  private func authorized(_ header: String?) -> Bool {
    guard let header, header.hasPrefix("Bearer "), header.count > "Bearer ".count else { return false }
    return settings.apiKey.map { header == "Bearer \($0)" } ?? true
  }

  private func fallback(_ id: String) -> ProviderStubAnswer {
    switch settings.fallback {
    case .fakePeople: FakePeople.answer(for: id)
    case .notFound: .notFound
    }
  }

  static func deliversResults(_ behaviour: ProviderStubBehaviour) -> Bool {
    switch behaviour {
    case .answer, .answerOutOfOrder, .answerWithUnknownIDs: true
    case .tooManyRequests, .tooManyRequestsUntilDate, .tooManyRequestsRateLimitReset, .status, .slow,
      .malformedJSON, .neverAnswer:
      false
    }
  }

  /// The request's items, each with an `id` and exactly one of `email` and `phone`.
  static func items(in body: Data) -> [[String: String]]? {
    guard let root = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
      let requests = root["requests"] as? [Any], requests.count <= maxItems
    else { return nil }
    var items: [[String: String]] = []
    for case let item as [String: Any] in requests {
      guard let id = item["id"] as? String else { return nil }
      let email = item["email"] as? String
      let phone = item["phone"] as? String
      guard (email == nil) != (phone == nil), item.count == 2 else { return nil }
      items.append(email.map { ["id": id, "email": $0] } ?? ["id": id, "phone": phone ?? ""])
    }
    return items.count == requests.count ? items : nil
  }

  static func results(_ pairs: [(String, ProviderStubAnswer)], extra: [(String, ProviderStubAnswer)] = [])
    -> HTTPResponse
  {
    let results: [StubResult] = (pairs + extra).compactMap { id, answer in
      switch answer {
      case .match(let likelihood, let person):
        StubResult(id: id, status: 200, likelihood: likelihood, person: person)
      case .notFound: StubResult(id: id, status: 404)
      case .itemStatus(let status): StubResult(id: id, status: status)
      case .omitted: nil
      }
    }
    let body = (try? JSONEncoder().encode(["results": results])) ?? Data()
    return HTTPResponse(
      statusCode: HTTPStatusCode(200, phrase: "OK"),
      headers: [HTTPHeader("Content-Type"): "application/json"],
      body: body)
  }

  /// One item of a response (JSONEncoder leaves out the nil fields).
  private struct StubResult: Encodable {
    var id: String
    var status: Int
    var likelihood: Int?
    var person: StubPerson?
  }

  static func plain(_ status: Int, _ text: String, headers: [String: String] = [:]) -> HTTPResponse {
    var all: [HTTPHeader: String] = [HTTPHeader("Content-Type"): "text/plain"]
    for (name, value) in headers { all[HTTPHeader(name)] = value }
    return HTTPResponse(
      statusCode: HTTPStatusCode(status, phrase: status == 429 ? "Too Many Requests" : "Status \(status)"),
      headers: HTTPHeaders(all), body: Data(text.utf8))
  }

  /// IMF-fixdate `seconds` from now, rounded up to the next whole second so the client can
  /// never be told a time already past.
  static func httpDate(secondsFromNow seconds: Int) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    let instant = (WallClock.system.secondsSince1970 + Double(seconds)).rounded(.up)
    return formatter.string(from: Date(timeIntervalSince1970: instant))
  }
}
