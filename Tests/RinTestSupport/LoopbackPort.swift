import Foundation

/// A TCP port on 127.0.0.1 that nothing listens on right now, for a server the test starts
/// (PostgreSQL, the Pushgateway, Prometheus): the kernel picks it, so parallel tests do not
/// collide.
package enum LoopbackPort {
  package struct Unavailable: Error, CustomStringConvertible {
    package var description: String {
      "could not find a free loopback port (socket, bind or getsockname failed)"
    }
  }

  package static func free() throws -> Int {
    let socket = try bound(listening: false)
    close(socket.descriptor)
    return socket.port
  }

  /// A socket bound to a port the kernel picks on 127.0.0.1, listening when asked (a server
  /// that never accepts: the kernel completes handshakes from its backlog). The caller closes it.
  package static func bound(listening: Bool) throws -> (descriptor: Int32, port: Int) {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw Unavailable() }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
        bind(fd, pointer, length) == 0 && (!listening || listen(fd, 16) == 0)
          && getsockname(fd, pointer, &length) == 0
      }
    }
    guard bound else {
      close(fd)
      throw Unavailable()
    }
    return (fd, Int(UInt16(bigEndian: address.sin_port)))
  }
}
