import Rewind

/// The worker's requests, one line at a time — from its standard input (a socket), or, for a
/// session's worker, from the memory it shares with `replay` (``WorkerSharedMemory``) — with the
/// time between them put to use.
///
/// While no request waits, the worker does its idle work (``nextLine(idle:)``) a short piece at
/// a time, checking for a request between pieces; with nothing left to do it keeps checking for
/// a short while (``WorkerProcess/spinNanoseconds``) before it sleeps. A request that follows an answer closely
/// — a session stepping, `shrink` bisecting — is then read at once rather than after the
/// scheduler wakes the process, which costs more than the work of a step; one written to the
/// shared memory is read without a system call at all.
package struct WorkerInput {
  /// With shared memory, the socket is checked (a system call) once in this many checks of the
  /// shared request count: it carries only requests too long for the region and wake-ups.
  package static let socketCheckInterval = 8

  private let fd: Int32
  private let shared: SharedMemory?
  private var pending: [UInt8] = []
  private var chunk = [UInt8](repeating: 0, count: 1 << 16)
  private var isAtEnd = false
  /// The count of the last request read from the shared memory.
  private var sharedRequests = 0
  /// How long the worker checks for a request before it sleeps.
  private let spinNanoseconds: UInt64

  /// Where a request is waiting.
  private enum Source {
    case socket
    case sharedMemory
  }

  /// Reads requests from `fd`, and from `shared` when given.
  ///
  /// - Parameter waitsBusily: Whether to keep checking for a request for
  ///   ``WorkerProcess/spinNanoseconds`` before sleeping (a session's next step); a `triage`
  ///   worker, one of a worker per core, sleeps at once.
  package init(fd: Int32 = 0, shared: SharedMemory? = nil, waitsBusily: Bool = true) {
    self.fd = fd
    self.shared = shared
    spinNanoseconds = waitsBusily ? WorkerProcess.spinNanoseconds : 0
    shared?.store(1, at: WorkerSharedMemory.awake)
  }

  /// The next request line (without its line feed), or `nil` at the end of input (a partial
  /// last line is dropped: the parent always ends its requests). Empty lines on the socket (the
  /// parent waking a sleeping worker) are passed over.
  ///
  /// - Parameter idle: Called while no request waits; does one short piece of work and returns
  ///   whether there is more (it is not called again once it returned `false`).
  mutating func nextLine(idle: () -> Bool) -> [UInt8]? {
    var searched = 0
    var hasIdleWork = true
    while true {
      while let newline = pending.withUnsafeBytes({
        Platform.firstIndex(of: UInt8(ascii: "\n"), in: $0, from: searched)
      }) {
        let line = Array(pending[..<newline])
        pending.removeSubrange(...newline)
        searched = 0
        if !line.isEmpty { return line }
      }
      searched = pending.count
      if let line = takeSharedRequest() { return line }
      if isAtEnd { return nil }
      switch waitForRequest(hasIdleWork: &hasIdleWork, idle: idle) {
      case .sharedMemory:
        continue
      case .socket:
        let count = chunk.withUnsafeMutableBytes { Platform.readSome(fd, into: $0) }
        if count <= 0 {
          isAtEnd = true
        } else {
          pending.append(contentsOf: chunk[..<count])
        }
      }
    }
  }

  /// The request `replay` wrote to the shared memory since the last one read, if any.
  private mutating func takeSharedRequest() -> [UInt8]? {
    guard let shared else { return nil }
    let count = shared.load(at: WorkerSharedMemory.requestSeq)
    guard count != sharedRequests else { return nil }
    sharedRequests = count
    let length = min(
      max(0, shared.load(at: WorkerSharedMemory.requestLength)), shared.bytes.count)
    var line = Array(UnsafeRawBufferPointer(rebasing: shared.bytes[..<length]))
    if line.last == UInt8(ascii: "\n") { line.removeLast() }
    return line
  }

  private func hasSharedRequest() -> Bool {
    guard let shared else { return false }
    return shared.load(at: WorkerSharedMemory.requestSeq) != sharedRequests
  }

  /// Returns once a request waits: doing `idle`'s work meanwhile, then checking for a while,
  /// then sleeping until the socket can be read (a request, a wake-up, or its end).
  private func waitForRequest(hasIdleWork: inout Bool, idle: () -> Bool) -> Source {
    var spinStart = Platform.monotonicNanoseconds()
    var checks = 0
    while true {
      if hasSharedRequest() { return .sharedMemory }
      checks += 1
      if shared == nil || checks % Self.socketCheckInterval == 0,
        isReadable(timeoutMilliseconds: 0)
      {
        return .socket
      }
      if hasIdleWork {
        hasIdleWork = idle()
        spinStart = Platform.monotonicNanoseconds()
      } else if Platform.monotonicNanoseconds() - spinStart > spinNanoseconds {
        return sleepUntilRequest()
      }
    }
  }

  /// Sleeps until a request waits. Says so in the shared memory first, then looks once more
  /// (see ``WorkerSharedMemory``); a wait that ends with nothing to read (a signal) sleeps again
  /// the same way, so that `replay` always knows whether to wake it.
  private func sleepUntilRequest() -> Source {
    while true {
      if let shared {
        shared.store(0, at: WorkerSharedMemory.awake)
        shared.fence()
        if hasSharedRequest() {
          shared.store(1, at: WorkerSharedMemory.awake)
          return .sharedMemory
        }
      }
      let isReadable = isReadable(timeoutMilliseconds: -1)
      shared?.store(1, at: WorkerSharedMemory.awake)
      if hasSharedRequest() { return .sharedMemory }
      if isReadable { return .socket }
    }
  }

  private func isReadable(timeoutMilliseconds: Int32) -> Bool {
    Platform.waitForInput([fd], timeoutMilliseconds: timeoutMilliseconds).first == true
  }
}
