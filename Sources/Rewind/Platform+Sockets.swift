// The stream sockets of the live connection (docs/live.md): the recorder's side connects out
// (``Platform/connectStream(to:timeoutMilliseconds:)``) and `replay listen` listens
// (``Platform/listenStream(on:)``). Both sides' socket calls are here, so that the app-linked
// module and the viewer share one implementation.
import Foundation  // and through it the C library (Glibc, Musl or Darwin)

/// Where a stream socket listens or connects: a Unix-domain socket's path, or a TCP host and port.
package enum SocketAddress: Sendable, Equatable, CustomStringConvertible {
  /// A Unix-domain socket at this path (same machine).
  case unix(path: String)
  /// TCP to `host` (a name or an address) at `port`.
  case tcp(host: String, port: Int)

  /// `unix:/tmp/rewind.sock` or `tcp:127.0.0.1:9091`.
  package var description: String {
    switch self {
    case .unix(let path): return "unix:\(path)"
    case .tcp(let host, let port): return "tcp:\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }
  }
}

extension Platform {
  /// The longest Unix-domain socket path (`sun_path` less its terminating zero).
  package static var unixSocketPathLimit: Int {
    MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1
  }

  /// Connects a stream socket to `address`, waiting at most `timeoutMilliseconds` for each
  /// address tried. The socket is close-on-exec, never raises `SIGPIPE` (send with
  /// ``sendAll(_:_:)``) and is left in blocking mode. Returns the descriptor, or a readable
  /// reason.
  package static func connectStream(
    to address: SocketAddress, timeoutMilliseconds: Int
  ) -> Result<Int32, SocketFailure> {
    switch address {
    case .unix(let path):
      guard var socketAddress = unixAddress(path) else {
        return .failure(
          SocketFailure(
            "the socket path \(path) is longer than \(unixSocketPathLimit) bytes"))
      }
      return withUnsafeBytes(of: &socketAddress) { raw in
        connect(
          family: AF_UNIX, address: raw, timeoutMilliseconds: timeoutMilliseconds, what: path)
      }
    case .tcp(let host, let port):
      return resolve(host: host, port: port, passive: false).flatMap { candidates in
        var last = SocketFailure("\(host) has no address")
        for candidate in candidates {
          let result = candidate.address.withUnsafeBytes { raw in
            connect(
              family: candidate.family, address: raw,
              timeoutMilliseconds: timeoutMilliseconds, what: "\(host):\(port)")
          }
          switch result {
          case .success: return result
          case .failure(let failure): last = failure
          }
        }
        return .failure(last)
      }
    }
  }

  /// Listens on `address` (backlog 64): a Unix-domain socket is created with mode 0600 (a stale
  /// socket file at the path, one nobody listens on, is replaced; any other file is not); TCP
  /// binds `host`, with `SO_REUSEADDR`. Returns the descriptor and, for TCP, the port bound
  /// (the one the system chose for port 0).
  package static func listenStream(on address: SocketAddress) -> Result<
    (fd: Int32, port: Int), SocketFailure
  > {
    switch address {
    case .unix(let path):
      guard var socketAddress = unixAddress(path) else {
        return .failure(
          SocketFailure("the socket path \(path) is longer than \(unixSocketPathLimit) bytes"))
      }
      var info = stat()
      if lstat(path, &info) == 0 {
        guard (info.st_mode & S_IFMT) == S_IFSOCK else {
          return .failure(SocketFailure("\(path) exists and is not a socket: choose another path"))
        }
        if case .success(let fd) = connectStream(to: address, timeoutMilliseconds: 200) {
          close(fd)
          return .failure(
            SocketFailure("another listener is on \(path): stop it, or choose another path"))
        }
        removeFile(path)
      }
      let fd = socket(AF_UNIX, LibC.closeOnExecStreamSocket, 0)
      guard fd >= 0 else { return .failure(SocketFailure("cannot make a socket", errno: errno)) }
      prepare(fd)
      let previous = umask(0o177)
      let bound = withUnsafeBytes(of: &socketAddress) { raw in
        bind(fd, raw.baseAddress?.assumingMemoryBound(to: sockaddr.self), socklen_t(raw.count))
      }
      umask(previous)
      guard bound == 0, listen(fd, 64) == 0 else {
        let failure = SocketFailure("cannot listen on \(path)", errno: errno)
        close(fd)
        return .failure(failure)
      }
      return .success((fd, 0))
    case .tcp(let host, let port):
      guard (0...65_535).contains(port) else {
        return .failure(SocketFailure("port \(port) is not a TCP port: use 1 to 65535 (0 for any)"))
      }
      return resolve(host: host, port: port, passive: true).flatMap { candidates in
        var last = SocketFailure("\(host) has no address")
        for candidate in candidates {
          let fd = socket(candidate.family, LibC.closeOnExecStreamSocket, 0)
          guard fd >= 0 else {
            last = SocketFailure("cannot make a socket", errno: errno)
            continue
          }
          prepare(fd)
          var yes: Int32 = 1
          _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
          let bound = candidate.address.withUnsafeBytes { raw in
            bind(fd, raw.baseAddress?.assumingMemoryBound(to: sockaddr.self), socklen_t(raw.count))
          }
          guard bound == 0, listen(fd, 64) == 0 else {
            last = SocketFailure("cannot listen on \(host):\(port)", errno: errno)
            close(fd)
            continue
          }
          return .success((fd, boundPort(fd) ?? port))
        }
        return .failure(last)
      }
    }
  }

  /// Accepts the next connection on a listening socket, retrying `EINTR`; the new socket is
  /// close-on-exec and never raises `SIGPIPE`. Returns the descriptor, or `-errno`.
  package static func acceptConnection(_ fd: Int32) -> Int32 {
    while true {
      let client = accept(fd, nil, nil)
      if client >= 0 {
        prepare(client)
        return client
      }
      if errno != EINTR { return -errno }
    }
  }

  /// Waits until `fd` can be read (or has hung up), at most `timeoutMilliseconds` (-1: no
  /// limit). Returns `true` when it can, `false` on the time limit.
  package static func waitReadable(_ fd: Int32, timeoutMilliseconds: Int) -> Bool {
    poll(fd, events: Int16(POLLIN), timeoutMilliseconds: timeoutMilliseconds)
  }

  /// Waits until `fd` can be written, at most `timeoutMilliseconds`. Returns `true` when it can.
  package static func waitWritable(_ fd: Int32, timeoutMilliseconds: Int) -> Bool {
    poll(fd, events: Int16(POLLOUT), timeoutMilliseconds: timeoutMilliseconds)
  }

  /// Sends what it can of `bytes` without waiting (`MSG_DONTWAIT`), never raising `SIGPIPE`.
  /// Returns the count sent (0 when the socket's buffer is full), or `-errno` when the
  /// connection failed.
  package static func sendSome(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
    guard let base = bytes.baseAddress, !bytes.isEmpty else { return 0 }
    #if canImport(Darwin)
      let flags = Int32(MSG_DONTWAIT)
    #else
      let flags = Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)
    #endif
    while true {
      let n = send(fd, base, bytes.count, flags)
      if n >= 0 { return n }
      if errno == EINTR { continue }
      if errno == EAGAIN || errno == EWOULDBLOCK { return 0 }
      return -Int(errno)
    }
  }

  /// Shuts down both directions of a connected socket (a thread blocked reading it wakes).
  package static func shutdownSocket(_ fd: Int32) {
    #if canImport(Glibc)
      _ = shutdown(fd, Int32(SHUT_RDWR))
    #else
      _ = shutdown(fd, SHUT_RDWR)
    #endif
  }

  /// This machine's host name, for a live connection's greeting.
  package static var hostName: String {
    var buffer = [CChar](repeating: 0, count: 256)
    guard gethostname(&buffer, buffer.count - 1) == 0 else { return "" }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// The current process's id.
  package static var processID: Int32 { getpid() }

  // MARK: Helpers

  private static func poll(_ fd: Int32, events: Int16, timeoutMilliseconds: Int) -> Bool {
    var entry = pollfd(fd: fd, events: events, revents: 0)
    while true {
      let n = Foundation.poll(&entry, 1, Int32(clamping: timeoutMilliseconds))
      if n > 0 { return true }
      if n == 0 { return false }
      if errno != EINTR { return true }  // let the read or write that follows say what failed
    }
  }

  /// Close-on-exec (where the type could not say so) and no `SIGPIPE` (Apple platforms).
  private static func prepare(_ fd: Int32) {
    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    #if canImport(Darwin)
      var one: Int32 = 1
      _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
    #endif
  }

  private static func unixAddress(_ path: String) -> sockaddr_un? {
    let bytes = Array(path.utf8)
    guard !bytes.isEmpty, bytes.count <= unixSocketPathLimit else { return nil }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      for (index, byte) in bytes.enumerated() { raw[index] = byte }
    }
    return address
  }

  private struct Candidate {
    var family: Int32
    var address: [UInt8]
  }

  private static func resolve(host: String, port: Int, passive: Bool) -> Result<
    [Candidate], SocketFailure
  > {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    #if canImport(Glibc)
      hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    #else
      hints.ai_socktype = SOCK_STREAM
    #endif
    if passive { hints.ai_flags = AI_PASSIVE }
    var list: UnsafeMutablePointer<addrinfo>?
    let code = getaddrinfo(host, String(port), &hints, &list)
    guard code == 0, let first = list else {
      let reason = String(cString: gai_strerror(code))
      return .failure(SocketFailure("cannot resolve \(host): \(reason)"))
    }
    defer { freeaddrinfo(first) }
    var candidates: [Candidate] = []
    var next: UnsafeMutablePointer<addrinfo>? = first
    while let entry = next {
      if let address = entry.pointee.ai_addr {
        let bytes = UnsafeRawBufferPointer(start: address, count: Int(entry.pointee.ai_addrlen))
        candidates.append(Candidate(family: entry.pointee.ai_family, address: Array(bytes)))
      }
      next = entry.pointee.ai_next
    }
    return .success(candidates)
  }

  private static func connect(
    family: Int32, address: UnsafeRawBufferPointer, timeoutMilliseconds: Int, what: String
  ) -> Result<Int32, SocketFailure> {
    let fd = socket(family, LibC.closeOnExecStreamSocket, 0)
    guard fd >= 0 else { return .failure(SocketFailure("cannot make a socket", errno: errno)) }
    prepare(fd)
    let flags = fcntl(fd, F_GETFL, 0)
    _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
    let pointer = address.baseAddress?.assumingMemoryBound(to: sockaddr.self)
    var code: Int32 = 0
    if Foundation.connect(fd, pointer, socklen_t(address.count)) != 0 {
      code = errno
      if code == EINPROGRESS || code == EINTR {
        if waitWritable(fd, timeoutMilliseconds: timeoutMilliseconds) {
          var pending: Int32 = 0
          var length = socklen_t(MemoryLayout<Int32>.size)
          _ = getsockopt(fd, SOL_SOCKET, SO_ERROR, &pending, &length)
          code = pending
        } else {
          code = ETIMEDOUT
        }
      }
    }
    guard code == 0 else {
      close(fd)
      return .failure(SocketFailure("cannot connect to \(what)", errno: code))
    }
    _ = fcntl(fd, F_SETFL, flags)
    return .success(fd)
  }

  private static func boundPort(_ fd: Int32) -> Int? {
    var storage = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    let got = withUnsafeMutablePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    guard got == 0 else { return nil }
    let family = Int32(storage.ss_family)
    guard family == AF_INET || family == AF_INET6 else { return nil }
    // `sin_port` and `sin6_port` both follow the family, two bytes in.
    let port = withUnsafeBytes(of: storage) { $0.load(fromByteOffset: 2, as: UInt16.self) }
    return Int(UInt16(bigEndian: port))
  }
}

/// Why a socket could not be listened on or connected: what failed, with the system's reason.
package struct SocketFailure: Error, Sendable, CustomStringConvertible {
  /// What failed, and why.
  package var description: String
  /// The `errno`, when the system gave one.
  package var errno: Int32?

  /// A failure of `what`, with the system's reason for `errno` when there is one.
  package init(_ what: String, errno: Int32? = nil) {
    self.errno = errno
    description = errno.map { "\(what): \(Platform.describe(errno: $0))" } ?? what
  }
}
