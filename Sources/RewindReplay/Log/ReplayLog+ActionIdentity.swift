import RewindJSON

extension ReplayLog {
  /// Adds the identity of the action `seq` to `table` and returns its number: equal numbers for
  /// equal actions, in this log or any other interned in the same table.
  ///
  /// The identity is the action's compact JSON text (its type and value; not its seq or time),
  /// or `skipped:TYPE:REASON` and `missing` for actions that were not recorded. A line the
  /// recorder wrote is already compact, so its identity is the bytes of its `action` as they are
  /// in the file, found without building a ``JSONValue``; other lines are parsed.
  /// - Throws: As ``action(at:)``, for a line that is not valid JSON or lacks an `action`.
  /// - Complexity: O(length of the line).
  func internActionIdentity(
    _ seq: Int, in table: inout ActionIdentityTable, using document: JSONTapeDocument
  ) throws(ReplayError) -> Int {
    if let entry = entry(seq: seq), entry.kind == .action {
      let line = bytes.slice(entry.start, entry.start + entry.length)
      if let layout = ActionLineLayout(line, limits: limits.json) {
        if document.load(
          UnsafeRawBufferPointer(rebasing: line[layout.payload]), depth: layout.depth,
          elements: layout.elements), document.isCompact
        {
          return table.intern(borrowing: document.text(at: document.root))
        }
      } else if document.load(line), document.isCompact,
        let payload = document.member("action", of: document.root)
      {
        return table.intern(borrowing: document.text(at: payload))
      }
    }
    let action = try action(at: seq)
    let text: String
    switch action.status {
    case .recorded: text = action.payload?.jsonText ?? ""
    case .skipped(let reason): text = "skipped:\(action.type ?? ""):\(reason)"
    case .missing: text = "missing"
    }
    return table.intern(copying: Array(text.utf8))
  }
}

/// Numbers for byte strings: the same number for the same bytes, counting up from 0 in the order
/// first seen. Borrowed bytes must outlive the table (they point into an open ``ReplayLog``).
///
/// An open-addressing table over each string's hash, computed once (with the process's seeded
/// `Hasher`, so crafted logs cannot make it degrade); a string's number is its index in
/// ``strings``.
struct ActionIdentityTable {
  /// The strings seen, in order, with their hashes.
  private var strings: [(bytes: UnsafeRawBufferPointer, hash: Int)] = []
  /// Slots holding a string's number plus one; 0 is empty. A power of two long.
  private var slots = [Int](repeating: 0, count: 1024)
  /// Copies of bytes that are not in a log, kept alive for the strings that point into them.
  private var owned: [UnsafeMutableRawBufferPointer] = []

  /// How many different identities there are.
  var count: Int { strings.count }

  /// The number of `bytes`, which stay valid as long as the table is used.
  mutating func intern(borrowing bytes: UnsafeRawBufferPointer) -> Int {
    let hash = Self.hash(bytes)
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
    return insert(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(copy)[..<bytes.count]), hash: hash)
  }

  /// Frees the copies; the table must not be used afterwards.
  func deallocate() {
    for copy in owned { copy.deallocate() }
  }

  private static func hash(_ bytes: UnsafeRawBufferPointer) -> Int {
    var hasher = Hasher()
    hasher.combine(bytes: bytes)
    return hasher.finalize()
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

  private static func equal(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
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
