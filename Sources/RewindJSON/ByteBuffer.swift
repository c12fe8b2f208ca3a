import Foundation

/// A growable run of bytes written through a plain pointer: no uniqueness or bounds check per
/// append, which an `[UInt8]` pays on every small `append` (the recorder assembles each line from
/// a dozen short pieces). Reused from one line to the next; not thread-safe.
@usableFromInline package final class ByteBuffer {
  @usableFromInline struct State {
    @usableFromInline var base: UnsafeMutablePointer<UInt8>
    @usableFromInline var count: Int
    @usableFromInline var capacity: Int

    @usableFromInline init(base: UnsafeMutablePointer<UInt8>, count: Int, capacity: Int) {
      (self.base, self.count, self.capacity) = (base, count, capacity)
    }
  }

  // Behind a pointer held in a `let`: no exclusivity check per access, as a stored `var` of a
  // class would cost.
  @usableFromInline let state: UnsafeMutablePointer<State>

  /// An empty buffer with room for `capacity` bytes.
  package init(capacity: Int = 256) {
    let capacity = max(16, capacity)
    state = .allocate(capacity: 1)
    state.initialize(to: State(base: .allocate(capacity: capacity), count: 0, capacity: capacity))
  }

  deinit {
    state.pointee.base.deallocate()
    state.deinitialize(count: 1)
    state.deallocate()
  }

  /// How many bytes were written.
  @inlinable package var count: Int { state.pointee.count }

  /// Whether nothing was written.
  @inlinable package var isEmpty: Bool { state.pointee.count == 0 }

  /// The bytes written, valid until the next change.
  @inlinable package var bytes: UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(start: state.pointee.base, count: state.pointee.count)
  }

  /// The bytes written, as an array.
  package var array: [UInt8] { Array(bytes) }

  /// Forgets the bytes, keeping the memory.
  @inlinable package func removeAll() { state.pointee.count = 0 }

  /// Removes the last `count` bytes (at most all of them).
  @inlinable package func dropLast(_ count: Int) {
    state.pointee.count -= min(max(0, count), state.pointee.count)
  }

  /// Appends one byte.
  @inlinable @inline(__always) package func append(_ byte: UInt8) {
    if state.pointee.count == state.pointee.capacity { grow(toHold: 1) }
    state.pointee.base[state.pointee.count] = byte
    state.pointee.count &+= 1
  }

  /// Appends `bytes`.
  @inlinable @inline(__always) package func append(_ bytes: UnsafeRawBufferPointer) {
    guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
    if state.pointee.capacity &- state.pointee.count < bytes.count { grow(toHold: bytes.count) }
    (state.pointee.base + state.pointee.count).update(
      from: source.assumingMemoryBound(to: UInt8.self), count: bytes.count)
    state.pointee.count &+= bytes.count
  }

  /// Appends the bytes of `text`.
  @inlinable @inline(__always) package func append(_ text: StaticString) {
    text.withUTF8Buffer { append(UnsafeRawBufferPointer($0)) }
  }

  /// Appends `bytes`.
  @inlinable package func append(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { append($0) }
  }

  /// Makes room for `count` more bytes and returns where they go; ``commit(_:)`` then counts
  /// those written.
  @inlinable @inline(__always) package func reserve(_ count: Int) -> UnsafeMutablePointer<UInt8> {
    if state.pointee.capacity &- state.pointee.count < count { grow(toHold: count) }
    return state.pointee.base + state.pointee.count
  }

  /// Counts `count` bytes written where ``reserve(_:)`` said.
  @inlinable @inline(__always) package func commit(_ count: Int) {
    state.pointee.count &+= count
  }

  /// Appends the decimal digits of `value`, as `String(value)` spells them.
  @inlinable @inline(__always) package func appendDecimal(_ value: UInt64) {
    let count = DecimalDigits.count(value)
    DecimalDigits.write(value, count: count, to: UnsafeMutableRawPointer(reserve(count)))
    commit(count)
  }

  /// Appends `text` as a quoted JSON string, escaped as ``JSONWriter`` escapes it: copied as it
  /// is when it needs no escape (the common case), else through ``JSONWriter``.
  @inlinable package func appendJSONString(_ text: String) {
    let copied = text.utf8.withContiguousStorageIfAvailable { utf8 -> Bool in
      guard let base = utf8.baseAddress else {
        append(#""""#)
        return true
      }
      return appendQuotedIfPlain(base, count: utf8.count)
    }
    if copied != true { appendEscaping(text) }
  }

  /// Appends `text` quoted and escaped by ``JSONWriter``.
  @usableFromInline func appendEscaping(_ text: String) {
    var escaped: [UInt8] = []
    JSONWriter.appendString(text, to: &escaped)
    append(escaped)
  }

  /// Appends the `count` bytes at `start` in quotes, when none of them needs an escape in a JSON
  /// string (a control character, a quote or a backslash); else appends nothing and returns
  /// `false`. Copies and checks in one pass, eight bytes at a time.
  @inlinable @inline(__always)
  package func appendQuotedIfPlain(_ start: UnsafePointer<UInt8>, count: Int) -> Bool {
    let destination = reserve(count &+ 2)
    guard Self.copyIfPlain(start, count: count, to: destination + 1) else { return false }
    destination[0] = 0x22
    destination[count &+ 1] = 0x22
    commit(count &+ 2)
    return true
  }

  /// Copies the `count` bytes at `source` to `destination` when none needs an escape in a JSON
  /// string; returns `false` when one does (what was copied by then is garbage to overwrite).
  @inlinable @inline(__always)
  static func copyIfPlain(
    _ source: UnsafePointer<UInt8>, count: Int, to destination: UnsafeMutablePointer<UInt8>
  ) -> Bool {
    let from = UnsafeRawPointer(source)
    let to = UnsafeMutableRawPointer(destination)
    if count >= 8 {
      var offset = 0
      while offset &+ 8 <= count {
        let word = from.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        if needsEscape(word) { return false }
        to.storeBytes(of: word, toByteOffset: offset, as: UInt64.self)
        offset &+= 8
      }
      if offset < count {
        // The last eight bytes, overlapping those already copied.
        let last = count &- 8
        let word = from.loadUnaligned(fromByteOffset: last, as: UInt64.self)
        if needsEscape(word) { return false }
        to.storeBytes(of: word, toByteOffset: last, as: UInt64.self)
      }
      return true
    }
    if count >= 4 {
      // The first four and the last four bytes (overlapping when fewer than eight), checked as
      // one word.
      let head = from.loadUnaligned(as: UInt32.self)
      let tail = from.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
      if needsEscape(UInt64(head) | UInt64(tail) &<< 32) { return false }
      to.storeBytes(of: head, as: UInt32.self)
      to.storeBytes(of: tail, toByteOffset: count &- 4, as: UInt32.self)
      return true
    }
    var offset = 0
    while offset < count {
      let byte = source[offset]
      if needsEscape(byte) { return false }
      destination[offset] = byte
      offset &+= 1
    }
    return true
  }

  /// Whether a byte of `word` is below 0x20, a quote or a backslash (exact for ASCII; bytes from
  /// 0x80 never match).
  @inlinable @inline(__always) static func needsEscape(_ word: UInt64) -> Bool {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let quotes = word ^ (ones &* 0x22)
    let backslashes = word ^ (ones &* 0x5C)
    let below = (word &- ones &* 0x20) & ~word
    let quote = (quotes &- ones) & ~quotes
    let backslash = (backslashes &- ones) & ~backslashes
    return (below | quote | backslash) & 0x8080_8080_8080_8080 != 0
  }

  /// Whether `byte` needs an escape in a JSON string.
  @inlinable @inline(__always) static func needsEscape(_ byte: UInt8) -> Bool {
    byte < 0x20 || byte == 0x22 || byte == 0x5C
  }

  @usableFromInline @inline(never)
  func grow(toHold extra: Int) {
    var capacity = state.pointee.capacity
    while capacity &- state.pointee.count < extra { capacity &*= 2 }
    let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    larger.update(from: state.pointee.base, count: state.pointee.count)
    state.pointee.base.deallocate()
    state.pointee.base = larger
    state.pointee.capacity = capacity
  }
}
