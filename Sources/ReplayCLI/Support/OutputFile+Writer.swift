import Foundation
import Rewind
import RewindReplayService

extension OutputFile {
  /// Writes what `body` gives its writer to `path`, whole or not at all: the bytes go to a
  /// temporary file beside `path`, which is synced and renamed over `path` once `body` returns.
  /// What is written is never held whole in memory (an export can be as large as the states it
  /// holds); when `body` or a write throws, the temporary file is removed and `path` is as it
  /// was.
  ///
  /// - Parameters:
  ///   - inputs: The files the command reads; `path` must be none of them.
  ///   - replacesLogs: Whether an existing Rewind log at `path` may be replaced.
  /// - Throws: What ``check(_:inputs:replacesLogs:)`` refuses `path` for, what `body` throws,
  ///   or a diagnostic naming `path` when the file cannot be written.
  static func stream(
    to path: String, inputs: [String], replacesLogs: Bool,
    _ body: (inout Writer) throws(CommandFailure) -> Void
  ) throws(CommandFailure) {
    try check(path, inputs: inputs, replacesLogs: replacesLogs)
    let url = URL(fileURLWithPath: path)
    let temporary = url.deletingLastPathComponent().appendingPathComponent(
      ".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier)."
        + "\(UInt32.random(in: .min ... .max)).tmp"
    ).path
    let fd = Platform.createNewFile(temporary)
    guard fd >= 0 else { throw writeFailure(path, errno: -fd) }
    var writer = Writer(fd: fd, path: path)
    var closed = false
    defer {
      if !closed { Platform.close(fd) }
    }
    do throws(CommandFailure) {
      try body(&writer)
      try writer.flush()
      // A file system that cannot sync (EINVAL) still gets the file whole, by the rename.
      let synced = Platform.dataSync(fd)
      guard synced == 0 || synced == Platform.invalidArgument else {
        throw writeFailure(path, errno: synced)
      }
      closed = true
      guard LibC.close(fd) == 0 else { throw writeFailure(path, errno: LibC.errno) }
      let renamed = Platform.rename(temporary, to: path)
      guard renamed == 0 else { throw writeFailure(path, errno: renamed) }
    } catch {
      Platform.removeFile(temporary)
      throw error
    }
  }

  /// The diagnostic for a write to `path` that failed with `errno`.
  static func writeFailure(_ path: String, errno: Int32) -> CommandFailure {
    .diagnostic(
      .error(
        "cannot write \(inert(path)): \(Platform.describe(errno: errno))",
        hints: [Diagnostic.Hint("check that the folder is writable and the disk has room")]))
  }

  /// Where ``stream(to:inputs:replacesLogs:_:)`` sends the bytes of the file: small pieces are
  /// gathered into one buffer, large ones written as they are.
  struct Writer {
    private let fd: Int32
    private let path: String
    private var buffer: [UInt8] = []
    private static let bufferSize = 1 << 16

    fileprivate init(fd: Int32, path: String) {
      self.fd = fd
      self.path = path
      buffer.reserveCapacity(Self.bufferSize)
    }

    /// Appends `bytes` to the file.
    mutating func write(_ bytes: UnsafeRawBufferPointer) throws(CommandFailure) {
      if buffer.count + bytes.count <= Self.bufferSize {
        buffer.append(contentsOf: bytes)
        return
      }
      try flush()
      if bytes.count < Self.bufferSize {
        buffer.append(contentsOf: bytes)
      } else {
        try writeThrough(bytes)
      }
    }

    /// Appends `bytes` to the file.
    mutating func write(_ bytes: some ContiguousBytes) throws(CommandFailure) {
      // `withUnsafeBytes` rethrows untyped: the failure comes out through a `Result`.
      let result = bytes.withUnsafeBytes { raw in
        Result { () throws(CommandFailure) in try write(raw) }
      }
      try result.get()
    }

    /// Writes what is gathered.
    fileprivate mutating func flush() throws(CommandFailure) {
      guard !buffer.isEmpty else { return }
      let (_, failure) = buffer.withUnsafeBytes { Platform.writeAll(fd, $0) }
      if let failure { throw OutputFile.writeFailure(path, errno: failure) }
      buffer.removeAll(keepingCapacity: true)
    }

    private func writeThrough(_ bytes: UnsafeRawBufferPointer) throws(CommandFailure) {
      let (_, failure) = Platform.writeAll(fd, bytes)
      if let failure { throw OutputFile.writeFailure(path, errno: failure) }
    }
  }
}
