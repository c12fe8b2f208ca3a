import Dispatch
import Rewind
import RewindJSON

extension ReplayLog {
  /// The identity of one action, before it gets its number: its bytes in the log, or a copy.
  enum ActionIdentity: Sendable {
    /// Bytes in the log's buffer (valid while the log is), and their hash
    /// (``ActionIdentityTable/hash(_:)``, computed on the thread that reads the log).
    case borrowed(start: Int, count: Int, hash: Int)
    /// Bytes made for it (`skipped:…`, `missing`, or a payload that was not compact).
    case owned([UInt8])

    /// The hash of the identity's bytes (``ActionIdentityTable/hash(_:)``).
    var hash: Int {
      switch self {
      case .borrowed(_, _, let hash): return hash
      case .owned(let bytes): return bytes.withUnsafeBytes { ActionIdentityTable.hash($0) }
      }
    }

    /// Calls `body` with the identity's bytes.
    func withBytes<R>(in log: ReplayLog, _ body: (UnsafeRawBufferPointer) -> R) -> R {
      switch self {
      case .borrowed(let start, let count, _): return body(log.bytes.slice(start, start + count))
      case .owned(let bytes): return bytes.withUnsafeBytes(body)
      }
    }
  }

  /// The identity of the action `seq`: its compact JSON text (its type and value; not its seq
  /// or time), or `skipped:TYPE:REASON` and `missing` for actions that were not recorded.
  ///
  /// A line the recorder wrote is already compact, so its identity is the bytes of its `action`
  /// as they are in the file, found without building a ``JSONValue``; other lines are parsed.
  /// A line whose checksum matches and whose layout is the recorder's is taken as the recorder
  /// wrote it — compact JSON, as opening the log already assumed when it checked no more than
  /// its nesting — so its identity is its `action`'s bytes, unparsed; its JSON is checked when
  /// its action is decoded (comparing states, printing a hunk).
  /// - Throws: As ``action(at:)``, for a line that is not valid JSON or lacks an `action`.
  /// - Complexity: O(length of the line).
  func actionIdentity(
    _ seq: Int, using document: JSONTapeDocument
  ) throws(ReplayError) -> ActionIdentity {
    if let entry = entry(seq: seq), entry.kind == .action {
      let line = bytes.slice(entry.start, entry.start + entry.length)
      var text: UnsafeRawBufferPointer?
      if entry.isRecorderLayout, let payload = Self.recordedPayload(line) {
        text = UnsafeRawBufferPointer(rebasing: line[payload])
      } else if let layout = ActionLineLayout(line, limits: limits.json) {
        if document.load(
          UnsafeRawBufferPointer(rebasing: line[layout.payload]), depth: layout.depth,
          elements: layout.elements), document.isCompact
        {
          text = document.text(at: document.root)
        }
      } else if document.load(line), document.isCompact,
        let payload = document.member("action", of: document.root)
      {
        text = document.text(at: payload)
      }
      if let text, let start = text.baseAddress, let base = bytes.buffer.baseAddress {
        return .borrowed(
          start: start - base, count: text.count, hash: ActionIdentityTable.hash(text))
      }
    }
    let action = try action(at: seq)
    let text: String
    switch action.status {
    case .recorded: text = action.payload?.jsonText ?? ""
    case .skipped(let reason): text = "skipped:\(action.type ?? ""):\(reason)"
    case .missing: text = "missing"
    }
    return .owned(Array(text.utf8))
  }

  /// Where the `action` of a line the recorder wrote is (its checksum matched and its start is
  /// the recorder's): after the first `,"action":` — which cannot occur inside a JSON string,
  /// where a quote is always escaped — and before the closing `}` or `,"sanitized":true}`.
  /// `nil` when the line is not laid out that way; the caller checks it the long way.
  static func recordedPayload(_ line: UnsafeRawBufferPointer) -> Range<Int>? {
    let key: StaticString = #","action":"#
    let keyLength = key.utf8CodeUnitCount
    var offset = LogLine.bodyOffset
    while let comma = Platform.firstIndex(of: UInt8(ascii: ","), in: line, from: offset) {
      if RecordPeek.matches(key, in: line, at: comma) {
        let start = comma + keyLength
        let sanitized: StaticString = #","sanitized":true}"#
        let suffix = sanitized.utf8CodeUnitCount
        var end = line.count - 1
        if line.count - suffix >= start,
          RecordPeek.matches(sanitized, in: line, at: line.count - suffix)
        {
          end = line.count - suffix
        }
        guard end > start, line[line.count - 1] == UInt8(ascii: "}") else { return nil }
        return start..<end
      }
      offset = comma + 1
    }
    return nil
  }

  /// The identity of every action, in seq order.
  func actionIdentities() throws(ReplayError) -> [ActionIdentity] {
    guard actionCount > 0 else { return [] }
    let document = JSONTapeDocument(limits: limits.json)
    var identities: [ActionIdentity] = []
    identities.reserveCapacity(actionCount)
    for seq in firstSeq...lastSeq {
      identities.append(try actionIdentity(seq, using: document))
    }
    return identities
  }

  /// The stretches where the actions of two logs differ, once their longest common subsequence
  /// is matched up (``ArrayAlignment``), comparing actions by their identity
  /// (``actionIdentity(_:using:)``).
  ///
  /// The two logs are read at the same time, on two threads, each identity hashed on its log's
  /// thread; the alignment then compares hashes. Equal bytes always hash alike, so only a
  /// collision could match two different actions: every matched pair's bytes are compared
  /// afterwards, and if any differ (a 1 in 2⁶⁴ chance a pair, with a seed drawn per process), the
  /// actions are numbered exactly and aligned again. The errors are those of reading `a` and then
  /// `b` one after the other.
  /// - Throws: The first error of `a`, else the first error of `b`.
  /// - Complexity: O(n) to read the logs, then ``ArrayAlignment/hunks(oldCount:newCount:areEqual:)``.
  static func actionHunks(
    _ a: ReplayLog, _ b: ReplayLog
  ) throws(ReplayError) -> [ArrayAlignment.Hunk] {
    let results = IdentityResults()
    DispatchQueue.concurrentPerform(iterations: 2) { index in
      let log = index == 0 ? a : b
      let result = Result { () throws(ReplayError) in
        let identities = try log.actionIdentities()
        return (identities, identities.map(\.hash))
      }
      results.set(result, at: index)
    }
    let (identitiesA, hashesA) = try results.get(0)
    let (identitiesB, hashesB) = try results.get(1)
    let hunks = ArrayAlignment.hunks(oldCount: hashesA.count, newCount: hashesB.count) {
      hashesA[$0] == hashesB[$1]
    }
    // The matched pairs' bytes compared on both threads, half the pairs each.
    if let runs = matchedRuns(hunks, oldCount: identitiesA.count, newCount: identitiesB.count) {
      let pairs = runs.reduce(0) { $0 + $1.count }
      let mismatches = AtomicWord(0)
      DispatchQueue.concurrentPerform(iterations: 2) { half in
        var skip = half == 0 ? 0 : pairs / 2
        var left = half == 0 ? pairs / 2 : pairs - pairs / 2
        for run in runs where left > 0 {
          guard skip < run.count else {
            skip -= run.count
            continue
          }
          let count = min(run.count - skip, left)
          for offset in skip..<(skip + count) {
            let equal = identitiesA[run.old + offset].withBytes(in: a) { bytesA in
              identitiesB[run.new + offset].withBytes(in: b) { bytesB in
                ActionIdentityTable.equal(bytesA, bytesB)
              }
            }
            if !equal {
              mismatches.store(1)
              return
            }
          }
          left -= count
          skip = 0
        }
      }
      if mismatches.load() == 0 { return hunks }
    }
    let (keysA, keysB) = exactNumbers(identitiesA, in: a, identitiesB, in: b)
    return ArrayAlignment.hunks(oldCount: keysA.count, newCount: keysB.count) {
      keysA[$0] == keysB[$1]
    }
  }

  /// Whether every pair of elements that `hunks` leave matched (before, between and after the
  /// hunks, one for one) in sequences of `oldCount` and `newCount` elements is equal.
  static func matchedPairsAreEqual(
    _ hunks: [ArrayAlignment.Hunk], oldCount: Int, newCount: Int,
    _ areEqual: (_ old: Int, _ new: Int) -> Bool
  ) -> Bool {
    guard let runs = matchedRuns(hunks, oldCount: oldCount, newCount: newCount) else {
      return false
    }
    for run in runs {
      for offset in 0..<run.count where !areEqual(run.old + offset, run.new + offset) {
        return false
      }
    }
    return true
  }

  /// The runs of elements that `hunks` leave matched in sequences of `oldCount` and `newCount`
  /// elements (before, between and after the hunks, one for one), each from `old` and `new` on
  /// for `count` elements; `nil` when a stretch between two hunks is not as long on both sides.
  static func matchedRuns(
    _ hunks: [ArrayAlignment.Hunk], oldCount: Int, newCount: Int
  ) -> [(old: Int, new: Int, count: Int)]? {
    var runs: [(old: Int, new: Int, count: Int)] = []
    var old = 0
    var new = 0
    for hunk in hunks + [ArrayAlignment.Hunk(old: oldCount..<oldCount, new: newCount..<newCount)] {
      let count = hunk.old.lowerBound - old
      guard count >= 0, hunk.new.lowerBound - new == count else { return nil }
      if count > 0 { runs.append((old, new, count)) }
      old = hunk.old.upperBound
      new = hunk.new.upperBound
    }
    return runs
  }

  /// Numbers for the identities of two logs: equal numbers for equal bytes.
  private static func exactNumbers(
    _ identitiesA: [ActionIdentity], in a: ReplayLog, _ identitiesB: [ActionIdentity],
    in b: ReplayLog
  ) -> (a: [Int], b: [Int]) {
    var table = ActionIdentityTable()
    defer { table.deallocate() }
    func numbers(_ identities: [ActionIdentity], in log: ReplayLog) -> [Int] {
      identities.map { identity in
        switch identity {
        case .borrowed(let start, let count, let hash):
          return table.intern(borrowing: log.bytes.slice(start, start + count), hash: hash)
        case .owned(let bytes):
          return table.intern(copying: bytes)
        }
      }
    }
    return (numbers(identitiesA, in: a), numbers(identitiesB, in: b))
  }
}

/// The identities of two logs and their hashes, each written by its own thread.
private final class IdentityResults: Sendable {
  typealias Identities = ([ReplayLog.ActionIdentity], [Int])
  private let slots = Locked<[Result<Identities, ReplayError>?]>([nil, nil])

  func set(_ result: Result<Identities, ReplayError>, at index: Int) {
    slots.withLock { $0[index] = result }
  }

  func get(_ index: Int) throws(ReplayError) -> Identities {
    try (slots.withLock { $0[index] } ?? .success(([], []))).get()
  }
}

/// Numbers for byte strings: the same number for the same bytes, counting up from 0 in the order
/// first seen. Borrowed bytes must outlive the table (they point into an open ``ReplayLog``).
///
/// An open-addressing table over each string's hash, computed once (seeded per process, so
/// crafted logs cannot aim at collisions); a string's number is its index in ``strings``.
struct ActionIdentityTable {
  /// The strings seen, in order, with their hashes.
  private var strings: [(bytes: UnsafeRawBufferPointer, hash: Int)] = []
  /// Slots holding a string's number plus one; 0 is empty. A power of two long.
  private var slots = [Int](repeating: 0, count: 1024)
  /// Copies of bytes that are not in a log, kept alive for the strings that point into them.
  private var owned: [UnsafeMutableRawBufferPointer] = []

  /// How many different identities there are.
  var count: Int { strings.count }

  /// The number of `bytes`, which stay valid as long as the table is used; `hash` is theirs
  /// (``hash(_:)``).
  mutating func intern(borrowing bytes: UnsafeRawBufferPointer, hash: Int) -> Int {
    if let number = find(bytes, hash: hash) { return number }
    return insert(bytes, hash: hash)
  }

  /// The number of `bytes`, copied if they are new.
  mutating func intern(copying bytes: [UInt8]) -> Int {
    let (hash, found) = bytes.withUnsafeBytes { buffer -> (Int, Int?) in
      let hash = Self.hash(buffer)
      return (hash, find(buffer, hash: hash))
    }
    if let found { return found }
    let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, bytes.count), alignment: 1)
    bytes.withUnsafeBytes { copy.copyMemory(from: $0) }
    owned.append(copy)
    return insert(
      UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(copy)[..<bytes.count]), hash: hash)
  }

  /// Frees the copies; the table must not be used afterwards.
  func deallocate() {
    for copy in owned { copy.deallocate() }
  }

  /// A seed drawn once per process, so that crafted logs cannot aim at collisions.
  private static let seed: UInt64 = {
    var hasher = Hasher()
    hasher.combine(0x5265_7769_6E64 as UInt64)
    return UInt64(truncatingIfNeeded: hasher.finalize()) | 1
  }()

  /// A seeded multiply-and-fold hash over eight bytes at a time: action payloads are short, and
  /// this costs a tenth of `Hasher`'s SipHash on them.
  static func hash(_ bytes: UnsafeRawBufferPointer) -> Int {
    var state = seed ^ (UInt64(bytes.count) &* 0x9E37_79B9_7F4A_7C15)
    @inline(__always) func mix(_ word: UInt64) {
      let product = (state ^ word).multipliedFullWidth(by: 0xA076_1D64_78BD_642F)
      state = product.high ^ product.low
    }
    var offset = 0
    let count = bytes.count
    while offset + 8 <= count {
      mix(bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
      offset += 8
    }
    var tail: UInt64 = 0
    var shift: UInt64 = 0
    while offset < count {
      tail |= UInt64(bytes[offset]) << shift
      shift += 8
      offset += 1
    }
    mix(tail ^ 0xE703_7ED1_A0B4_28DB)
    return Int(truncatingIfNeeded: state)
  }

  private func find(_ bytes: UnsafeRawBufferPointer, hash: Int) -> Int? {
    let mask = slots.count - 1
    var slot = hash & mask
    while slots[slot] != 0 {
      let number = slots[slot] - 1
      if strings[number].hash == hash && Self.equal(strings[number].bytes, bytes) { return number }
      slot = (slot + 1) & mask
    }
    return nil
  }

  private mutating func insert(_ bytes: UnsafeRawBufferPointer, hash: Int) -> Int {
    let number = strings.count
    strings.append((bytes, hash))
    if strings.count * 2 > slots.count {
      slots = [Int](repeating: 0, count: slots.count * 2)
      for (index, string) in strings.enumerated() { place(index, hash: string.hash) }
    } else {
      place(number, hash: hash)
    }
    return number
  }

  private mutating func place(_ number: Int, hash: Int) {
    let mask = slots.count - 1
    var slot = hash & mask
    while slots[slot] != 0 { slot = (slot + 1) & mask }
    slots[slot] = number + 1
  }

  static func equal(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
    guard a.count == b.count else { return false }
    var offset = 0
    let count = a.count
    while offset + 8 <= count {
      if a.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        != b.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      {
        return false
      }
      offset += 8
    }
    while offset < count {
      if a[offset] != b[offset] { return false }
      offset += 1
    }
    return true
  }
}
