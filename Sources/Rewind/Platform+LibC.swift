// The one place where the C library's own module is named: each call whose name Swift code
// shadows (`read`, `write`, `close`, `rename`, `signal`) or whose global differs (`errno`,
// `SOCK_STREAM`, `RUSAGE_SELF`) has one shim here, and the rest of the platform layer — Platform.swift,
// Platform+Terminal.swift, Platform+FatalSignals.swift and the benchmark harness — calls it. The
// other C calls, spelled the same everywhere, those files reach through Foundation, which exports
// the platform's C library.
#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Musl)
  @preconcurrency import Musl
#elseif canImport(Darwin)
  import Darwin
#else
  #error("Rewind supports Linux (Glibc or Musl) and Apple platforms (Darwin).")
#endif

/// The C library calls whose spelling differs by platform, each with one shim.
package enum LibC {
  /// `errno`.
  package static var errno: Int32 {
    get {
      #if canImport(Glibc)
        return Glibc.errno
      #elseif canImport(Musl)
        return Musl.errno
      #else
        return Darwin.errno
      #endif
    }
    set {
      #if canImport(Glibc)
        Glibc.errno = newValue
      #elseif canImport(Musl)
        Musl.errno = newValue
      #else
        Darwin.errno = newValue
      #endif
    }
  }

  /// `read(2)`.
  @inline(__always)
  package static func read(_ fd: Int32, _ base: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
      return Glibc.read(fd, base, count)
    #elseif canImport(Musl)
      return Musl.read(fd, base, count)
    #else
      return Darwin.read(fd, base, count)
    #endif
  }

  /// `write(2)`.
  @inline(__always)
  package static func write(_ fd: Int32, _ base: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
      return Glibc.write(fd, base, count)
    #elseif canImport(Musl)
      return Musl.write(fd, base, count)
    #else
      return Darwin.write(fd, base, count)
    #endif
  }

  /// `close(2)`.
  package static func close(_ fd: Int32) -> Int32 {
    #if canImport(Glibc)
      return Glibc.close(fd)
    #elseif canImport(Musl)
      return Musl.close(fd)
    #else
      return Darwin.close(fd)
    #endif
  }

  /// `rename(2)`.
  package static func rename(_ from: String, _ to: String) -> Int32 {
    #if canImport(Glibc)
      return Glibc.rename(from, to)
    #elseif canImport(Musl)
      return Musl.rename(from, to)
    #else
      return Darwin.rename(from, to)
    #endif
  }

  /// `signal(2)` with `handler`, or the default action (`SIG_DFL`) for `nil`. Async-signal-safe.
  package static func signal(_ number: Int32, _ handler: (@convention(c) (Int32) -> Void)?) {
    #if canImport(Glibc)
      _ = Glibc.signal(number, handler ?? SIG_DFL)
    #elseif canImport(Musl)
      _ = Musl.signal(number, handler ?? SIG_DFL)
    #else
      _ = Darwin.signal(number, handler ?? SIG_DFL)
    #endif
  }

  /// `RUSAGE_SELF`, as `getrusage(2)` takes it.
  package static var rusageSelf: Int32 {
    #if canImport(Glibc)
      return RUSAGE_SELF.rawValue
    #else
      return RUSAGE_SELF
    #endif
  }

  /// `SOCK_STREAM`, as `socket(2)` takes it, close-on-exec from its creation where the type
  /// can say so (`SOCK_CLOEXEC`, Linux): a process another thread spawns meanwhile cannot
  /// inherit it. Apple platforms have no such flag; the caller sets `FD_CLOEXEC` after.
  package static var closeOnExecStreamSocket: Int32 {
    #if canImport(Glibc)
      return Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue)
    #elseif canImport(Musl)
      return SOCK_STREAM | SOCK_CLOEXEC
    #else
      return SOCK_STREAM
    #endif
  }
}
