import Foundation
import Rewind

/// The action texts of one log that are known to decode, so that a text seen again is not
/// decoded again: decoding is a function of the text (``ReplayApp``'s types decode the same bytes
/// the same way every time, which replay relies on already), and apps repeat many actions word
/// for word (`{"setFilter":{"_0":"all"}}`, `{"tick":{}}`).
///
/// An open-addressing table of byte ranges inside the log's own buffer, which must outlive it:
/// nothing is copied, and a lookup costs one CRC-32C of the text and, on a hit, one comparison.
/// It stops growing at ``capacity`` texts, so that it stays in the cache of one core: the texts
/// an app repeats most come early, and a log of all-different actions pays only the lookups.
struct DecodedTexts {
  private struct Slot {
    /// Where the text starts, in the log's buffer; `nil` for an empty slot.
    var start: UnsafeRawPointer?
    /// The text's length in bytes.
    var count: UInt32
    /// Its CRC-32C, started from its line's element budget.
    var hash: UInt32
  }

  /// The capacity for one chunk of a log: 4,096 texts (a table of 128 KiB).
  static let chunkCapacity = 4_096

  /// The table: a power of two at least twice ``capacity``, so at most half full.
  private var slots: [Slot]
  /// How many slots hold a text.
  private var used = 0
  /// How many texts it holds at most.
  let capacity: Int

  /// Creates an empty set for at most `capacity` texts.
  init(capacity: Int) {
    self.capacity = max(1, capacity)
    var size = 16
    while size < self.capacity * 2 { size *= 2 }
    slots = Array(repeating: Slot(start: nil, count: 0, hash: 0), count: size)
  }

  /// Where a text was looked for: whether it is known, and else where it would go.
  struct Probe {
    /// Whether the text is known to decode.
    let isKnown: Bool
    /// The slot that holds the text, or the empty one where it would go.
    fileprivate let index: Int
    /// The text's CRC-32C, started from its element budget.
    fileprivate let hash: UInt32
  }

  /// Looks for `text`, counted with `elements` other members of its line.
  func probe(_ text: UnsafeRawBufferPointer, elements: Int) -> Probe {
    let found = find(text, elements: elements)
    return Probe(isKnown: found.found, index: found.index, hash: found.hash)
  }

  /// Remembers that `text`, looked for with `probe` (and nothing inserted since), decodes.
  mutating func insert(_ text: UnsafeRawBufferPointer, elements: Int, at probe: Probe) {
    // A probe from before another insertion may point at a slot taken since: it is ignored.
    guard !probe.isKnown, used < capacity, text.count <= UInt32.max, let start = text.baseAddress,
      slots.indices.contains(probe.index), slots[probe.index].start == nil
    else { return }
    slots[probe.index] = Slot(start: start, count: UInt32(text.count), hash: probe.hash)
    used += 1
  }

  /// The slot that holds `text`, or the empty one where it would go.
  private func find(
    _ text: UnsafeRawBufferPointer, elements: Int
  ) -> (found: Bool, index: Int, hash: UInt32) {
    // The element budget is part of the key, as the CRC's starting value: for the same text,
    // different starting values give different CRCs, so equal texts counted against different
    // budgets never match.
    let hash = CRC32C.update(UInt32(truncatingIfNeeded: elements), text)
    let mask = slots.count - 1
    var index = Int(hash) & mask
    while let start = slots[index].start {
      let slot = slots[index]
      if slot.hash == hash, Int(slot.count) == text.count, let base = text.baseAddress,
        memcmp(start, base, text.count) == 0
      {
        return (true, index, hash)
      }
      index = (index + 1) & mask
    }
    return (false, index, hash)
  }
}
