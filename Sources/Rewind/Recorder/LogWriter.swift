import RewindJSON

/// Writes whole lines to a log file and keeps the file free of partial lines.
///
/// The writer remembers the length of the file after its last whole line (`committedLength`).
/// When a write fails or comes up short, it cuts the file back to that length, so the file never
/// holds a partial line followed by another line; then it stops (every later call is a no-op).
/// Not thread-safe: the ``Recorder`` serialises calls.
package final class LogWriter {
  let path: String
  private let fileSystem: any LogFileSystem
  private(set) var handle: (any LogFileHandle)?
  /// ``handle``'s descriptor when it is the real file (-1 otherwise, and once closed): every
  /// action's `write(2)` is made on it directly, with no protocol witness and no reference to
  /// count. ``handle`` owns it.
  private var descriptor: Int32 = -1
  private(set) var committedLength = 0
  /// The seq of the last action line in the file (not in the buffer).
  private(set) var committedSeq = 0
  private var bufferedSeq = 0
  /// Lines not yet written (``Durability/buffered(capacity:)`` only).
  private let buffer = ByteBuffer()
  private let bufferCapacity: Int?
  private let syncEveryLine: Bool
  /// The CPU's CRC-32C instruction, read once (see ``writeAction(seq:micros:type:origin:action:)``).
  private let checksumHardware = CRC32C.Hardware.available
  /// Where every line written to the file is copied for a live viewer (the current file's
  /// writer only: a file being retired after a rotation streams nothing more).
  var live: LiveSink?

  /// Opens (creates) the file.
  init(
    path: String, fileSystem: any LogFileSystem, exclusive: Bool, durability: Durability,
    committedSeq: Int = 0
  ) throws(LogFileFailure) {
    self.path = path
    self.committedSeq = committedSeq
    self.bufferedSeq = committedSeq
    self.fileSystem = fileSystem
    switch durability {
    case .buffered(let capacity): bufferCapacity = max(1, capacity)
    default: bufferCapacity = nil
    }
    syncEveryLine = durability == .everyAction
    switch fileSystem.open(path, exclusive: exclusive) {
    case .success(let handle):
      self.handle = handle
      descriptor = (handle as? POSIXLogFile)?.descriptor ?? -1
    case .failure(let failure): throw failure
    }
  }

  /// The file's descriptor when it is a real file, else -1 (for ``FatalSignalRecord``).
  var fileDescriptor: Int32 { descriptor }

  /// Whether bytes were written to the file since the last ``sync()`` or
  /// ``takeUnsyncedBytes()``: whatever the line (an action, a checkpoint, a header).
  private(set) var hasUnsyncedBytes = false

  /// Whether bytes were written since the last sync; the next call says `false` until more are
  /// (the caller syncs a duplicate of ``handle`` elsewhere).
  func takeUnsyncedBytes() -> Bool {
    defer { hasUnsyncedBytes = false }
    return hasUnsyncedBytes
  }

  /// Bytes in the file plus bytes waiting in the buffer.
  var length: Int { committedLength + buffer.count }

  /// Whether there are lines in the user-space buffer.
  var hasBufferedLines: Bool { !buffer.isEmpty }

  /// Appends whole lines (each ending with `\n`). In buffered mode they may stay in memory until
  /// the buffer fills; otherwise they are written now (and synced for `.everyAction`).
  /// - Throws: The `errno` of a failed write or sync, after the file was cut back.
  /// - Parameter seq: The seq of the last action these lines cover (for error reports).
  func append(_ lines: UnsafeRawBufferPointer, seq: Int) throws(RecorderError.Reason) {
    guard handle != nil else { return }
    buffer.append(lines)
    try commitLine(seq: seq)
  }

  /// Takes the lines at the end of the buffer (appended there by ``append(_:seq:)`` or
  /// ``writeAction(seq:micros:type:origin:action:)``) as appended: written now (and synced for
  /// `.everyAction`), or in buffered mode kept until the buffer fills.
  /// - Throws: The `errno` of a failed write or sync, after the file was cut back.
  @inline(__always)
  func commitLine(seq: Int) throws(RecorderError.Reason) {
    guard handle != nil else {
      buffer.removeAll()
      return
    }
    bufferedSeq = seq
    if let capacity = bufferCapacity {
      if buffer.count >= capacity { try flush() }
      return
    }
    try flush()
    if syncEveryLine { try sync() }
  }

  /// Appends the line of an action (``LogLine/appendAction(seq:micros:type:origin:action:to:)``) and
  /// takes it as appended (``commitLine(seq:)``): the recorder's path for every action.
  @inline(__always)
  func writeAction(
    seq: Int, micros: UInt64, type: UnsafeRawBufferPointer, origin: UnsafeRawBufferPointer,
    action: UnsafeRawBufferPointer
  ) throws(RecorderError.Reason) {
    LogLine.appendAction(
      seq: UInt64(seq), micros: micros, type: type, origin: origin, action: action, to: buffer,
      hardware: checksumHardware)
    try commitLine(seq: seq)
  }

  /// Appends whole lines; see ``append(_:seq:)-(UnsafeRawBufferPointer,_)``.
  func append(_ lines: [UInt8], seq: Int) throws(RecorderError.Reason) {
    let result = lines.withUnsafeBytes { bytes in
      Result { () throws(RecorderError.Reason) in try append(bytes, seq: seq) }
    }
    try result.get()
  }

  /// Appends one whole line that the live viewer takes by reference
  /// (``LiveSink/enqueue(shared:lastSeq:)``): a part of a `state` record written in the
  /// background, under the recorder's lock. The lines buffered before it are written first, then
  /// it, straight from `line`: it is copied neither into the buffer nor into the sink's, so an
  /// action waiting for the lock waits for its `write(2)` only.
  /// - Throws: The `errno` of a failed write or sync, after the file was cut back.
  func appendShared(_ line: [UInt8], seq: Int) throws(RecorderError.Reason) {
    guard handle != nil else { return }
    try flush()
    bufferedSeq = seq
    let result = line.withUnsafeBytes { bytes in
      Result { () throws(RecorderError.Reason) in try writeNow(bytes, copiesToLive: false) }
    }
    try result.get()
    committedSeq = bufferedSeq
    if let live { live.enqueue(shared: line, lastSeq: seq) }
    if syncEveryLine { try sync() }
  }

  /// Writes buffered lines.
  @inline(__always)
  func flush() throws(RecorderError.Reason) {
    guard !buffer.isEmpty else { return }
    defer { buffer.removeAll() }
    try writeNow(buffer.bytes)
    committedSeq = bufferedSeq
  }

  /// `fdatasync` of the file.
  func sync() throws(RecorderError.Reason) {
    guard let handle else { return }
    hasUnsyncedBytes = false
    let code = handle.dataSync()
    if code != 0 {
      stop()
      throw .syncFailed(errno: code)
    }
  }

  /// Closes the file (without flushing: call ``flush()`` first).
  func close() {
    handle?.close()
    handle = nil
    descriptor = -1
  }

  /// Closes the file after an error; nothing is written any more.
  func stop() {
    buffer.removeAll()
    close()
  }

  /// Writes `bytes` (whole lines) to the file, and gives the live viewer a copy unless
  /// `copiesToLive` is off (the caller hands them over another way).
  @inline(__always)
  private func writeNow(
    _ bytes: UnsafeRawBufferPointer, copiesToLive: Bool = true
  ) throws(RecorderError.Reason) {
    let (written, code): (Int, Int32?)
    if descriptor >= 0 {
      (written, code) = Platform.writeAll(descriptor, bytes)
    } else if let handle {
      (written, code) = handle.write(bytes)
    } else {
      return
    }
    if let code {
      if written > 0 { _ = handle?.truncate(to: committedLength) }
      stop()
      throw .writeFailed(errno: code)
    }
    committedLength += written
    hasUnsyncedBytes = true
    if copiesToLive, let live { live.enqueue(bytes, lastSeq: bufferedSeq) }
  }
}

extension LogWriter {
  /// The name of the `index`-th rotated file: `session.jsonl` → `session.1.jsonl`.
  package static func rotatedPath(_ path: String, index: Int) -> String {
    let slash = path.lastIndex(of: "/")
    let nameStart = slash.map { path.index(after: $0) } ?? path.startIndex
    if let dot = path[nameStart...].lastIndex(of: "."), dot != nameStart {
      return "\(path[..<dot]).\(index)\(path[dot...])"
    }
    return "\(path).\(index)"
  }

  /// Shifts rotated files by one (`.1` → `.2`, …), drops the oldest beyond `keep` files in all,
  /// and moves the current file to `.1`. Only the files there are are touched: a rotation costs
  /// one look and one rename per kept file, whatever `keep` allows. The file dropped leaves its
  /// folder at once; freeing its storage is left to `release`, which the caller runs off the
  /// dispatching thread (``LogFileSystem/removeFreeingLater(_:)``).
  /// - Returns: 0 or the `errno` of the failed rename, and what frees the dropped file.
  static func shiftRotatedFiles(
    _ path: String, keep: Int, fileSystem: any LogFileSystem
  ) -> (code: Int32, release: (@Sendable () -> Void)?) {
    let oldest = keep - 1
    if oldest < 1 {
      return (0, fileSystem.removeFreeingLater(path))
    }
    var release: (@Sendable () -> Void)?
    // The rotated files are `.1` up to `.highest`, with no gap (each rotation shifts them all).
    var highest = 0
    while highest < oldest, fileSystem.exists(rotatedPath(path, index: highest + 1)) {
      highest += 1
    }
    if highest == oldest {
      release = fileSystem.removeFreeingLater(rotatedPath(path, index: oldest))
      highest -= 1
    }
    var index = highest
    while index >= 1 {
      _ = fileSystem.rename(
        rotatedPath(path, index: index), to: rotatedPath(path, index: index + 1))
      index -= 1
    }
    return (fileSystem.rename(path, to: rotatedPath(path, index: 1)), release)
  }
}
