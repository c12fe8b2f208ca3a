import RewindReplay

/// The worker protocol's one-time costs, paid before they are needed.
package enum WorkerProtocol {
  /// ``warmUp()``, done the first time this is read, once a process (the parent reads it as it
  /// starts a worker, while the worker opens the log).
  package static let warmedUp: Bool = {
    warmUp()
    return true
  }()

  /// Writes and reads one of every request and reply once. The first use of a `Codable` type in a
  /// process looks up its conformances and instantiates its coding paths, which costs more than a
  /// whole request after it (a few tenths of a millisecond): a worker does this once it has
  /// opened the log, before its first request, so that no request a user makes pays for it.
  package static func warmUp() {
    let operations: [WorkerRequest.Operation] = [
      .state(at: 1, aheadLimit: 2), .reach(at: 1, aheadLimit: nil), .equal(a: 1, b: 2),
      .run(seqs: [1]), .check(from: 1, through: 2), .verify,
      .states(from: 1, through: 2, maxBytes: 3),
    ]
    for operation in operations {
      _ = try? WorkerRequest(line: WorkerRequest(operation, skips: [1], progress: true).line)
    }
    let replies: [WorkerReply] = [
      .progress(done: 1, total: 2), .done, .equal(true), .verified(VerifyWalk()),
      .failed(.positionOutOfRange(3, valid: 0...2)),
    ]
    for reply in replies { _ = try? WorkerReply(line: reply.line.dropLast()) }
  }
}
