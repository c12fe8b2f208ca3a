import Foundation
import Rewind
import RewindJSON

/// Decodes the actions of a long forward rebuild ahead of the reducer, on a second thread.
///
/// A rebuild decodes and reduces one action after another. Decoding is most of the work and
/// independent per line; reducing must go in order. The seqs are cut into batches, and each batch
/// is decoded by whichever thread claims it first, in order:
/// - a helper thread claims the next batch whenever it is free, at most ``aheadLimit`` batches
///   ahead of the caller (who may claim further ahead, ``callerAheadLimit``);
/// - the caller, reaching a batch nobody claimed, decodes it itself as it reduces (``take(_:)``
///   returns `nil` for its seqs); reaching one the helper is still decoding, it decodes the next
///   unclaimed batch meanwhile instead of waiting.
///
/// So the two threads share the decoding in whatever proportion the reducer's cost leaves. A line
/// that cannot be decoded straight from its bytes is left out, and the caller takes its usual
/// path for it, which gives the same value or the exact error.
///
/// Why `@unchecked Sendable` is sound: `ready`, `nextUnclaimed`, `callerBatch` and `cancelled`
/// are read and written only with `condition` locked; `current` and `callerDecoder` only by the
/// calling thread (``take(_:into:)``); `log` is `Sendable` and the helper has its own decoder;
/// a ``Batch`` is written by the thread that decodes it, then handed over under the lock. The
/// helper is a parked thread of ``PrefetchThreads``, with the decoder it keeps: a short rebuild
/// starts no thread and no decoder.
final class ActionPrefetcher<Action: Decodable & Sendable>: @unchecked Sendable {
  /// The decoded actions of one batch, in slots, and where their lines are; `nil` for a seq left
  /// to the caller's usual path. Slots are moved out by ``take(_:into:)``.
  final class Batch {
    private let slots: UnsafeMutablePointer<Action>
    private var lines: [LineDecoder.LineInfo?]

    /// Decodes `seqs` of `log` with `decoder`.
    init(
      _ seqs: ClosedRange<Int>, of log: ReplayLog, with decoder: LineDecoder,
      direct: JSONDirectCoding.Decode<Action>?
    ) {
      slots = .allocate(capacity: seqs.count)
      lines = []
      lines.reserveCapacity(seqs.count)
      for (index, seq) in seqs.enumerated() {
        lines.append(
          decoder.action(Action.self, seq: seq, in: log, direct: direct, into: slots + index))
      }
    }

    deinit {
      for index in lines.indices where lines[index] != nil {
        (slots + index).deinitialize(count: 1)
      }
      slots.deallocate()
    }

    /// Moves the action at `index` into `slot`; `nil` when there is none (or it was taken).
    func take(_ index: Int, into slot: UnsafeMutablePointer<Action>) -> LineDecoder.LineInfo? {
      guard index < lines.count, let line = lines[index] else { return nil }
      slot.initialize(to: (slots + index).move())
      lines[index] = nil
      return line
    }
  }

  /// How many batches past the caller's the helper may claim.
  static var aheadLimit: Int { 4 }
  /// How many past its own the caller may claim while it waits: more than the helper, or a
  /// helper that has claimed its whole window would leave the caller only waiting, and the
  /// decoding to one thread.
  static var callerAheadLimit: Int { 2 * aheadLimit }

  private let log: ReplayLog
  private let coder: LogCoder
  private let direct: JSONDirectCoding.Decode<Action>?
  private let seqs: ClosedRange<Int>
  /// Seqs per batch.
  private let batchSize: Int
  private let batchCount: Int
  private let condition = NSCondition()
  /// Decoded batches not yet taken by the caller.
  private var ready: [Int: Batch] = [:]
  /// Every batch before this one has been claimed.
  private var nextUnclaimed = 0
  /// The batch the caller is on.
  private var callerBatch = 0
  private var cancelled = false
  /// The batch the caller is reducing: its decoded actions, or `nil` when the caller decodes it.
  private var current: (batch: Int, items: Batch?) = (-1, nil)
  /// The caller's decoder for the batches it decodes while the helper is busy.
  private let callerDecoder: LineDecoder

  /// Starts decoding the actions of `seqs` with `coder` (and `Action`'s own decoding, `direct`)
  /// on a helper thread (``PrefetchThreads``), in batches of `batchSize` seqs; the caller
  /// decodes its share with `callerDecoder` (its timeline's, for `coder` and the log's limits).
  init(
    log: ReplayLog, coder: LogCoder = .rewind, direct: JSONDirectCoding.Decode<Action>? = nil,
    seqs: ClosedRange<Int>, batchSize: Int, callerDecoder: LineDecoder
  ) {
    self.log = log
    self.coder = coder
    self.direct = direct
    self.seqs = seqs
    self.batchSize = max(1, batchSize)
    batchCount = (seqs.count + self.batchSize - 1) / self.batchSize
    self.callerDecoder = callerDecoder
    PrefetchThreads.run { [self] decoder in
      decodeAsHelper(with: decoder(coder, log.limits.json))
    }
  }

  /// Stops the helper (it finishes the batch it is on); call it when the rebuild ends, however
  /// it ends.
  func cancel() {
    condition.lock()
    cancelled = true
    condition.broadcast()
    condition.unlock()
  }

  /// Moves the decoded action `seq` into `slot` (uninitialized before, initialized after a
  /// non-`nil` return), waiting for the helper if need be; `nil` when the caller is to decode it
  /// (its batch was unclaimed, or the line could not be decoded fast). Call it with increasing
  /// seqs, from one thread.
  func take(_ seq: Int, into slot: UnsafeMutablePointer<Action>) -> LineDecoder.LineInfo? {
    guard seqs.contains(seq) else { return nil }
    let offset = seq - seqs.lowerBound
    let batch = offset / batchSize
    if current.batch != batch { current = (batch, claimOrCollect(batch)) }
    guard let items = current.items else { return nil }
    return items.take(offset - batch * batchSize, into: slot)
  }

  /// The decoded actions of `batch`, or `nil` after claiming it for the caller to decode inline.
  private func claimOrCollect(_ batch: Int) -> Batch? {
    condition.lock()
    defer { condition.unlock() }
    callerBatch = batch
    condition.broadcast()
    while true {
      if let items = ready.removeValue(forKey: batch) { return items }
      if nextUnclaimed <= batch {
        nextUnclaimed = batch + 1
        return nil
      }
      // The helper is decoding this batch: decode the next unclaimed one meanwhile.
      if nextUnclaimed < batchCount && nextUnclaimed <= batch + Self.callerAheadLimit {
        let next = nextUnclaimed
        nextUnclaimed += 1
        condition.unlock()
        let items = decode(next, with: callerDecoder)
        condition.lock()
        ready[next] = items
        continue
      }
      condition.wait()
    }
  }

  private func decodeAsHelper(with decoder: LineDecoder) {
    condition.lock()
    defer { condition.unlock() }
    while !cancelled && nextUnclaimed < batchCount {
      let batch = nextUnclaimed
      guard batch <= callerBatch + Self.aheadLimit else {
        condition.wait()
        continue
      }
      nextUnclaimed += 1
      condition.unlock()
      let items = decode(batch, with: decoder)
      condition.lock()
      ready[batch] = items
      condition.broadcast()
    }
  }

  /// Decodes every action of `batch` that decodes straight from its line.
  private func decode(_ batch: Int, with decoder: LineDecoder) -> Batch {
    let first = seqs.lowerBound + batch * batchSize
    let last = min(first + batchSize - 1, seqs.upperBound)
    return Batch(first...last, of: log, with: decoder, direct: direct)
  }
}
