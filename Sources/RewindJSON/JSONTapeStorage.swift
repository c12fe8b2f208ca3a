/// The memory of a tape: its entries and the stack of open containers, kept between documents
/// and written through plain pointers (no bounds or uniqueness checks per value).
struct JSONTapeStorage {
  private(set) var entries: UnsafeMutablePointer<JSONTapeEntry>
  private(set) var capacity: Int
  private(set) var stack: UnsafeMutablePointer<Int>
  private(set) var stackCapacity: Int
  private(set) var count = 0
  /// The hashes of the keys (as Swift strings) of each open object that has too many members
  /// for a linear duplicate check, by the object's entry index: 8 bytes a key, where the keys
  /// themselves would cost a `String` each.
  var keySets: [Int: Set<UInt64>] = [:]

  init() {
    capacity = 64
    entries = .allocate(capacity: capacity)
    stackCapacity = 16
    stack = .allocate(capacity: stackCapacity)
  }

  /// Frees the memory; the storage is unusable afterwards.
  func deallocate() {
    entries.deallocate()
    stack.deallocate()
  }

  /// Forgets the entries, keeping the memory — unless a huge document made it huge: a reader
  /// kept for a session (a timeline's line decoder) must not hold on to hundreds of MiB after
  /// one large line.
  mutating func removeAll() {
    count = 0
    if !keySets.isEmpty { keySets.removeAll() }
    if capacity > Self.keptCapacity {
      entries.deallocate()
      capacity = 64
      entries = .allocate(capacity: capacity)
    }
  }

  /// The most entries kept between documents: 1 Mi entries, 32 MiB.
  static let keptCapacity = 1 << 20

  /// Gives back most of a large tape that a document uses little of: one whose long array was
  /// left in its text (``JSONTapeEntry/isLazy``) after filling up to a million entries, 32 MiB,
  /// which would otherwise stay held while its values are decoded from the text.
  mutating func shrinkIfMostlyUnused() {
    guard capacity > Self.shrunkCapacity, count < capacity / 4 else { return }
    // Only then: a tape that is merely smaller than the last one keeps its room for the next.
    guard UnsafeBufferPointer(start: entries, count: count).contains(where: \.isLazy) else {
      return
    }
    let kept = max(count, Self.shrunkCapacity)
    let smaller = UnsafeMutablePointer<JSONTapeEntry>.allocate(capacity: kept)
    smaller.update(from: entries, count: count)
    entries.deallocate()
    entries = smaller
    capacity = kept
  }

  /// What a tape used little of keeps: 64 Ki entries, 2 MiB.
  static let shrunkCapacity = 1 << 16

  /// Appends an entry and returns its index.
  @inline(__always)
  @discardableResult
  mutating func append(_ entry: JSONTapeEntry) -> Int {
    if count == capacity { grow() }
    entries[count] = entry
    count &+= 1
    return count &- 1
  }

  /// Sets the stack slot `depth` (one past the top at most).
  @inline(__always)
  mutating func push(_ index: Int, at depth: Int) {
    if depth == stackCapacity { growStack() }
    stack[depth] = index
  }

  /// Forgets the entries from `count` on (which no open container may hold).
  @inline(__always)
  mutating func truncate(to count: Int) {
    self.count = count
  }

  /// Makes room for `entries` entries at least, in one allocation: the pages it does not use
  /// are never touched, so a large document's tape costs the memory of its entries, without the
  /// old and the new copy a doubling holds at once.
  mutating func reserve(_ entries: Int) {
    guard entries > capacity else { return }
    let larger = UnsafeMutablePointer<JSONTapeEntry>.allocate(capacity: entries)
    larger.update(from: self.entries, count: count)
    self.entries.deallocate()
    self.entries = larger
    capacity = entries
  }

  @inline(never)
  private mutating func grow() {
    Self.double(&entries, capacity: &capacity, keeping: count)
  }

  @inline(never)
  private mutating func growStack() {
    Self.double(&stack, capacity: &stackCapacity, keeping: stackCapacity)
  }

  /// Moves the first `kept` elements of `pointer` to a new allocation twice as large.
  private static func double<T>(
    _ pointer: inout UnsafeMutablePointer<T>, capacity: inout Int, keeping kept: Int
  ) {
    let larger = UnsafeMutablePointer<T>.allocate(capacity: capacity * 2)
    larger.update(from: pointer, count: kept)
    pointer.deallocate()
    pointer = larger
    capacity *= 2
  }

  /// The entries read.
  var buffer: UnsafeBufferPointer<JSONTapeEntry> {
    UnsafeBufferPointer(start: entries, count: count)
  }
}
