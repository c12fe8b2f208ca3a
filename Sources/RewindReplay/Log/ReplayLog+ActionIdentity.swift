import Rewind
import RewindJSON

/// The identities of a log's actions, in seq order: for each, the hash of its identity's bytes
/// (``ActionIdentityTable/hash(_:)``) and where those bytes are — 16 bytes an action, kept as
/// two arrays, so that the alignment reads the hashes alone.
///
/// An action's identity is its compact JSON text (its type and value; not its seq or time), or
/// `skipped:TYPE:REASON` and `missing` for actions that were not recorded
/// (``ReplayLog/actionIdentities()``). Opening a log with
/// `identifiesActions` finds most of them in the indexer's own pass, while each line is in cache
/// (``identify(line:at:isRecorderLayout:verifiedSeq:limits:document:)``); the rest — actions
/// that must be decoded, skipped and missing seqs — are left for
/// ``ReplayLog/actionIdentities()``.
struct ActionIdentities: Sendable {
  /// Each action's hash; meaningless where ``places`` says ``unidentified``.
  private(set) var hashes: [Int] = []
  /// Where each action's bytes are: `start << countBits | count` in the log's buffer, or
  /// ``ownedFlag`` `| i` for ``owned``'s `i`th, or ``unidentified``.
  private(set) var places: [UInt64] = []
  /// Bytes made for identities that are not in the log.
  private var owned: [[UInt8]] = []
  /// The indexes whose place is ``unidentified``, ascending.
  private(set) var unidentifiedIndexes: [Int] = []
  /// ``ActionIdentityTable/seed``, read once.
  private let seed = ActionIdentityTable.seed

  private static let countBits: UInt64 = 23
  private static let countMask: UInt64 = 1 << countBits - 1
  private static let ownedFlag: UInt64 = 1 << 63
  private static let unidentified = UInt64.max
  /// The largest start kept in a place (1 TiB: a log is read into memory whole).
  private static let startLimit = 1 << 40

  /// No identities.
  init() {}

  /// `count` identities, none found yet.
  init(unidentified count: Int) {
    hashes = [Int](repeating: 0, count: count)
    places = [UInt64](repeating: Self.unidentified, count: count)
    unidentifiedIndexes = Array(0..<count)
  }

  /// How many actions there are.
  var count: Int { hashes.count }

  /// Makes room for `count` identities.
  mutating func reserveCapacity(_ count: Int) {
    hashes.reserveCapacity(count)
    places.reserveCapacity(count)
  }

  /// Adds the next action's identity from its line: the bytes of its `action` as
  /// ``ReplayLog/identityText(ofActionLine:isRecorderLayout:verifiedSeq:limits:document:)``
  /// finds them, or unidentified when the action must be decoded. `start` is the line's offset in
  /// the log's buffer.
  mutating func identify(
    line: UnsafeRawBufferPointer, at start: Int, isRecorderLayout: Bool, verifiedSeq: Int?,
    limits: JSONLimits, document: inout JSONTapeDocument?
  ) {
    if let text = ReplayLog.identityText(
      ofActionLine: line, isRecorderLayout: isRecorderLayout, verifiedSeq: verifiedSeq,
      limits: limits, document: &document),
      let textStart = text.baseAddress, let lineStart = line.baseAddress
    {
      let offset = start + (textStart - lineStart)
      if offset < Self.startLimit, UInt64(text.count) <= Self.countMask {
        hashes.append(ActionIdentityTable.hash(text, seed: seed))
        places.append(UInt64(offset) << Self.countBits | UInt64(text.count))
        return
      }
    }
    appendUnidentified()
  }

  /// Adds the next action's identity, to be found later (an action that must be decoded, a
  /// skipped or missing seq).
  mutating func appendUnidentified() {
    unidentifiedIndexes.append(hashes.count)
    hashes.append(0)
    places.append(Self.unidentified)
  }

  /// Sets the identity at `index` to `text`, which is in `log`'s buffer (kept as a place when it
  /// fits in one, else copied).
  fileprivate mutating func set(
    _ index: Int, borrowing text: UnsafeRawBufferPointer, in log: ReplayLog
  ) {
    if let textStart = text.baseAddress, let base = log.bytes.memory.baseAddress,
      textStart - base < Self.startLimit, UInt64(text.count) <= Self.countMask
    {
      hashes[index] = ActionIdentityTable.hash(text)
      places[index] = UInt64(textStart - base) << Self.countBits | UInt64(text.count)
    } else {
      set(index, owning: Array(text))
    }
  }

  /// Sets the identity at `index` to `bytes`.
  fileprivate mutating func set(_ index: Int, owning bytes: [UInt8]) {
    hashes[index] = bytes.withUnsafeBytes { ActionIdentityTable.hash($0) }
    places[index] = Self.ownedFlag | UInt64(owned.count)
    owned.append(bytes)
  }

  /// Marks every identity found (``ReplayLog/actionIdentities()`` has set the rest).
  fileprivate mutating func clearUnidentified() {
    unidentifiedIndexes = []
  }

  /// Calls `body` with the bytes of the identity at `index` (one found) of `log`'s actions.
  func withBytes<R>(_ index: Int, in log: ReplayLog, _ body: (UnsafeRawBufferPointer) -> R) -> R {
    let place = places[index]
    if place & Self.ownedFlag != 0 {
      return owned[Int(truncatingIfNeeded: place & ~Self.ownedFlag)].withUnsafeBytes(body)
    }
    let start = Int(truncatingIfNeeded: place >> Self.countBits)
    return body(log.bytes.slice(start, start + Int(truncatingIfNeeded: place & Self.countMask)))
  }

  /// Whether the identity at `index` is bytes in the log (not a copy).
  func isBorrowed(_ index: Int) -> Bool { places[index] & Self.ownedFlag == 0 }
}

extension ReplayLog {
  /// The bytes of the action of an action line, as its identity, when they can be taken from
  /// the line: compact JSON text in the line, else `nil` (the action must be decoded).
  ///
  /// A line whose checksum matches and whose layout is the recorder's (`isRecorderLayout`) is
  /// taken as the recorder wrote it — compact JSON, as opening the log already assumed when it
  /// checked no more than its nesting — so its identity is its `action`'s bytes, unparsed
  /// (``recordedPayload(_:from:)``, searched from after the seq when the indexer read it,
  /// `verifiedSeq`); its JSON is checked when its action is decoded (comparing states, printing
  /// a hunk). Other lines are parsed, with `document` (made when first needed), and their
  /// `action` taken when its text is compact.
  /// - Complexity: O(length of the line).
  static func identityText(
    ofActionLine line: UnsafeRawBufferPointer, isRecorderLayout: Bool, verifiedSeq: Int? = nil,
    limits: JSONLimits, document: inout JSONTapeDocument?
  ) -> UnsafeRawBufferPointer? {
    if isRecorderLayout,
      let payload = recordedPayload(
        line, from: verifiedSeq.map(RecordPeek.endOfActionSeq) ?? LogLine.bodyOffset)
    {
      return UnsafeRawBufferPointer(rebasing: line[payload])
    }
    let tape = document ?? JSONTapeDocument(limits: limits)
    document = tape
    if let layout = ActionLineLayout(line, limits: limits) {
      if tape.load(
        UnsafeRawBufferPointer(rebasing: line[layout.payload]), depth: layout.depth,
        elements: layout.elements), tape.isCompact
      {
        return tape.text(at: tape.root)
      }
    } else if tape.load(line), tape.isCompact,
      let payload = tape.member("action", of: tape.root)
    {
      return tape.text(at: payload)
    }
    return nil
  }

  /// The identity of the action `seq` when it is not in the line as compact JSON
  /// (``identityText(ofActionLine:isRecorderLayout:verifiedSeq:limits:document:)``): its decoded
  /// payload's compact JSON text, or `skipped:TYPE:REASON`, or `missing`.
  /// - Throws: As ``action(at:)``, for a line that is not valid JSON or lacks an `action`.
  private func decodedActionIdentity(_ seq: Int) throws(ReplayError) -> [UInt8] {
    let action = try action(at: seq)
    let text: String
    switch action.status {
    case .recorded: text = action.payload?.jsonText ?? ""
    case .skipped(let reason): text = "skipped:\(action.type ?? ""):\(reason)"
    case .missing: text = "missing"
    }
    return Array(text.utf8)
  }

  /// Where the `action` of a line the recorder wrote is (its checksum matched and its start is
  /// the recorder's): after the first `,"action":` — which cannot occur inside a JSON string,
  /// where a quote is always escaped — and before the closing `}` or `,"sanitized":true}`.
  /// `nil` when the line is not laid out that way; the caller checks it the long way.
  ///
  /// - Parameter offset: Where the search starts: the body (after the checksum), or any later
  ///   offset before which the line is known to hold no `,"action":`.
  /// - Complexity: O(offset of the key − `offset`): the recorder's members before the key are
  ///   stepped over, anything else searched a byte at a time (the key is a few dozen bytes in: a
  ///   `memchr` call per comma cost more).
  static func recordedPayload(
    _ line: UnsafeRawBufferPointer, from offset: Int = LogLine.bodyOffset
  ) -> Range<Int>? {
    let key: StaticString = #","action":"#
    let keyLength = key.utf8CodeUnitCount
    let count = line.count
    guard offset >= 0, count >= keyLength + 1 else { return nil }
    var comma = offset
    // The recorder's `,"time":T,"type":"NAME"` are stepped over rather than searched: a number's
    // characters, then a string past its closing quote (neither holds `,"action":`).
    if RecordPeek.matches(#","time":"#, in: line, at: comma) {
      comma += 8
      while comma < count, Self.isNumberCharacter(line[comma]) { comma += 1 }
    }
    if RecordPeek.matches(#","type":""#, in: line, at: comma) {
      comma = JSONScan.afterString(in: line, at: comma + 8)
    }
    let lastStart = count - keyLength
    while comma <= lastStart {
      if line[comma] == UInt8(ascii: ","), RecordPeek.matches(key, in: line, at: comma) {
        let start = comma + keyLength
        let sanitized: StaticString = #","sanitized":true}"#
        let suffix = sanitized.utf8CodeUnitCount
        var end = count - 1
        if count - suffix >= start, RecordPeek.matches(sanitized, in: line, at: count - suffix) {
          end = count - suffix
        }
        guard end > start, line[count - 1] == UInt8(ascii: "}") else { return nil }
        return start..<end
      }
      comma += 1
    }
    return nil
  }

  /// Whether `byte` can be part of a JSON number.
  @inline(__always)
  private static func isNumberCharacter(_ byte: UInt8) -> Bool {
    byte &- UInt8(ascii: "0") < 10 || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e")
      || byte == UInt8(ascii: "E") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
  }

  /// The identity of every action, in seq order: those the open found (opened with
  /// `identifiesActions`), the rest found here — from the line when its action is compact JSON
  /// in it, else by decoding it (``decodedActionIdentity(_:)``).
  /// - Throws: As ``action(at:)``, for a line that is not valid JSON or lacks an `action`.
  /// - Complexity: O(total length of the lines of the actions the open did not identify).
  func actionIdentities() throws(ReplayError) -> ActionIdentities {
    var identities = identitiesFromOpen ?? ActionIdentities(unidentified: actionCount)
    guard !identities.unidentifiedIndexes.isEmpty else { return identities }
    var document: JSONTapeDocument?
    for index in identities.unidentifiedIndexes {
      let seq = firstSeq + index
      if let entry = entry(seq: seq), entry.kind == .action,
        let text = Self.identityText(
          ofActionLine: bytes.slice(entry.start, entry.start + entry.length),
          isRecorderLayout: entry.isRecorderLayout, limits: limits.json, document: &document)
      {
        identities.set(index, borrowing: text, in: self)
      } else {
        identities.set(index, owning: try decodedActionIdentity(seq))
      }
    }
    identities.clearUnidentified()
    return identities
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
  static let seed: UInt64 = {
    var hasher = Hasher()
    hasher.combine(0x5265_7769_6E64 as UInt64)
    return UInt64(truncatingIfNeeded: hasher.finalize()) | 1
  }()

  /// The hash of `bytes` with the process's ``seed``.
  static func hash(_ bytes: UnsafeRawBufferPointer) -> Int {
    hash(bytes, seed: seed)
  }

  /// A seeded multiply-and-fold hash over sixteen bytes at a time (each half mixed with the
  /// state or the seed, the two multiplied, the product's halves folded: wyhash's step): action
  /// payloads are short, and this costs a tenth of `Hasher`'s SipHash on them. `seed` is
  /// ``seed``, passed in by a caller that hashes many (reading a `static let` checks that it is
  /// set, at every call).
  @inline(__always)
  static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64) -> Int {
    let count = bytes.count
    var state = seed ^ (UInt64(count) &* 0x9E37_79B9_7F4A_7C15)
    let key = seed ^ 0xA076_1D64_78BD_642F
    @inline(__always) func mix(_ a: UInt64, _ b: UInt64) {
      let product = (state ^ a).multipliedFullWidth(by: b ^ key)
      state = product.high ^ product.low
    }
    guard let base = bytes.baseAddress else {
      mix(0, 0xE703_7ED1_A0B4_28DB)
      return Int(truncatingIfNeeded: state)
    }
    @inline(__always) func word(_ offset: Int) -> UInt64 {
      base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
    }
    var offset = 0
    while offset + 16 <= count {
      mix(word(offset), word(offset + 8))
      offset += 16
    }
    // The last 1 to 15 bytes: as words that may overlap those before (the count is hashed).
    if count - offset > 8 {
      mix(word(offset), word(count - 8))
    } else if count >= 8 {
      mix(word(count - 8), 0xE703_7ED1_A0B4_28DB)
    } else {
      var tail: UInt64 = 0
      for index in 0..<count {
        tail |= UInt64(base.load(fromByteOffset: index, as: UInt8.self)) << UInt64(index * 8)
      }
      mix(tail, 0xE703_7ED1_A0B4_28DB)
    }
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
