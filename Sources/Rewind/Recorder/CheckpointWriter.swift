import Dispatch

/// Encodes and writes checkpoints off the dispatching thread: one at a time, on a serial queue
/// of its own.
///
/// The dispatching thread hands over the state (a value: capturing it copies nothing until the
/// store next changes it) and returns at once. When a checkpoint falls due while the previous
/// one is still being encoded or written, it is not queued: ``submit(_:)`` says no, and the
/// recorder marks it skipped in the log. So at most one state is held besides the store's.
final class CheckpointWriter: Sendable {
  private let queue = DispatchQueue(label: "rewind.recorder.checkpoints", qos: .utility)
  /// Marks ``queue``, so that a wait from one of its own jobs can be told apart.
  private let onQueue = DispatchSpecificKey<Bool>()

  init() {
    queue.setSpecific(key: onQueue, value: true)
  }
  /// Whether a checkpoint is being encoded or written.
  private let isBusy = AtomicWord(0)

  /// Whether no checkpoint is being encoded or written (the answer may change at once after, from
  /// busy to idle only: jobs are submitted by one thread at a time).
  var isIdle: Bool { isBusy.load() == 0 }

  /// Runs `job` on the writer's queue, unless one is running: then `false`, and `job` is dropped.
  func submit(_ job: @escaping @Sendable () -> Void) -> Bool {
    guard isBusy.compareExchange(expected: 0, desired: 1) else { return false }
    queue.async {
      job()
      self.isBusy.store(0)
    }
    return true
  }

  /// Waits until the checkpoint being written, if any, is in the file (before the `end` record
  /// or a rotation).
  func waitUntilIdle() {
    // From a job of this queue (an `onError` that closes the recorder, called by a failing
    // checkpoint): that job is the one being written, and waiting for it would never end.
    guard DispatchQueue.getSpecific(key: onQueue) != true else { return }
    queue.sync {}
  }
}
