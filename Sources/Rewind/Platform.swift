// Every difference between the platforms Rewind runs on lives in this file and its extensions:
// Platform+LibC.swift (the one shim of each C call whose spelling differs),
// Platform+FatalSignals.swift (handlers for the signals a crashing program dies of) and
// Platform+Apps.swift (an app's recordings folder and lifecycle notifications). What only `replay`
// needs — the terminal calls of `replay tui` and the line editor, and the memory `replay` shares
// with its crash-isolation worker — extends `Platform` in RewindReplayService
// (Sources/RewindReplayService/Platform/), outside the modules an app links.
import Foundation  // and through it the C library (Glibc, Musl or Darwin)

/// Thin wrappers over the C library calls whose names or semantics differ between Linux and
/// Apple platforms. Used by the recorder, the log reader and the command-line front end.
package enum Platform {
  /// The current `errno`.
  package static var errno: Int32 { LibC.errno }

  /// A readable description of an `errno` value, like `"No space left on device (ENOSPC)"`.
  package static func describe(errno code: Int32) -> String {
    let text = strerror(code).map { String(cString: $0) } ?? "error \(code)"
    return text
  }

  /// `EBADF`: the error of a call on a closed descriptor.
  package static let badDescriptor: Int32 = EBADF
  /// `ENOSPC`: no space left on the device.
  package static let noSpace: Int32 = ENOSPC
  /// `EIO`: an I/O error.
  package static let ioError: Int32 = EIO
  /// `EINVAL`: an invalid argument (from a sync: a file that cannot be synced, such as a pipe's).
  package static let invalidArgument: Int32 = EINVAL

  /// Flushes the file's data (not necessarily its metadata) to stable storage.
  ///
  /// Linux: `fdatasync(2)`. Apple platforms: `fcntl(F_FULLFSYNC)`, since `fsync` there does not
  /// ask the drive to flush its cache; falls back to `fsync` where that is unsupported.
  /// - Returns: 0 on success, or the `errno` of the failure.
  package static func dataSync(_ fd: Int32) -> Int32 {
    #if canImport(Darwin)
      if fcntl(fd, F_FULLFSYNC) == 0 { return 0 }
      return fsync(fd) == 0 ? 0 : errno
    #else
      return fdatasync(fd) == 0 ? 0 : errno
    #endif
  }

  /// Opens `path` for appending, creating it with mode 0600.
  ///
  /// - Parameter exclusive: fail with `EEXIST` when the file exists instead of truncating it.
  /// - Returns: The descriptor, or `-errno`.
  package static func openForAppend(_ path: String, exclusive: Bool) -> Int32 {
    var flags = O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC
    flags |= exclusive ? O_EXCL : O_TRUNC
    let fd = open(path, flags, mode_t(0o600))
    if fd < 0 { return -errno }
    // Tighten a replaced file's mode too, but never a device's (recording to /dev/null must
    // not change who may use it).
    var info = stat()
    if fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG {
      _ = fchmod(fd, mode_t(0o600))
    }
    return fd
  }

  /// Creates `path` for writing, failing with `EEXIST` when it exists; its mode is 0666 less
  /// the process's umask, as any new file a command writes.
  ///
  /// - Returns: The descriptor, or `-errno`.
  package static func createNewFile(_ path: String) -> Int32 {
    let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode_t(0o666))
    return fd < 0 ? -errno : fd
  }

  /// Writes all of `bytes` at the end of the file, completing short writes and retrying `EINTR`.
  ///
  /// - Returns: The number of bytes written and, when it is short, the `errno` that stopped it.
  @inline(__always)
  package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> (Int, Int32?) {
    guard let base = bytes.baseAddress else { return (0, nil) }
    var written = 0
    while written < bytes.count {
      let n = write(fd, base + written, bytes.count - written)
      if n > 0 {
        written += n
      } else if n < 0 && errno == EINTR {
        continue
      } else {
        return (written, n == 0 ? EIO : errno)
      }
    }
    return (written, nil)
  }

  /// Cuts the file back to `length` bytes. Returns 0 or the `errno` of the failure.
  package static func truncate(_ fd: Int32, to length: Int) -> Int32 {
    ftruncate(fd, off_t(length)) == 0 ? 0 : errno
  }

  /// The size of an open file in bytes, or `nil` when `fstat` fails.
  package static func fileSize(_ fd: Int32) -> Int? {
    var info = stat()
    guard fstat(fd, &info) == 0 else { return nil }
    return Int(info.st_size)
  }

  /// Closes a descriptor.
  package static func close(_ fd: Int32) {
    _ = LibC.close(fd)
  }

  /// A new descriptor for the same open file (`dup(2)` with close-on-exec), or -1.
  package static func duplicate(_ fd: Int32) -> Int32 {
    fcntl(fd, F_DUPFD_CLOEXEC, 0)
  }

  /// Renames a file; 0 or the `errno` of the failure.
  package static func rename(_ from: String, to: String) -> Int32 {
    LibC.rename(from, to) == 0 ? 0 : LibC.errno
  }

  /// The process's peak resident set size in bytes: `VmHWM` from `/proc/self/status` on Linux
  /// (`ru_maxrss` there is in KiB and misses nothing, but `VmHWM` is exact), `ru_maxrss` (bytes)
  /// on Apple platforms.
  package static func peakResidentBytes() -> Int {
    #if os(Linux)
      if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) {
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
          let digits = line.split(separator: " ").compactMap { Int($0) }
          if let kilobytes = digits.first { return kilobytes * 1024 }
        }
      }
    #endif
    var usage = rusage()
    getrusage(LibC.rusageSelf, &usage)
    #if canImport(Darwin)
      return Int(usage.ru_maxrss)
    #else
      return Int(usage.ru_maxrss) * 1024
    #endif
  }

  /// Removes a file, ignoring a missing one.
  package static func removeFile(_ path: String) {
    _ = unlink(path)
  }

  /// Nanoseconds on a monotonic clock (never goes backward; unrelated to wall time).
  /// `CLOCK_MONOTONIC` on both: on Linux it stops while the machine is suspended; on Apple
  /// platforms it keeps counting through sleep (clock_gettime(3) there), so a
  /// recording's `time` includes the time the device slept, as a person reading it expects.
  package static func monotonicNanoseconds() -> UInt64 {
    var ts = timespec()
    _ = clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
  }

  /// What kind of file a path names, its size, and an open read-only descriptor for it.
  package struct OpenedFile {
    /// The descriptor (close it with ``Platform/close(_:)``).
    package var fd: Int32
    /// The size in bytes (regular files).
    package var size: Int
    /// `"regular file"`, `"directory"`, `"character device"`, `"block device"`, `"FIFO"`,
    /// `"socket"` or `"unknown"`.
    package var kind: String
    /// Whether it is a regular file.
    package var isRegular: Bool { kind == "regular file" }
  }

  /// Opens `path` read-only and describes it. Returns the `errno` on failure.
  package static func openForReading(_ path: String) -> Result<OpenedFile, LogFileFailure> {
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else { return .failure(LogFileFailure(errno: errno)) }
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      let code = errno
      close(fd)
      return .failure(LogFileFailure(errno: code))
    }
    let kind: String
    switch info.st_mode & S_IFMT {
    case S_IFREG: kind = "regular file"
    case S_IFDIR: kind = "directory"
    case S_IFCHR: kind = "character device"
    case S_IFBLK: kind = "block device"
    case S_IFIFO: kind = "FIFO"
    case S_IFSOCK: kind = "socket"
    default: kind = "unknown"
    }
    return .success(OpenedFile(fd: fd, size: Int(info.st_size), kind: kind))
  }

  /// Memory from ``allocateLargeBuffer(_:)``, which knows how to free itself.
  ///
  /// Why `@unchecked Sendable` is sound: it is a pointer and a flag, both immutable; what the
  /// memory holds is its owner's to synchronise (a log's bytes are written before they are shared,
  /// and only read afterwards).
  package struct LargeBuffer: @unchecked Sendable {
    /// The memory, `size` bytes (at least one), aligned to 16 bytes.
    package let bytes: UnsafeMutableRawBufferPointer
    fileprivate let isMapped: Bool

    fileprivate init(bytes: UnsafeMutableRawBufferPointer, isMapped: Bool) {
      (self.bytes, self.isMapped) = (bytes, isMapped)
    }

    /// Frees the memory; the buffer must not be used afterwards.
    package func free() {
      #if os(Linux)
        if isMapped, let base = bytes.baseAddress {
          _ = munmap(base, bytes.count)
          return
        }
      #endif
      bytes.deallocate()
    }
  }

  /// Allocates `size` bytes for a large buffer that is written once and read many times (a log
  /// read into memory). On Linux, from 4 MiB up, the memory is mapped, so that
  /// ``populateLargeBuffer(_:_:)`` can commit it a piece at a time (elsewhere, or when mapping
  /// fails, it comes from the allocator).
  package static func allocateLargeBuffer(_ size: Int) -> LargeBuffer {
    #if os(Linux)
      if size >= largeBufferThreshold {
        let pointer = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        if let pointer, pointer != MAP_FAILED {
          return LargeBuffer(
            bytes: UnsafeMutableRawBufferPointer(start: pointer, count: size), isMapped: true)
        }
      }
    #endif
    return LargeBuffer(
      bytes: .allocate(byteCount: max(1, size), alignment: 16), isMapped: false)
  }

  /// Commits `buffer.bytes[range]` before it is written, `range.lowerBound` a multiple of
  /// ``largeBufferPiece``. On Linux a mapped buffer's pages there are replaced by fresh ones,
  /// allocated and zeroed in one call (`MAP_FIXED | MAP_POPULATE`): about half the cost of taking
  /// a page fault for each 4 KiB page as the bytes are first written, which is most of the cost
  /// of reading a file that is in the page cache. Elsewhere there is nothing to do.
  /// - Returns: `false` when the memory could not be committed (`ENOMEM`): the range may then
  ///   not be mapped at all, and must not be touched.
  package static func populateLargeBuffer(_ buffer: LargeBuffer, _ range: Range<Int>) -> Bool {
    #if os(Linux)
      guard buffer.isMapped, let base = buffer.bytes.baseAddress, !range.isEmpty else {
        return true
      }
      let pointer = mmap(
        base + range.lowerBound, range.count, PROT_READ | PROT_WRITE,
        MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_POPULATE, -1, 0)
      return pointer != MAP_FAILED
    #else
      return true
    #endif
  }

  /// The alignment of the ranges ``populateLargeBuffer(_:_:)`` commits (a multiple of the page
  /// size on every system Rewind runs on).
  package static let largeBufferPiece = 64 << 10

  private static let largeBufferThreshold = 4 << 20

  /// Reads up to `buffer.count` bytes at `offset`, retrying `EINTR`. Returns the count read
  /// (0 at the end of the file) or `-errno`.
  package static func read(
    _ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int
  ) -> Int {
    guard let base = buffer.baseAddress else { return 0 }
    while true {
      let n = pread(fd, base, buffer.count, off_t(offset))
      if n >= 0 { return n }
      if errno != EINTR { return -Int(errno) }
    }
  }

  /// Reads up to `buffer.count` bytes from a pipe or a descriptor's current position, retrying
  /// `EINTR`. Returns the count read (0 at the end) or `-errno`.
  package static func readSome(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
    guard let base = buffer.baseAddress else { return 0 }
    while true {
      let n = LibC.read(fd, base, buffer.count)
      if n >= 0 { return n }
      if errno != EINTR { return -Int(errno) }
    }
  }

  /// A connected pair of Unix stream sockets, both close-on-exec, whose writes never raise
  /// `SIGPIPE` (use ``sendAll(_:_:)``): the requests to a child process that may die at any
  /// moment. `nil` with `errno` set when it cannot be made.
  package static func socketPair() -> (Int32, Int32)? {
    var descriptors: [Int32] = [-1, -1]
    guard socketpair(AF_UNIX, LibC.closeOnExecStreamSocket, 0, &descriptors) == 0 else {
      return nil
    }
    for fd in descriptors {
      _ = fcntl(fd, F_SETFD, FD_CLOEXEC)  // where the type could not say so
      #if canImport(Darwin)
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
      #endif
    }
    return (descriptors[0], descriptors[1])
  }

  /// Sends all of `bytes` on a socket of ``socketPair()``, completing short writes and retrying
  /// `EINTR`, without `SIGPIPE` when the other end is gone. Returns `nil`, or the `errno` that
  /// stopped it (`EPIPE` for a closed peer).
  package static func sendAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
    guard let base = bytes.baseAddress else { return nil }
    #if canImport(Darwin)
      let flags: Int32 = 0
    #else
      let flags = Int32(MSG_NOSIGNAL)
    #endif
    var sent = 0
    while sent < bytes.count {
      let n = send(fd, base + sent, bytes.count - sent, flags)
      if n > 0 {
        sent += n
      } else if n < 0 && errno == EINTR {
        continue
      } else {
        return n == 0 ? EIO : errno
      }
    }
    return nil
  }

  /// The offset of the first `byte` in `buffer[from...]`, or `nil` (`memchr`).
  package static func firstIndex(
    of byte: UInt8, in buffer: UnsafeRawBufferPointer, from start: Int
  ) -> Int? {
    guard let base = buffer.baseAddress, start < buffer.count else { return nil }
    guard let found = memchr(base + start, Int32(byte), buffer.count - start) else { return nil }
    return UnsafeRawPointer(found) - base
  }

  /// The device, inode and size of the file at `path` (following links), or `nil` when it
  /// cannot be examined (it does not exist yet, for example).
  package static func fileIdentity(_ path: String) -> (device: UInt64, inode: UInt64, size: Int)? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return (UInt64(info.st_dev), UInt64(info.st_ino), Int(info.st_size))
  }

  /// The same for an open descriptor: the file it reads, whatever its name is now.
  package static func fileIdentity(fd: Int32) -> (device: UInt64, inode: UInt64, size: Int)? {
    var info = stat()
    guard fstat(fd, &info) == 0 else { return nil }
    return (UInt64(info.st_dev), UInt64(info.st_ino), Int(info.st_size))
  }

  /// Sleeps for `milliseconds`.
  package static func sleep(milliseconds: Int) {
    _ = usleep(useconds_t(max(0, milliseconds) * 1000))
  }

  /// `ENOENT`.
  package static let noSuchFile: Int32 = ENOENT
  /// `EACCES`.
  package static let permissionDenied: Int32 = EACCES

  /// Ends process `pid` at once (`SIGKILL`: it cannot be caught, and ends a stopped process
  /// too). Returns 0 or the `errno`.
  @discardableResult
  package static func killProcess(_ pid: Int32) -> Int32 {
    kill(pid, SIGKILL) == 0 ? 0 : errno
  }

  /// `SIGILL`, `SIGSEGV`, … for a signal number (`signal 42` for others).
  package static func signalName(_ number: Int32) -> String {
    switch number {
    case SIGILL: return "SIGILL"
    case SIGTRAP: return "SIGTRAP"
    case SIGABRT: return "SIGABRT"
    case SIGSEGV: return "SIGSEGV"
    case SIGBUS: return "SIGBUS"
    case SIGFPE: return "SIGFPE"
    case SIGKILL: return "SIGKILL"
    case SIGTERM: return "SIGTERM"
    case SIGINT: return "SIGINT"
    default: return "signal \(number)"
    }
  }

  /// Writes raw bytes to a descriptor, once, ignoring errors. Async-signal-safe.
  package static func writeRaw(_ fd: Int32, _ pointer: UnsafePointer<UInt8>, _ count: Int) {
    _ = write(fd, pointer, count)
  }

  /// Whether the descriptor is a terminal.
  package static func isTerminal(_ fd: Int32) -> Bool {
    isatty(fd) == 1
  }
}
