import Dispatch
import Foundation

/// Encodes and writes checkpoints off the dispatching thread, one at a time, in two stages: the
/// encoding on a thread of its own at a low priority that gives its core back every 200 µs
/// (``CheckpointEncoderThread``, ``EncodingPacer``), the writing on a serial queue at `.utility`.
///
/// The dispatching thread hands over the state (a value: capturing it copies nothing until the
/// store next changes it) and returns at once. When a checkpoint falls due while the previous
/// one is still being encoded or written, it is not queued: ``submit(_:)`` says no, and the
/// recorder marks it skipped in the log. So at most one state is held besides the store's.
///
/// Why two stages (docs/performance.md, *The worst dispatch*): the encoding is the long part
/// (tens to hundreds of milliseconds for states of megabytes) and takes no lock the app's thread
/// takes, so it runs where it does not take a core from the app's thread for long (on Linux, a
/// thread that never preempts it on waking, and that gives a shared core back every 200 µs
/// rather than holding it for a scheduler tick). The writing holds the recorder's lock one 64 KiB part at a
/// time, so it runs at the priority it had: a thread of low priority holding that lock would keep
/// the app's thread waiting for as long as other work keeps the cores busy. It too gives its core
/// back every 200 µs, between parts: the app's thread, woken when the lock is let go, cannot
/// take the core from a running thread before the end of its slice.
final class CheckpointWriter: Sendable {
  private let queue = DispatchQueue(label: "rewind.recorder.checkpoints", qos: .utility)
  /// Marks ``queue``, so that a wait from one of its own jobs can be told apart.
  private let onQueue = DispatchSpecificKey<Bool>()
  /// Where states are encoded; started with the first checkpoint handed over.
  private let encoder = Locked<CheckpointEncoderThread?>(nil)
  /// Entered when a checkpoint is handed over, left when its last stage is done.
  private let inFlight = DispatchGroup()

  init() {
    queue.setSpecific(key: onQueue, value: true)
  }

  deinit {
    encoder.withLock { $0?.stop() }
  }

  /// Whether a checkpoint is being encoded or written.
  private let isBusy = AtomicWord(0)
  /// Set while something waits for the state being encoded (``hurry()``): the encoder then no
  /// longer gives its core back.
  private let hurried = AtomicWord(0)

  /// Whether no checkpoint is being encoded or written (the answer may change at once after, from
  /// busy to idle only: jobs are submitted by one thread at a time).
  var isIdle: Bool { isBusy.load() == 0 }

  /// Runs `encode` on the encoding thread, then what it returns on the writer's queue, unless a
  /// checkpoint is in flight: then `false`, and nothing runs. `encode` must take no lock the
  /// app's thread takes (the recorder's): what it returns does that. It is given the thread's
  /// ``EncodingPacer``, to call while it encodes.
  func submit(_ encode: @escaping @Sendable (EncodingPacer) -> @Sendable () -> Void) -> Bool {
    guard isBusy.compareExchange(expected: 0, desired: 1) else { return false }
    inFlight.enter()
    hurried.store(0)
    let encoder = self.encoder.withLock { slot in
      if let running = slot { return running }
      let started = CheckpointEncoderThread(hurried: hurried)
      slot = started
      return started
    }
    encoder.run { pacer in
      let write = encode(pacer)
      self.queue.async {
        write()
        self.isBusy.store(0)
        self.inFlight.leave()
      }
    }
    return true
  }

  /// Tells the encoder that something waits for the state it encodes (a rotation, closing): it
  /// encodes the rest at its full share of a core, without giving it back (``EncodingPacer``).
  func hurry() {
    guard isBusy.load() != 0, hurried.load() == 0 else { return }
    hurried.store(1)
  }

  /// Waits until the checkpoint being written, if any, is in the file (before the `end` record
  /// or a rotation).
  func waitUntilIdle() {
    // From a job of this queue (an `onError` that closes the recorder, called by a failing
    // checkpoint): that job is the one being written, and waiting for it would never end.
    guard DispatchQueue.getSpecific(key: onQueue) != true else { return }
    hurry()
    inFlight.wait()
  }
}

/// A thread that runs one job at a time at a background priority (``lowerPriority()``): it never
/// preempts the app's thread on waking, and gives its core back every
/// ``EncodingPacer/interval`` while it encodes. It waits on a semaphore between jobs, so it costs
/// nothing while no checkpoint is due.
final class CheckpointEncoderThread: Sendable {
  private let wake = DispatchSemaphore(value: 0)
  private let slot = Locked<(job: (@Sendable (EncodingPacer) -> Void)?, stopping: Bool)>(
    (nil, false))

  /// Starts the thread; `hurried` set makes its ``EncodingPacer`` stop giving the core back.
  init(hurried: AtomicWord) {
    let (wake, slot) = (wake, slot)
    let thread = Thread {
      Self.lowerPriority()
      let pacer = EncodingPacer(hurried: hurried)
      while true {
        wake.wait()
        let (job, stopping) = slot.withLock { state in
          let job = state.job
          state.job = nil
          return (job, state.stopping)
        }
        pacer.resume()
        job?(pacer)
        if stopping { return }
      }
    }
    thread.name = "Rewind checkpoint encoder"
    // Apple platforms honour it (the app's main thread runs at a higher one); Linux sets none.
    thread.qualityOfService = .utility
    thread.start()
  }

  /// Runs `job` on the thread (the caller runs one job at a time).
  func run(_ job: @escaping @Sendable (EncodingPacer) -> Void) {
    slot.withLock { $0.job = job }
    wake.signal()
  }

  /// Ends the thread after the job it has, if any.
  func stop() {
    slot.withLock { $0.stopping = true }
    wake.signal()
  }

  /// Lowers the calling thread's priority: on Linux `SCHED_BATCH` (waking it never preempts the
  /// app's thread; its share of a busy core is a fair one, taken in turns of 200 µs:
  /// ``EncodingPacer``). Not `SCHED_IDLE`, which keeps it off a core whenever anything else wants
  /// one: on a busy machine the encoding then waits, and with it every checkpoint and every
  /// rotation of a large state (which waits for the state being written), so a file grew past
  /// its `maxBytes` for as long as the machine stayed busy; and a thread cannot leave
  /// `SCHED_IDLE` (nor lower its nice value) again without privileges. Elsewhere,
  /// ``init(hurried:)``'s `qualityOfService`.
  private static func lowerPriority() {
    BackgroundThreadPriority.lowerCallingThread(to: .batch)
  }
}

/// Gives the encoding thread's core back to whatever else wants it, every ``interval`` of
/// encoding (``pausePoint()``, which the encoder calls after about every ``checkEvery``
/// containers and elements, or objects and arrays through a direct path; Rewind's coder only).
///
/// Why (docs/performance.md, *The worst dispatch*): on Linux a thread that shares a core with
/// the app's thread, at the same nice value, is owed half of it, and once the scheduler gives it
/// the core it keeps it until a scheduler tick (4 ms at 250 Hz) — a 4 ms dispatch for the app. A
/// `sched_yield` does not hand the core back while the encoder is owed time; blocking does: the
/// encoder sleeps for a moment every ``interval``, the app's thread runs, and the encoder gets
/// its next turn at a later tick. So the app loses at most about ``interval`` to it at a time.
/// The price: on a busy core the encoder gets about one ``interval`` per tick (a 5 MiB state in
/// about half a second of wall time, where a fair share took a few tenths), and on a free core
/// each pause costs the sleep's wake-up (about 50–60 µs, the kernel's timer slack: the encoding
/// takes about a fifth longer). While
/// something waits for the state (a rotation due, closing: ``CheckpointWriter/hurry()``), it
/// encodes without pausing. The writer stage is paced by one too, between a state's parts,
/// never hurried; and the live sink's thread (``LiveSink``), between the lines it takes while no
/// viewer is connected.
final class EncodingPacer {
  /// How long the encoder runs before it gives its core back: 200 µs.
  let interval: UInt64 = 200_000
  /// How many containers and elements the encoder writes between two calls of ``pausePoint()``
  /// (about 3 KB of JSON: tens of microseconds).
  static let checkEvery = 64
  private var resumedAt: UInt64 = 0
  /// Set while something waits for the state being encoded: no pause then.
  private let hurried: AtomicWord

  init(hurried: AtomicWord) { self.hurried = hurried }

  /// Starts timing a run of encoding.
  func resume() { resumedAt = Platform.monotonicNanoseconds() }

  /// Gives the core back when the encoder has run for ``interval`` since it last did.
  func pausePoint() {
    guard Platform.monotonicNanoseconds() &- resumedAt >= interval, hurried.load() == 0 else {
      return
    }
    #if os(Linux)
      // 1 µs asked; the kernel's timer slack makes it 50 µs or so on a free core.
      var time = timespec(tv_sec: 0, tv_nsec: 1_000)
      _ = nanosleep(&time, nil)
    #endif
    resume()
  }
}

/// The priority of the recorder's background threads (the checkpoint encoder, the live sink).
enum BackgroundThreadPriority {
  /// Linux's scheduling policies for a background thread.
  enum Policy {
    /// `SCHED_BATCH`: never preempts the running thread on waking; its share of the cores by
    /// nice 0, like the app's thread.
    case batch
  }

  /// On Linux, puts the calling thread in `policy`, so that waking it (a state handed over, a
  /// sink's turn) never takes the core from the app's thread when every core is busy. Nothing
  /// elsewhere: Apple platforms honour the thread's `qualityOfService`.
  static func lowerCallingThread(to policy: Policy) {
    #if os(Linux)
      var parameters = sched_param()
      parameters.sched_priority = 0
      // SCHED_BATCH (3), which Glibc's module does not export (a macro under _GNU_SOURCE); pid 0
      // is the calling thread. A failure leaves the thread at its priority: more likely to take
      // the app's core, never wrong.
      switch policy {
      case .batch: _ = sched_setscheduler(0, 3, &parameters)
      }
    #endif
  }
}
