import Foundation  // and through it the C library (Glibc, Musl or Darwin)
import Rewind

/// A TCP listener on the loopback address (127.0.0.1) only, for a client that attaches to a
/// server by port: it accepts one connection at a time. The socket calls are the live
/// connection's (`Platform.listenStream(on:)`, `Platform.acceptConnection(_:)`), so every
/// server of `replay` listens and accepts the same way.
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
  /// - Throws: ``Failure`` when the port is not a TCP port, or the socket cannot be made,
  ///   bound (the port is taken) or listened on.
  package init(port: Int) throws(Failure) {
    switch Platform.listenStream(on: .tcp(host: "127.0.0.1", port: port)) {
    case .success(let listening):
      fd = listening.fd
      self.port = listening.port
    case .failure(let failure):
      throw Failure(description: failure.description)
    }
  }

  deinit { close(fd) }

  /// Waits for the next client and returns its connection's descriptor (the caller closes it
  /// with ``closeConnection(_:)``).
  /// - Throws: ``Failure`` when `accept` fails other than by a signal.
  package func accept() throws(Failure) -> Int32 {
    let client = Platform.acceptConnection(fd)
    guard client >= 0 else {
      throw Failure(
        description: "cannot accept a connection on 127.0.0.1:\(port): "
          + Platform.describe(errno: -client))
    }
    return client
  }

  /// Closes a connection ``accept()`` returned.
  package func closeConnection(_ client: Int32) { close(client) }

  /// Makes a write to a closed connection or pipe fail with `EPIPE` rather than end the
  /// process: a client that goes away ends its session only.
  package static func ignoreBrokenPipes() { signal(SIGPIPE, SIG_IGN) }
}
