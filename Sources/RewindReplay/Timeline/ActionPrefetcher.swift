import Foundation
import RewindJSON

/// Decodes the actions of a long forward rebuild ahead of the reducer, on a second thread.
///
/// A rebuild decodes and reduces one action after another. Decoding is most of the work and
/// independent per line; reducing must go in order. The seqs are cut into batches: a helper thread decodes every odd-numbered batch while the calling thread
/// decodes and reduces the even-numbered ones itself, then reduces the helper's. A line the
/// helper cannot decode straight from its bytes is left out, and the caller takes its usual path
/// for it, which gives the same value or the exact error. The helper runs at most
/// ``aheadLimit`` batches ahead, so a rebuild holds a few thousand decoded actions at a time.
///
/// Why `@unchecked Sendable` is sound: `ready`, `taken` and `cancelled` are read and written only
/// with `condition` locked; `current` only by the calling thread (``take(_:)``); `log` is
/// `Sendable` and the helper has its own `JSONTapeDocument`.
final class ActionPrefetcher<Action: Decodable & Sendable>: @unchecked Sendable {
  /// One action decoded by the helper, with what the step marker shows for it.
  struct Decoded {
    var action: Action
    var type: String?
    var line: Int
  }

  /// How many batches the helper may run ahead of the caller.
  static var aheadLimit: Int { 4 }

  private let log: ReplayLog
  private let seqs: ClosedRange<Int>
  /// Seqs per batch.
  private let batchSize: Int
  private let condition = NSCondition()
  private var ready: [Int: [Decoded?]] = [:]
  /// The highest batch the caller has taken.
  private var taken = -1
  private var cancelled = false
  /// The helper's batch the caller is reducing.
  private var current: (batch: Int, items: [Decoded?]) = (-1, [])

  /// Starts decoding the actions of `seqs` on a helper thread, in batches of `batchSize` seqs.
  init(log: ReplayLog, seqs: ClosedRange<Int>, batchSize: Int) {
    self.log = log
    self.seqs = seqs
    self.batchSize = max(1, batchSize)
    let thread = Thread { [self] in decodeHelperBatches() }
    thread.stackSize = 8 << 20
    thread.name = "rewind-prefetch"
    thread.start()
  }

  /// Stops the helper (it finishes the line it is on); call it when the rebuild ends, however it
  /// ends.
  func cancel() {
    condition.lock()
    cancelled = true
    condition.broadcast()
    condition.unlock()
  }

  /// The helper's decoding of `seq`, waiting for it if need be; `nil` when `seq` is the caller's
  /// to decode (an even-numbered batch, or a line the helper left out). Call it with increasing
  /// seqs, from one thread.
  func take(_ seq: Int) -> Decoded? {
    guard seqs.contains(seq) else { return nil }
    let offset = seq - seqs.lowerBound
    let batch = offset / batchSize
    guard batch % 2 == 1 else { return nil }
    if current.batch != batch {
      condition.lock()
      taken = batch
      condition.broadcast()
      while ready[batch] == nil && !cancelled { condition.wait() }
      current = (batch, ready.removeValue(forKey: batch) ?? [])
      condition.unlock()
    }
    let index = offset - batch * batchSize
    return index < current.items.count ? current.items[index] : nil
  }

  private func decodeHelperBatches() {
    let document = JSONTapeDocument(limits: log.limits.json)
    let batchCount = (seqs.count + batchSize - 1) / batchSize
    var batch = 1
    while batch < batchCount {
      condition.lock()
      while batch - taken > Self.aheadLimit && !cancelled { condition.wait() }
      let stop = cancelled
      condition.unlock()
      if stop { return }
      let first = seqs.lowerBound + batch * batchSize
      let last = min(first + batchSize - 1, seqs.upperBound)
      var items: [Decoded?] = []
      items.reserveCapacity(last - first + 1)
      for seq in first...last {
        if let line = log.loadActionLine(seq, into: document),
          let action = try? document.decode(Action.self, at: line.payload)
        {
          items.append(Decoded(action: action, type: line.type, line: line.number))
        } else {
          items.append(nil)
        }
      }
      condition.lock()
      ready[batch] = items
      condition.broadcast()
      condition.unlock()
      batch += 2
    }
  }
}
