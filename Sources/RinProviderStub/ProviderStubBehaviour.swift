/// How the stub answers one whole request. Tests queue behaviours; a request with none queued
/// gets the stub's default (`answer`).
public enum ProviderStubBehaviour: Sendable, Equatable {
  /// 200 with one result per requested key, in request order.
  case answer
  /// 200 with the results in reverse order (clients must match by `id`).
  case answerOutOfOrder
  /// 200 with the results plus items for ids nobody asked for.
  case answerWithUnknownIDs
  /// 429 with `Retry-After: N` (seconds).
  case tooManyRequests(retryAfterSeconds: Int)
  /// 429 with `Retry-After` as an HTTP date N seconds from now.
  case tooManyRequestsUntilDate(secondsFromNow: Int)
  /// 429 with `x-ratelimit-reset: N` (seconds) and no `Retry-After`.
  case tooManyRequestsRateLimitReset(seconds: Int)
  /// A bare status with an empty body (500, 503, 401, 400, …).
  case status(Int)
  /// Waits this long, then answers: slower than the client's timeout, the answer is never read.
  case slow(seconds: Double)
  /// 200 with a body that is not JSON.
  case malformedJSON
  /// Reads the request and never answers (a provider that hangs): the connection is held until
  /// the stub stops.
  case neverAnswer
}
