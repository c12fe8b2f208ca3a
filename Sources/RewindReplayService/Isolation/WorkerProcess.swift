import Foundation
import Rewind
import RewindJSON
import RewindReplay

/// A child `replay __worker` process and the channels to talk to it: requests go over a socket
/// (a write to a worker that died never raises `SIGPIPE` in `replay`), replies come back on a
/// pipe, and its standard error is kept for the crash report.
package final class WorkerProcess {
  /// The replay binary to run as the worker instead of the running executable (tests run
  /// in-process inside the test runner, which cannot be a worker).
  package static let executableOverride = Locked<URL?>(nil)

  /// The Swift backtracer's settings in a worker whose crash report wants the reducer's frames:
  /// a JSON report of the crashed thread on stderr, no questions asked.
  package static let backtraceSettings =
    "enable=yes,interactive=no,format=json,output-to=stderr,color=no,threads=crashed,"
    + "registers=none,images=none,limit=128,top=32"

  package enum Outcome {
    /// The reply line, without its line feed.
    case reply(ArraySlice<UInt8>)
    /// The child died; how, and what it wrote on stderr.
    case died(signal: String, stderr: String)
    /// A session's worker did not take the request: it has been rebuilding the state at
    /// `position` ahead for longer than ``stuckNanoseconds`` (a reducer that hangs there). It
    /// has been ended.
    case stuckAhead(position: Int)
  }

  private let process = Process()
  /// This side of the request socket.
  private let requests: Int32
  private let replies = Pipe()
  private let errors = Pipe()
  /// Reply bytes read but not yet returned.
  private var pending: [UInt8] = []
  /// How long ``receive(progress:)`` checks for a reply before it sleeps.
  private let replySpinNanoseconds: UInt64
  /// Whether the child was started (a worker whose start failed has nothing to end or reap).
  private var isLaunched = false
  /// Where reads land before they are appended to ``pending``: as large as the pipe.
  private var chunk = [UInt8](repeating: 0, count: WorkerProcess.replyPipeBytes)
  /// What the child writes on stderr, read as it comes by a thread of its own (a crash report
  /// larger than the pipe holds must not block the dying child), and whether that thread is done.
  private let standardError = Locked<(bytes: [UInt8], isComplete: Bool)>(([], false))
  private let standardErrorDone = DispatchSemaphore(value: 0)
  /// The memory shared with a session's worker (``WorkerSharedMemory``), or `nil`.
  private let shared: SharedMemory?
  /// How many requests went through ``shared``.
  private var sharedRequests = 0

  /// Starts `replay __worker LOG RECOVERY` (the running executable itself, through
  /// `posix_spawn` by Foundation's `Process`; no `fork` of this multithreaded process) for a
  /// timeline.
  ///
  /// - Parameters:
  ///   - usesCheckpoints: Whether the worker's timeline starts from recorded checkpoints.
  ///   - reportsFrames: Whether the Swift backtracer runs when the worker crashes.
  ///   - expected: The length and CRC-32C of the bytes the parent read: the worker refuses a
  ///     file that no longer starts with them.
  ///   - linesChecked: Whether the parent's open found no fault in those bytes: the worker then
  ///     need not check each line's JSON again (``WorkerMode/linesChecked``).
  ///   - runsAhead: Whether the worker rebuilds states ahead of the last one asked for while it
  ///     waits (a session), telling this process how far it got (``frontier``).
  package convenience init(
    log: String, recovery: RecoveryMode, usesCheckpoints: Bool, reportsFrames: Bool,
    expected: (length: Int, checksum: UInt32), linesChecked: Bool = false,
    runsAhead: Bool = false
  ) throws {
    var memory: SharedMemory?
    if runsAhead {
      switch WorkerSharedMemory.create() {
      case .success(let created): memory = created
      case .failure(let failure):
        throw WorkerError(
          "cannot make the file it shares with replay: \(Platform.describe(errno: failure.errno))")
      }
    }
    try self.init(
      arguments: [WorkerMode.command, log, recovery.rawValue]
        + (usesCheckpoints ? [] : [WorkerMode.noCheckpoints])
        + [WorkerMode.expect, "\(expected.length):\(String(expected.checksum, radix: 16))"]
        + (linesChecked ? [WorkerMode.linesChecked] : [])
        + (memory.map { [WorkerMode.ahead, $0.path] } ?? []),
      reportsFrames: reportsFrames, shared: memory)
  }

  /// Starts the running executable with `arguments` (`__worker …`, `__follow …` or `__triage …`).
  ///
  /// - Parameter waitsBusily: Whether ``receive(progress:)`` keeps checking for the
  ///   reply for ``spinNanoseconds`` before it sleeps, as a session's step wants. `triage` says
  ///   no: its workers keep every core busy, a log takes milliseconds, and the check would take
  ///   the time from the workers.
  package init(
    arguments: [String], reportsFrames: Bool, shared: SharedMemory? = nil,
    waitsBusily: Bool = true
  ) throws {
    self.shared = shared
    replySpinNanoseconds = waitsBusily ? Self.spinNanoseconds : 0
    guard let executable = Self.executableOverride.withLock({ $0 }) ?? Bundle.main.executableURL
    else {
      shared?.removeFile()
      throw WorkerError("the path of the running executable is unknown")
    }
    guard let (parent, child) = Platform.socketPair() else {
      shared?.removeFile()
      throw WorkerError("cannot make a socket pair: \(Platform.describe(errno: Platform.errno))")
    }
    requests = parent
    let childEnd = FileHandle(fileDescriptor: child, closeOnDealloc: true)
    #if os(Linux)
      // A batch of states is megabytes: through a pipe this large it takes a few writes, not
      // one per 64 KiB (the default), each a wake-up of both processes. Where Linux refuses,
      // the default stays.
      _ = fcntl(
        replies.fileHandleForReading.fileDescriptor, Self.setPipeSize, Int32(Self.replyPipeBytes))
    #endif
    process.executableURL = executable
    process.arguments = arguments
    process.standardInput = childEnd
    process.standardOutput = replies
    process.standardError = errors
    var environment = ProcessInfo.processInfo.environment
    environment["SWIFT_BACKTRACE"] = reportsFrames ? Self.backtraceSettings : "enable=no"
    process.environment = environment
    do {
      try process.run()
    } catch {
      try? childEnd.close()
      shared?.removeFile()
      throw error
    }
    isLaunched = true
    try? childEnd.close()
    // The reader's own descriptor, closed by it: it may outlive this object (``reap()`` stops
    // waiting for it), and must never read a descriptor number reused by then.
    let fd = Platform.duplicate(errors.fileHandleForReading.fileDescriptor)
    let sink = standardError
    let done = standardErrorDone
    Thread.detachNewThread {
      var buffer = [UInt8](repeating: 0, count: 1 << 14)
      while fd >= 0 {
        let count = buffer.withUnsafeMutableBytes { Platform.readSome(fd, into: $0) }
        if count <= 0 { break }
        sink.withLock { $0.bytes += buffer[..<count] }
      }
      if fd >= 0 { Platform.close(fd) }
      sink.withLock { $0.isComplete = true }
      done.signal()
    }
  }

  /// Ends the child (end of input, then SIGTERM in case it is stuck) and reaps it, so that no
  /// zombie, descriptor or `Process` outlives the session.
  deinit {
    shared?.removeFile()
    Platform.close(requests)
    if isLaunched {
      if process.isRunning { process.terminate() }
      reap()
    }
    closePipes()
  }

  /// Closes both ends of the reply and error pipes here, rather than when `Pipe`'s handles are
  /// freed: Foundation's `Process` keeps its pipes, and a `triage` of 10,000 logs with 1,000
  /// crashes was seen holding 2,000 of them open until `Process.run()` crashed on the number.
  private func closePipes() {
    for handle in [
      replies.fileHandleForReading, replies.fileHandleForWriting, errors.fileHandleForReading,
      errors.fileHandleForWriting,
    ] {
      try? handle.close()
    }
  }

  /// The size asked for the reply pipe: 1 MiB, the most Linux gives without privilege by default
  /// (`/proc/sys/fs/pipe-max-size`).
  static let replyPipeBytes = 1 << 20
  #if os(Linux)
    /// `F_SETPIPE_SZ`, which Glibc's module does not export.
    private static let setPipeSize: Int32 = 1031
  #endif

  /// How long the child has to exit after `SIGTERM` or after its replies ended, and then how
  /// long its standard error has to end, before this process stops waiting.
  package static let exitGraceMilliseconds = 2_000

  /// Waits for the child to exit, killing it (`SIGKILL`) when it has not within
  /// ``exitGraceMilliseconds`` (a reducer stuck where `SIGTERM` does not end it), then for its
  /// standard error to end, as long again at most (a process the app's code started may hold
  /// it open): a worker never hangs this process on its way out.
  private func reap() {
    var waited = 0
    while process.isRunning, waited < Self.exitGraceMilliseconds {
      Platform.sleep(milliseconds: 1)
      waited += 1
    }
    let pid = process.processIdentifier
    if process.isRunning { _ = Platform.killProcess(pid) }
    // Foundation's `Process` notices a child's exit on a thread of its own, and on a loaded
    // machine it was seen to miss one: the child left `<defunct>`, `isRunning` true for ever,
    // and `waitUntilExit()` never returning (a `replay` session hung on a worker's crash). So
    // wait a bounded time for it to notice, then reap the child here.
    waited = 0
    while process.isRunning, waited < Self.exitGraceMilliseconds {
      Platform.sleep(milliseconds: 1)
      waited += 1
    }
    if process.isRunning { Self.reapUnnoticed(pid) }
    if !standardError.withLock({ $0.isComplete }) {
      _ = standardErrorDone.wait(timeout: .now() + .milliseconds(Self.exitGraceMilliseconds))
    }
  }

  /// Reaps `pid`, killed and not reaped by `Process`, waiting at most
  /// ``exitGraceMilliseconds`` for it to exit: no zombie outlives the session.
  private static func reapUnnoticed(_ pid: Int32) {
    var status: Int32 = 0
    for _ in 0..<exitGraceMilliseconds {
      let reaped = waitpid(pid, &status, WNOHANG)
      if reaped == pid || (reaped < 0 && errno != EINTR) { return }
      Platform.sleep(milliseconds: 1)
    }
  }

  /// Sends one request line (a ``WorkerRequest``'s or a ``FollowerRequest``'s, without its line
  /// feed) and waits for the reply line, or for the child's death; progress lines
  /// (``WorkerReply/progress(done:total:)``) on the way go to `progress`.
  package func exchange(
    _ request: [UInt8], progress: (@Sendable (_ done: Int, _ total: Int) -> Void)?
  ) -> Outcome {
    send(request) ?? receive(progress: progress)
  }

  /// When the last request went through the shared memory: when, until the worker took it.
  private var posted: UInt64?

  /// Sends one request line without waiting for its reply (``receive(progress:)`` reads it):
  /// `nil` once sent, or the child's death. A worker that rebuilds ahead (with shared memory)
  /// takes one request at a time: send the next only after its reply.
  package func send(_ request: [UInt8]) -> Outcome? {
    var line = request
    line.append(UInt8(ascii: "\n"))
    posted = nil
    if let shared, line.count <= shared.bytes.count {
      posted = Platform.monotonicNanoseconds()
      // Through the shared memory; a line feed on the socket only wakes a worker that sleeps.
      line.withUnsafeBytes { shared.bytes.copyMemory(from: $0) }
      shared.store(line.count, at: WorkerSharedMemory.requestLength)
      sharedRequests += 1
      shared.store(sharedRequests, at: WorkerSharedMemory.requestSeq)
      shared.fence()
      if shared.load(at: WorkerSharedMemory.awake) == 0,
        Self.wakeUp.withUnsafeBytes({ Platform.sendAll(requests, $0) }) != nil
      {
        return died()
      }
    } else if line.withUnsafeBytes({ Platform.sendAll(requests, $0) }) != nil {
      return died()
    }
    return nil
  }

  /// Waits for the reply line to the request sent last, or for the child's death; progress
  /// lines (``WorkerReply/progress(done:total:)``) on the way go to `progress`.
  package func receive(
    progress: (@Sendable (_ done: Int, _ total: Int) -> Void)?
  ) -> Outcome {
    let fd = replies.fileHandleForReading.fileDescriptor
    var searched = 0
    while true {
      let newline = pending.withUnsafeBytes {
        Platform.firstIndex(of: UInt8(ascii: "\n"), in: $0, from: searched)
      }
      if let newline {
        let reply = pending[..<newline]
        if reply.starts(with: WorkerReply.progressPrefix) {
          if case .progress(let done, let total) = try? WorkerReply(line: reply) {
            progress?(done, total)
          }
          pending.removeSubrange(...newline)
          searched = 0
          continue
        }
        // What follows the reply goes to a buffer of its own: the reply's buffer, as large as
        // the largest reply read, goes with the reply instead of staying for the next one.
        let result = Outcome.reply(reply)
        pending = Array(pending[(newline + 1)...])
        return result
      }
      searched = pending.count
      Self.waitBriefly(for: fd, nanoseconds: replySpinNanoseconds)
      if let since = posted, let shared {
        // Until the worker takes the request, it may be stuck in a step ahead.
        while Platform.waitForInput([fd], timeoutMilliseconds: 20).first != true {
          guard shared.load(at: WorkerSharedMemory.phase) == WorkerSharedMemory.runningAhead
          else { break }
          if Platform.monotonicNanoseconds() - since > Self.stuckNanoseconds.withLock({ $0 }) {
            let position = shared.load(at: WorkerSharedMemory.frontier) + 1
            Platform.killProcess(process.processIdentifier)
            return .stuckAhead(position: position)
          }
        }
        posted = nil
      }
      let count = chunk.withUnsafeMutableBytes { Platform.readSome(fd, into: $0) }
      if count <= 0 { return died() }
      pending.append(contentsOf: chunk[..<count])
      // The worker has mapped the shared memory before its first answer.
      shared?.removeFile()
    }
  }

  /// How long this process checks for the worker's answer, and the worker for the next request,
  /// before sleeping until it comes: most answers take less, and a process that slept takes
  /// longer to wake than a step takes. Not at all on a single core, where checking would take
  /// the time from the other process.
  package static let spinNanoseconds: UInt64 =
    ProcessInfo.processInfo.activeProcessorCount > 1 ? 250_000 : 0

  /// Returns once `fd` can be read or `nanoseconds` have passed (at once when it is 0).
  private static func waitBriefly(for fd: Int32, nanoseconds: UInt64) {
    guard nanoseconds > 0 else { return }
    let start = Platform.monotonicNanoseconds()
    while Platform.waitForInput([fd], timeoutMilliseconds: 0).first != true {
      if Platform.monotonicNanoseconds() - start > nanoseconds { return }
    }
  }

  /// How long a session's worker may go on with a step ahead before a request it has not taken
  /// ends it (tests lower it).
  package static let stuckNanoseconds = Locked<UInt64>(2_000_000_000)

  /// Whether the child is still running.
  package var isRunning: Bool { process.isRunning }
  /// This side's ends of the reply and error pipes (tests check that they close).
  package var pipeDescriptors: [Int32] {
    [
      replies.fileHandleForReading.fileDescriptor, errors.fileHandleForReading.fileDescriptor,
    ]
  }
  /// The child's process identifier.
  package var processIdentifier: Int32 { process.processIdentifier }
  /// Whether a session's worker sleeps until the next request.
  package var isAsleep: Bool { shared?.load(at: WorkerSharedMemory.awake) == 0 }

  /// The last position the worker has rebuilt for the last `state` or `reach` it answered,
  /// counting those it rebuilt ahead since (-1 when it does not run ahead, or has not answered).
  package var frontier: Int { shared?.load(at: WorkerSharedMemory.frontier) ?? -1 }

  /// Whether the worker was rebuilding states ahead, not answering a request, when it was last
  /// seen (after its death: what it died doing).
  package var wasRunningAhead: Bool {
    shared?.load(at: WorkerSharedMemory.phase) == WorkerSharedMemory.runningAhead
  }

  /// What wakes a sleeping worker to a request in the shared memory: an empty line.
  private static let wakeUp: [UInt8] = [UInt8(ascii: "\n")]

  private func died() -> Outcome {
    reap()
    let stderr = String(decoding: standardError.withLock { $0.bytes }, as: UTF8.self)
    let signal: String
    if process.terminationReason == .uncaughtSignal {
      signal = Platform.signalName(process.terminationStatus)
    } else {
      signal = "exit status \(process.terminationStatus)"
    }
    return .died(signal: signal, stderr: stderr)
  }
}

package struct WorkerError: Error, CustomStringConvertible {
  package var description: String
  package init(_ description: String) { self.description = description }
}
