import Dispatch
import Foundation
import RewindJSON

/// What a recording's live connection is doing (``Recorder/liveStatus``).
public struct LiveStatus: Sendable, Equatable {
  /// Whether a viewer is connected now.
  public var isConnected: Bool
  /// How many connections a viewer accepted since recording started.
  public var connections: Int
  /// Actions the viewer was told it would not get (the queue overflowed), in all.
  public var droppedActions: Int
  /// Why the last attempt failed or the viewer refused (`nil` while connected, and before any
  /// attempt failed): the reason `replay listen` gave, or the system's.
  public var lastProblem: String?
}

/// Streams the lines a recording writes to a viewer (``LiveViewer``), off the dispatching thread.
///
/// The recorder hands it every line right after writing it to the file, in the file's order:
/// an action's as a copy into a bounded buffer (``enqueue(_:lastSeq:)``, under a lock held for
/// that copy only), a part of a state written in the background by reference
/// (``enqueue(shared:lastSeq:)``: never copied on the way, so that an action waiting for the
/// recorder's lock never waits for a part's copy). A thread of its own
/// connects out, greets the viewer, and sends what ``LiveWindow`` gives it; it reconnects with
/// backoff (0.25 s doubling to 5 s) when the viewer goes away or is absent. With no viewer
/// connected it gives its core back every 200 µs while it takes lines (``EncodingPacer``). The
/// recorder reads ``stateRequested`` at each action and writes a checkpoint when it is set.
package final class LiveSink: Sendable {
  /// Set when the viewer's window needs a whole state: the recorder checkpoints the state after
  /// its next action (and clears it).
  package let stateRequested = AtomicWord(0)
  private let viewer: LiveViewer
  private let hello: LiveProtocol.Hello
  private let incoming: Locked<Incoming>
  private let wake = DispatchSemaphore(value: 0)
  private let statusBox = Locked(
    LiveStatus(isConnected: false, connections: 0, droppedActions: 0, lastProblem: nil))
  private let makeHeader: @Sendable (Int, Int, [UInt8]?) -> [UInt8]
  /// Takes an action the viewer sent (its request): `nil` once it is decoded and queued for
  /// dispatch, else why not (``setDispatcher(_:)``).
  private let dispatcher: Locked<(@Sendable (LiveProtocol.DispatchRequest) -> String?)?> = Locked(
    nil)
  /// The answers to the viewer's requests, sent between the log's lines.
  private let answers = Locked<[UInt8]>([])

  private struct Incoming {
    var bytes: [UInt8] = []
    /// Lines handed over by reference, each with the offset in ``bytes`` it comes at (the
    /// lines before it are `bytes[..<offset]`), in order.
    var shared: [(offset: Int, line: [UInt8])] = []
    /// The bytes of ``shared``'s lines.
    var sharedBytes = 0
    /// The seq of the last action whose line was dropped here (the buffer was full).
    var lostThrough: Int?
    var sleeping = false
    var stopping = false
  }

  /// A sink for `viewer`; its thread starts at once.
  /// - Parameter makeHeader: The header of a connection: `firstSeq`, `segment`, the state's JSON
  ///   (`nil`: the header says its state follows).
  init(
    viewer: LiveViewer, hello: LiveProtocol.Hello,
    makeHeader: @escaping @Sendable (Int, Int, [UInt8]?) -> [UInt8]
  ) {
    self.viewer = viewer
    self.hello = hello
    self.makeHeader = makeHeader
    var queue = Incoming()
    queue.bytes.reserveCapacity(Self.reserved(viewer))
    queue.shared.reserveCapacity(Self.sharedRoom)
    incoming = Locked(queue)
    let thread = Thread { [self] in self.run() }
    thread.name = "Rewind live sink"
    thread.qualityOfService = .utility
    thread.start()
  }

  /// The connection's status.
  var status: LiveStatus { statusBox.withLock { $0 } }

  /// Takes a copy of whole lines just written (the last action among them is `lastSeq`). Never
  /// waits on the network: past the viewer's queue capacity, the lines are dropped and the
  /// viewer is told.
  func enqueue(_ bytes: UnsafeRawBufferPointer, lastSeq: Int) {
    // The hand-over to the sink's thread holds more than the window (up to four times it, at
    // most 4 MiB), so that a burst while that thread waits on the socket is dropped by the
    // window (with a mark), not here; and it never grows: a buffer grown on the app's thread
    // would copy megabytes there.
    let capacity = Self.reserved(viewer)
    let wakes = incoming.withLock { queue -> Bool in
      if queue.bytes.count + queue.sharedBytes + bytes.count > capacity {
        queue.lostThrough = lastSeq
      } else {
        queue.bytes.append(contentsOf: bytes)
      }
      return Self.shouldWake(&queue, viewer: viewer)
    }
    if wakes { wake.signal() }
  }

  /// Takes a whole line just written, by reference: a part of a `state` record written in the
  /// background, which the recorder's lock is held for. Taking it costs a reference (and
  /// ``shared``'s room, kept from one turn to the next), never a copy of its bytes; it comes in
  /// the order it was written, after the lines taken before it. Past the capacity, as
  /// ``enqueue(_:lastSeq:)``.
  func enqueue(shared line: [UInt8], lastSeq: Int) {
    let capacity = Self.reserved(viewer)
    let wakes = incoming.withLock { queue -> Bool in
      if queue.bytes.count + queue.sharedBytes + line.count > capacity {
        queue.lostThrough = lastSeq
      } else {
        queue.shared.append((queue.bytes.count, line))
        queue.sharedBytes += line.count
      }
      return Self.shouldWake(&queue, viewer: viewer)
    }
    if wakes { wake.signal() }
  }

  /// Whether the sink's thread is to be woken now. It comes by on its own every few
  /// milliseconds: it is woken (a system call, and a thread made runnable beside the app's) only
  /// when a burst fills a quarter of its buffer, not for every line.
  private static func shouldWake(_ queue: inout Incoming, viewer: LiveViewer) -> Bool {
    guard queue.sleeping, queue.bytes.count + queue.sharedBytes >= reserved(viewer) / 4 else {
      return false
    }
    queue.sleeping = false
    return true
  }

  /// The room each of the two hand-over buffers is made with: what a burst between two turns
  /// of the sink's thread takes, without growing.
  private static func reserved(_ viewer: LiveViewer) -> Int {
    min(4 * viewer.queueCapacity, 4 << 20)
  }

  /// Sets what takes the actions the viewer sends, when the app accepts them
  /// (``LiveViewer/acceptsActions``): the recorder decodes one and queues its dispatch, or says
  /// why not.
  func setDispatcher(_ dispatcher: @escaping @Sendable (LiveProtocol.DispatchRequest) -> String?) {
    self.dispatcher.withLock { $0 = dispatcher }
  }

  /// Tells the viewer its action `id` was recorded as `seq`.
  func answer(request id: Int, seq: Int) {
    queue(answer: LiveProtocol.dispatched(id: id, seq: seq))
  }

  /// Queues an answer for the viewer; past 64 KiB waiting (a viewer that floods requests and
  /// does not read), answers are dropped.
  private func queue(answer line: [UInt8]) {
    answers.withLock { answers in
      if answers.count + line.count <= 64 << 10 { answers += line }
    }
  }

  /// Sends what is left (for at most two seconds) and ends the thread: the recording closed.
  func finish() {
    incoming.withLock { $0.stopping = true }
    wake.signal()
  }

  // MARK: The thread

  private func run() {
    // Its turns (every 10 ms while connected) never preempt the app's thread on waking; not
    // idle: it takes the lock the app's thread takes for each line.
    BackgroundThreadPriority.lowerCallingThread(to: .batch)
    // With no viewer a turn comes every 100 ms and takes 100 ms of lines (megabytes while a
    // large state is written): it gives the core back every 200 µs, as the checkpoint encoder
    // does, so that the app's thread never loses a core to it for a scheduler tick
    // (docs/performance.md, section 15). Not while a viewer is connected (turns every 10 ms, and
    // a slow viewer must be told exactly what it missed), nor once the recording closed.
    let pacer = EncodingPacer(hurried: AtomicWord(0))
    var window = LiveWindow(capacity: viewer.queueCapacity, makeHeader: makeHeader)
    var connection: Int32 = -1
    var pending: [UInt8] = []
    var pendingOffset = 0
    var backoff = 250
    var nextAttempt = DispatchTime.now()
    var stopDeadline: DispatchTime?
    var triedSinceStopping = false
    var nextStateRequest = DispatchTime.now()
    var remainder: [UInt8] = []
    var fromViewer: [UInt8] = []
    var taken: [UInt8] = []
    taken.reserveCapacity(Self.reserved(viewer))
    var takenShared: [(offset: Int, line: [UInt8])] = []
    takenShared.reserveCapacity(Self.sharedRoom)

    func disconnect(_ problem: String?) {
      if connection >= 0 {
        Platform.shutdownSocket(connection)
        Platform.close(connection)
      }
      connection = -1
      pending = []
      pendingOffset = 0
      fromViewer = []
      window.disconnect()
      statusBox.withLock {
        $0.isConnected = false
        if let problem { $0.lastProblem = problem }
      }
      nextAttempt = DispatchTime.now() + .milliseconds(backoff)
      backoff = min(backoff * 2, 5_000)
    }

    while true {
      // Lines written since the last turn.
      // The two buffers trade places: neither is allocated again, so that an app's append
      // never waits for a buffer to grow and be copied.
      let (lost, stopping) = incoming.withLock { queue in
        swap(&queue.bytes, &taken)
        swap(&queue.shared, &takenShared)
        queue.sharedBytes = 0
        defer { queue.lostThrough = nil }
        return (queue.lostThrough, queue.stopping)
      }
      // The copied lines and those taken by reference, in the order they were written.
      let paced = connection < 0 && !stopping ? pacer : nil
      paced?.resume()
      var start = 0
      for (offset, line) in takenShared {
        Self.takeLines(taken[start..<offset], remainder: &remainder, into: &window, pacer: paced)
        Self.takeLines(line[...], remainder: &remainder, into: &window, pacer: paced)
        start = offset
      }
      Self.takeLines(taken[start...], remainder: &remainder, into: &window, pacer: paced)
      taken.removeAll(keepingCapacity: true)
      takenShared.removeAll(keepingCapacity: true)
      if let lost { window.lose(through: lost) }
      // At most one state a second is asked for: each costs the app a copy of its state (the
      // next change after a state is handed over copies it) and the background an encoding.
      // And only for a viewer that is there: without one, the recording's own checkpoints give
      // the next connection its start.
      if window.wantsState, window.cursor != nil, DispatchTime.now() >= nextStateRequest {
        stateRequested.store(1)
        nextStateRequest = DispatchTime.now() + .seconds(1)
      }
      statusBox.withLock { $0.droppedActions = window.droppedActions }
      if stopping && stopDeadline == nil { stopDeadline = DispatchTime.now() + .seconds(2) }

      // Connect when due; once the recording closed, one more attempt at once (a short
      // recording still reaches a viewer that is there).
      let lastChance = stopping && !triedSinceStopping
      if connection < 0 && (DispatchTime.now() >= nextAttempt || lastChance) {
        if stopping { triedSinceStopping = true }
        switch attach() {
        case .connected(let fd):
          connection = fd
          backoff = 250
          window.connect()
          statusBox.withLock {
            $0.isConnected = true
            $0.connections += 1
            $0.lastProblem = nil
          }
        case .failed(let problem):
          statusBox.withLock { $0.lastProblem = problem }
          nextAttempt = DispatchTime.now() + .milliseconds(backoff)
          backoff = min(backoff * 2, 5_000)
        }
      }

      // Send.
      var blocked = false
      if connection >= 0 {
        if pendingOffset >= pending.count {
          // The answers to the viewer's requests first (a few short lines), between two chunks
          // of whole log lines.
          let replies = answers.withLock { answers in
            defer { answers.removeAll() }
            return answers
          }
          if !replies.isEmpty {
            pending = replies
            pendingOffset = 0
          } else if let next = window.nextBytes(limit: min(256 << 10, viewer.queueCapacity / 4)) {
            pending = next
            pendingOffset = 0
          }
        }
        if pendingOffset < pending.count {
          let sent = pending.withUnsafeBytes { raw in
            Platform.sendSome(connection, UnsafeRawBufferPointer(rebasing: raw[pendingOffset...]))
          }
          if sent < 0 {
            disconnect("the viewer went away: \(Platform.describe(errno: Int32(-sent)))")
            continue
          }
          pendingOffset += sent
          blocked = sent == 0
        }
        if connection >= 0, let problem = readViewer(connection, into: &fromViewer) {
          disconnect(problem)
          continue
        }
      }
      let idle = pendingOffset >= pending.count

      statusBox.withLock { $0.droppedActions = window.droppedActions }
      if let stopDeadline {
        let done = connection >= 0 ? idle && !window.hasUnsent : triedSinceStopping
        if done || DispatchTime.now() >= stopDeadline {
          if connection >= 0 {
            Platform.shutdownSocket(connection)
            Platform.close(connection)
          }
          statusBox.withLock { $0.isConnected = false }
          return
        }
      }

      // Wait: for the socket when it is full, else for lines (or the next attempt).
      if blocked {
        // Briefly: lines keep arriving, and the window drops what it cannot hold.
        _ = Platform.waitWritable(connection, timeoutMilliseconds: 5)
      } else if idle {
        // Lines are taken in batches, a turn every 10 ms while connected (100 ms while not):
        // the thread does not spin beside the app's.
        let sleeping = incoming.withLock { queue -> Bool in
          guard !queue.stopping || stopDeadline == nil else { return false }
          queue.sleeping = true
          return true
        }
        if sleeping { _ = wake.wait(timeout: .now() + .milliseconds(connection >= 0 ? 10 : 100)) }
      }
    }
  }

  /// The room for lines taken by reference between two turns, kept by both lists: the parts of
  /// a few states (each part is 64 KiB).
  private static let sharedRoom = 256

  /// Gives the window each whole line of `bytes`, after what `remainder` holds of a line begun
  /// before them; keeps in `remainder` what follows their last newline. Gives the core back
  /// between lines when `pacer` says so.
  private static func takeLines(
    _ bytes: ArraySlice<UInt8>, remainder: inout [UInt8], into window: inout LiveWindow,
    pacer: EncodingPacer?
  ) {
    guard !bytes.isEmpty else { return }
    var start = bytes.startIndex
    if !remainder.isEmpty {
      guard let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) else {
        remainder += bytes
        return
      }
      remainder += bytes[...newline]
      window.take(remainder[...])
      pacer?.pausePoint()
      remainder.removeAll()
      start = newline + 1
    }
    while let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) {
      window.take(bytes[start...newline])
      pacer?.pausePoint()
      start = newline + 1
    }
    if start < bytes.endIndex { remainder = Array(bytes[start...]) }
  }

  /// What an attempt to connect gave.
  private enum Attachment {
    case connected(Int32)
    case failed(String)
  }

  /// Connects and greets the viewer; the connected socket, or why not.
  private func attach() -> Attachment {
    let timeout =
      Int(viewer.connectTimeout.components.seconds * 1_000)
      + Int(viewer.connectTimeout.components.attoseconds / 1_000_000_000_000_000)
    let fd: Int32
    switch Platform.connectStream(to: viewer.socketAddress, timeoutMilliseconds: max(1, timeout)) {
    case .success(let connected): fd = connected
    case .failure(let failure): return .failed(failure.description)
    }
    var greeting = hello
    greeting.token = viewer.effectiveToken
    let sendFailure = greeting.line.withUnsafeBytes { Platform.sendAll(fd, $0) }
    if let code = sendFailure {
      Platform.close(fd)
      return .failed("cannot greet the viewer: \(Platform.describe(errno: code))")
    }
    guard let answer = readLine(fd, timeoutMilliseconds: max(1, timeout)) else {
      Platform.close(fd)
      return .failed("the viewer did not answer the greeting in time")
    }
    if let refusal = LiveProtocol.parseAnswer(answer) {
      Platform.close(fd)
      return .failed("the viewer refused the connection: \(refusal)")
    }
    return .connected(fd)
  }

  /// One line (without its `\n`) read within the time limit, at most
  /// ``LiveProtocol/greetingLimit`` bytes; `nil` otherwise.
  private func readLine(_ fd: Int32, timeoutMilliseconds: Int) -> [UInt8]? {
    var line: [UInt8] = []
    var byte: UInt8 = 0
    let deadline = DispatchTime.now() + .milliseconds(timeoutMilliseconds)
    while line.count < LiveProtocol.greetingLimit {
      let left = Int(
        (deadline.uptimeNanoseconds &- DispatchTime.now().uptimeNanoseconds) / 1_000_000)
      guard DispatchTime.now() < deadline, Platform.waitReadable(fd, timeoutMilliseconds: left)
      else { return nil }
      let n = withUnsafeMutableBytes(of: &byte) { Platform.readSome(fd, into: $0) }
      guard n == 1 else { return nil }
      if byte == UInt8(ascii: "\n") { return line }
      line.append(byte)
    }
    return nil
  }

  /// Reads what the viewer sent, and takes each whole line (``take(viewerLine:)``); why the
  /// connection must end, when it must (the viewer closed it, or sent a line past
  /// ``LiveProtocol/viewerLineLimit``).
  private func readViewer(_ fd: Int32, into buffer: inout [UInt8]) -> String? {
    guard Platform.waitReadable(fd, timeoutMilliseconds: 0) else { return nil }
    var scratch = [UInt8](repeating: 0, count: 16 << 10)
    let n = scratch.withUnsafeMutableBytes { Platform.readSome(fd, into: $0) }
    guard n > 0 else { return "the viewer closed the connection" }
    buffer += scratch[..<n]
    while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
      let line = Array(buffer[..<newline])
      buffer.removeSubrange(...newline)
      if !line.isEmpty { take(viewerLine: line) }
    }
    if buffer.count > LiveProtocol.viewerLineLimit {
      return "the viewer sent a line longer than \(LiveProtocol.viewerLineLimit) bytes"
    }
    return nil
  }

  /// A line from the viewer: a request to dispatch an action, answered when refused (an app
  /// that does not accept actions, one that does not decode, too many waiting). Other lines
  /// are ignored.
  private func take(viewerLine line: [UInt8]) {
    let refusal: LiveProtocol.DispatchRefusal
    switch LiveProtocol.parseDispatch(line) {
    case .failure(let problem):
      guard problem.id != 0 else { return }
      refusal = problem
    case .success(let request):
      guard viewer.acceptsActions else {
        refusal = LiveProtocol.DispatchRefusal(
          id: request.id,
          reason:
            "this app does not accept actions from the viewer: give its LiveViewer acceptsActions: true, in a debug build (docs/live.md, Sending actions)"
        )
        break
      }
      guard let dispatcher = dispatcher.withLock({ $0 }) else {
        refusal = LiveProtocol.DispatchRefusal(
          id: request.id,
          reason:
            "the app's recorder has no handler for the viewer's actions: a store other than Rewind's calls recorder.onViewerAction (docs/live.md, Sending actions)"
        )
        break
      }
      guard let reason = dispatcher(request) else { return }
      refusal = LiveProtocol.DispatchRefusal(id: request.id, reason: reason)
    }
    queue(answer: LiveProtocol.dispatchRefused(refusal))
  }
}
