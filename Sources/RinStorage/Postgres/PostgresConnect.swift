import CLibPQ
import Foundation

/// Opening a libpq connection without blocking in `PQconnectdb`: a server (or a firewall, or
/// a port that accepts and never answers) can hold a connect for ever, and a blocked call does
/// not see a stop. `PQconnectStartParams` and `PQconnectPoll` in a loop of `poll()` slices of
/// at most `slice`: between slices the stop check and the deadline are looked at. libpq's own
/// `connect_timeout` does not apply to `PQconnectPoll` (libpq's documentation), so it is read
/// from the connection's options and kept here.
struct PostgresConnect {
  /// `connect_timeout` when neither the URL nor the settings give one.
  static let defaultTimeout: Duration = .seconds(10)
  static let slice: Int32 = 100

  var timeout: Duration = defaultTimeout
  var isStopRequested: @Sendable () -> Bool = { false }

  /// A started connection, or nil when libpq could not allocate one.
  func start(_ url: String) -> OpaquePointer? {
    // The URL's own connect_timeout, if it has one, comes later in the list and wins.
    let seconds = timeout <= .zero ? 0 : max(2, Int((timeout / .seconds(1)).rounded(.up)))
    let keywords = [strdup("connect_timeout"), strdup("dbname"), nil]
    let values = [strdup(String(seconds)), strdup(url), nil]
    defer { (keywords + values).forEach { free($0) } }
    return keywords.map { UnsafePointer($0) }.withUnsafeBufferPointer { keys in
      values.map { UnsafePointer($0) }.withUnsafeBufferPointer { vals in
        PQconnectStartParams(keys.baseAddress, vals.baseAddress, 1)
      }
    }
  }

  /// Drives `handle` to an open connection; throws a connection failure (exit 75) on a refusal,
  /// when the deadline passes, or when a stop is requested.
  func finish(_ handle: OpaquePointer) throws {
    let limit = Self.effectiveTimeout(handle)
    let deadline = limit.map { ContinuousClock.now + $0 }
    var state = PGRES_POLLING_WRITING
    while state != PGRES_POLLING_OK {
      if state == PGRES_POLLING_FAILED || PQstatus(handle) == CONNECTION_BAD {
        let message = PostgresConnection.trimmed(PQerrorMessage(handle))
        throw PostgresError(sqlState: PostgresConnection.connectionFailureState(message), message: message)
      }
      try check(deadline: deadline, limit: limit)
      var socket = pollfd(
        fd: PQsocket(handle), events: Int16(state == PGRES_POLLING_READING ? POLLIN : POLLOUT), revents: 0)
      let ready = poll(&socket, 1, Self.slice)
      if ready > 0 { state = PQconnectPoll(handle) }
    }
  }

  /// Waits until a result of the query sent on `handle` can be read without blocking, with the
  /// same stop check and limit as the connect (from now).
  func waitForResult(_ handle: OpaquePointer) throws {
    let limit = Self.effectiveTimeout(handle)
    let deadline = limit.map { ContinuousClock.now + $0 }
    while true {
      guard PQconsumeInput(handle) == 1 else {
        throw PostgresError(
          sqlState: .connectionFailure, message: PostgresConnection.trimmed(PQerrorMessage(handle)))
      }
      if PQisBusy(handle) == 0 { return }
      try check(deadline: deadline, limit: limit)
      var socket = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
      _ = poll(&socket, 1, Self.slice)
    }
  }

  private func check(deadline: ContinuousClock.Instant?, limit: Duration?) throws {
    if isStopRequested() {
      throw PostgresError(
        sqlState: .sqlclientUnableToEstablishSQLConnection,
        message: "stopped by a signal while connecting; nothing ran")
    }
    if let deadline, let limit, ContinuousClock.now >= deadline {
      throw PostgresError(
        sqlState: .sqlclientUnableToEstablishSQLConnection,
        message:
          "no answer from the server within \(limit.wholeSeconds) s (connect_timeout, storage.connect_timeout)"
      )
    }
  }

  /// The connection's `connect_timeout` as libpq resolved it (URL, settings, `PGCONNECT_TIMEOUT`);
  /// nil for none (0). libpq takes 1 s as 2 s.
  static func effectiveTimeout(_ handle: OpaquePointer) -> Duration? {
    guard let options = PQconninfo(handle) else { return defaultTimeout }
    defer { PQconninfoFree(options) }
    var option = options
    while let keyword = option.pointee.keyword {
      if String(cString: keyword) == "connect_timeout" {
        let text = option.pointee.val.map { String(cString: $0) } ?? ""
        guard let seconds = Int(text.trimmingCharacters(in: .whitespaces)) else { return nil }
        return seconds <= 0 ? nil : .seconds(max(2, seconds))
      }
      option += 1
    }
    return defaultTimeout
  }
}
