import Foundation
import Rewind
import RewindJSON

/// The threads that decode ahead of rebuilds (``ActionPrefetcher``'s helpers), kept parked
/// between rebuilds, each with its own ``LineDecoder`` kept too.
///
/// Starting a thread and a decoder for every rebuild cost a short one — the walk back across a
/// checkpoint, up to one checkpoint interval of actions — tens of microseconds before the helper
/// decoded its first line, and a fresh decoder's tape grew again from nothing. A thread that
/// finishes its work parks here and takes the next; a new one starts only when every thread is
/// busy (rebuilds on several threads at once), so there are never more than the most rebuilds
/// that ran at the same time. A parked thread costs its stack's address space and no CPU.
enum PrefetchThreads {
  /// A helper's work: it gets the helper thread's decoder for a coder and limits.
  typealias Work = @Sendable (_ decoder: (LogCoder, JSONLimits) -> LineDecoder) -> Void

  /// Runs `work` on a parked helper thread, or a new one when none is free.
  static func run(_ work: @escaping Work) {
    pool.run(work)
  }

  private static let pool = Pool()

  /// Why `@unchecked Sendable` is sound: `pending` and `idle` are read and written only with
  /// `condition` locked.
  private final class Pool: @unchecked Sendable {
    private let condition = NSCondition()
    private var pending: [Work] = []
    /// Threads waiting for work (some may have been woken and not yet taken theirs).
    private var idle = 0

    func run(_ work: @escaping Work) {
      condition.lock()
      pending.append(work)
      // Each idle thread woken takes one piece of work: start one more when they are too few.
      let startsThread = idle < pending.count
      if !startsThread { condition.signal() }
      condition.unlock()
      guard startsThread else { return }
      let thread = Thread { [self] in serve() }
      // Room for decoding deeply nested values (the JSON limits' depth) through `init(from:)`.
      thread.stackSize = 8 << 20
      thread.name = "rewind-prefetch"
      thread.start()
    }

    /// A helper's life: the next piece of work, or parked until there is one.
    private func serve() {
      var decoders: [(coder: LogCoder, limits: JSONLimits, decoder: LineDecoder)] = []
      let decoder = { (coder: LogCoder, limits: JSONLimits) -> LineDecoder in
        if let kept = decoders.first(where: { $0.coder == coder && $0.limits == limits }) {
          return kept.decoder
        }
        let made = LineDecoder(coder: coder, limits: limits)
        // A few coders and limits at most in one process; keep the latest two.
        decoders = [(coder, limits, made)] + decoders.prefix(1)
        return made
      }
      condition.lock()
      while true {
        guard !pending.isEmpty else {
          idle += 1
          condition.wait()
          idle -= 1
          continue
        }
        let work = pending.removeFirst()
        condition.unlock()
        work(decoder)
        condition.lock()
      }
    }
  }
}
