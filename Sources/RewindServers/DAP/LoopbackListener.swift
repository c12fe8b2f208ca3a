import Foundation  // and through it the C library (Glibc, Musl or Darwin)

/// A TCP listener on the loopback address (127.0.0.1) only, for a client that attaches to a
/// server by port: it accepts one connection at a time. Every socket call of the servers is in
/// this file.
package final class LoopbackListener {
  /// Why listening failed.
  package struct Failure: Error, Sendable, CustomStringConvertible {
    /// What failed, with the port and the system's reason.
    package var description: String
  }

  /// The listening socket.
  private let fd: Int32
  /// The port listened on (the one the system chose when 0 was asked for).
  package let port: Int

  /// Listens on 127.0.0.1:`port` (0: a free port the system chooses).
  /// - Throws: ``Failure`` when the socket cannot be made, bound (the port is taken) or
  ///   listened on.
  package init(port: Int) throws(Failure) {
    guard (0...65_535).contains(port) else {
      throw Failure(description: "port \(port) is not a TCP port: use 1 to 65535 (0 for any)")
    }
    #if os(Linux)
      let stream = Int32(SOCK_STREAM.rawValue)
    #else
      let stream = SOCK_STREAM
    #endif
    let fd = socket(AF_INET, stream, 0)
    guard fd >= 0 else { throw Self.failure("cannot make a socket", port: port) }
    var yes: Int32 = 1
    _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = in_addr_t(UInt32(0x7f00_0001).bigEndian)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, listen(fd, 1) == 0 else {
      let failure = Self.failure("cannot listen on 127.0.0.1:\(port)", port: port)
      close(fd)
      throw failure
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    self.fd = fd
    self.port = Int(UInt16(bigEndian: address.sin_port))
  }

  deinit { close(fd) }

  /// Waits for the next client and returns its connection's descriptor (the caller closes it
  /// with ``closeConnection(_:)``).
  /// - Throws: ``Failure`` when `accept` fails other than by a signal.
  package func accept() throws(Failure) -> Int32 {
    while true {
      #if os(Linux)
        let client = Glibc.accept(fd, nil, nil)
      #else
        let client = Darwin.accept(fd, nil, nil)
      #endif
      if client >= 0 { return client }
      if errno != EINTR { throw Self.failure("cannot accept a connection", port: port) }
    }
  }

  /// Closes a connection ``accept()`` returned.
  package func closeConnection(_ client: Int32) { close(client) }

  /// Makes a write to a closed connection or pipe fail with `EPIPE` rather than end the
  /// process: a client that goes away ends its session only.
  package static func ignoreBrokenPipes() { signal(SIGPIPE, SIG_IGN) }

  /// A failure of `what`, with `errno`'s reason.
  private static func failure(_ what: String, port: Int) -> Failure {
    Failure(description: "\(what): \(String(cString: strerror(errno)))")
  }
}
