import FlyingSocks

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// FlyingFox's socket pool, with Nagle's algorithm switched off on every socket it waits on.
/// FlyingFox writes a response's head and body separately; with Nagle on, the body waits for
/// the client's delayed ACK of the head, and every keep-alive request took 40 ms.
struct NoDelaySocketPool<Inner: AsyncSocketPool>: AsyncSocketPool {
  let inner: Inner

  func prepare() async throws { try await inner.prepare() }

  func run() async throws { try await inner.run() }

  func suspendSocket(_ socket: Socket, untilReadyFor events: Socket.Events) async throws {
    // The listening socket too: Linux copies TCP_NODELAY to the connections it accepts.
    try? socket.setValue(true, for: BoolSocketOption(level: Int32(IPPROTO_TCP), name: TCP_NODELAY))
    try await inner.suspendSocket(socket, untilReadyFor: events)
  }
}
