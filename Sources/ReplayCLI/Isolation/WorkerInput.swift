import Rewind

/// The worker's requests, one line at a time from its standard input, with the time between
/// them put to use.
///
/// While no request waits, the worker does its idle work (``nextLine(idle:)``) a short piece at
/// a time, checking for a request between pieces; with nothing left to do it keeps checking for
/// a short while (``spinNanoseconds``) before it sleeps. A request that follows an answer closely
/// — a session stepping, `shrink` bisecting — is then read at once rather than after the
/// scheduler wakes the process, which costs more than the work of a step.
struct WorkerInput {
  /// How long the worker keeps checking for the next request before it sleeps.
  static let spinNanoseconds: UInt64 = 250_000

  private let fd: Int32
  private var pending: [UInt8] = []
  private var chunk = [UInt8](repeating: 0, count: 1 << 16)
  private var isAtEnd = false

  init(fd: Int32 = 0) {
    self.fd = fd
  }

  /// The next request line (without its line feed), or `nil` at the end of input (a partial
  /// last line is dropped: the parent always ends its requests).
  ///
  /// - Parameter idle: Called while no request waits; does one short piece of work and returns
  ///   whether there is more (it is not called again once it returned `false`).
  mutating func nextLine(idle: () -> Bool) -> [UInt8]? {
    var searched = 0
    var hasIdleWork = true
    while true {
      let newline = pending.withUnsafeBytes {
        Platform.firstIndex(of: UInt8(ascii: "\n"), in: $0, from: searched)
      }
      if let newline {
        let line = Array(pending[..<newline])
        pending.removeSubrange(...newline)
        return line
      }
      searched = pending.count
      if isAtEnd { return nil }
      hasIdleWork = waitForInput(hasIdleWork: hasIdleWork, idle: idle)
      let count = chunk.withUnsafeMutableBytes { Platform.readSome(fd, into: $0) }
      if count <= 0 {
        isAtEnd = true
      } else {
        pending.append(contentsOf: chunk[..<count])
      }
    }
  }

  /// Returns once the input can be read: doing `idle`'s work meanwhile, then checking for a
  /// while, then sleeping. Returns whether `idle` has more work.
  private func waitForInput(hasIdleWork: Bool, idle: () -> Bool) -> Bool {
    var hasIdleWork = hasIdleWork
    var spinStart = Platform.monotonicNanoseconds()
    while !isReadable(timeoutMilliseconds: 0) {
      if hasIdleWork {
        hasIdleWork = idle()
        spinStart = Platform.monotonicNanoseconds()
      } else if Platform.monotonicNanoseconds() - spinStart > Self.spinNanoseconds {
        _ = isReadable(timeoutMilliseconds: -1)
        break
      }
    }
    return hasIdleWork
  }

  private func isReadable(timeoutMilliseconds: Int32) -> Bool {
    Platform.waitForInput([fd], timeoutMilliseconds: timeoutMilliseconds).first == true
  }
}
