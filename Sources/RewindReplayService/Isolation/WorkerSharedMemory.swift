import Rewind

/// The layout of the memory a session's worker shares with `replay` (``SharedMemory``, created by
/// ``WorkerProcess`` and named to the worker with `--ahead PATH`):
///
/// - ``frontier`` and ``phase``: how far the worker has rebuilt ahead of the last request, and
///   whether it is rebuilding ahead or answering (``WorkerRunAhead``);
/// - ``requestSeq``, ``requestLength`` and the byte region: a request line `replay` writes there
///   instead of sending it over the socket — it counts requests in ``requestSeq`` (a release
///   store after the bytes and length), and the worker, checking that word between steps, reads
///   it without a system call (``WorkerInput``);
/// - ``awake``: 1 while the worker checks ``requestSeq``, 0 once it is about to sleep. After
///   storing a request, `replay` fences and reads it; before sleeping, the worker stores 0,
///   fences and reads ``requestSeq`` again — so one of them always sees the other, and `replay`
///   sends a line feed over the socket to wake a worker that sleeps.
///
/// A request longer than the region goes over the socket as before.
package enum WorkerSharedMemory {
  /// The last position rebuilt for the last `state` or `reach` answered, or rebuilt ahead since.
  package static let frontier = 0
  /// ``answering`` or ``runningAhead``.
  package static let phase = 1
  /// How many requests `replay` has written to the region.
  package static let requestSeq = 2
  /// The length of the request in the region.
  package static let requestLength = 3
  /// 1 while the worker checks for requests, 0 while it sleeps.
  package static let awake = 4
  /// How many words there are.
  package static let wordCount = 5
  /// The size of the request region.
  package static let requestBytes = 16 << 10

  /// ``phase`` while the worker answers requests, or waits for one.
  package static let answering = 0
  /// ``phase`` while the worker rebuilds states ahead.
  package static let runningAhead = 1

  /// Creates the memory (in `replay`), every word -1 but ``requestSeq`` and ``awake`` 0.
  package static func create() -> Result<SharedMemory, LogFileFailure> {
    SharedMemory.create(wordCount: wordCount, byteCount: requestBytes, initialValue: -1).map {
      $0.store(0, at: requestSeq)
      $0.store(0, at: awake)
      return $0
    }
  }

  /// Maps the memory `replay` created at `path` (in the worker).
  package static func open(path: String) -> Result<SharedMemory, LogFileFailure> {
    SharedMemory.open(path: path, wordCount: wordCount, byteCount: requestBytes)
  }
}
