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

  /// Appends the decimal digits of `value`, zero-padded to `width` digits, as `String(value)`
  /// spells them when `width` is 1.
  @inlinable package func appendDecimal(_ value: UInt64, width: Int = 1) {
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
    var count = 0
    var rest = value
    Swift.withUnsafeMutableBytes(of: &digits) { buffer in
      repeat {
        buffer[23 &- count] = UInt8(truncatingIfNeeded: rest % 10) &+ 0x30
        count &+= 1
        rest /= 10
      } while rest > 0 || count < min(width, 20)
      append(UnsafeRawBufferPointer(rebasing: buffer[(24 &- count)...]))
    }
  }

  /// Appends `text` as a quoted JSON string, escaped as ``JSONWriter`` escapes it: copied as it
  /// is when it needs no escape (the common case), else through ``JSONWriter``.
  @inlinable package func appendJSONString(_ text: String) {
    var text = text
    let copied = text.withUTF8 { utf8 -> Bool in
      guard let base = utf8.baseAddress else {
        append(#""""#)
        return true
      }
      guard Self.isPlainJSONText(base, count: utf8.count) else { return false }
      append(0x22 as UInt8)
      append(UnsafeRawBufferPointer(utf8))
      append(0x22 as UInt8)
      return true
    }
    if !copied { appendEscaping(text) }
  }

  /// Appends `text` quoted and escaped by ``JSONWriter``.
  @usableFromInline func appendEscaping(_ text: String) {
    var escaped: [UInt8] = []
    JSONWriter.appendString(text, to: &escaped)
    append(escaped)
  }

  /// Whether the `count` bytes at `start` need no escape in a JSON string (no control character,
  /// quote or backslash), checked eight bytes at a time.
  @inlinable package static func isPlainJSONText(_ start: UnsafePointer<UInt8>, count: Int) -> Bool
  {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highBits: UInt64 = 0x8080_8080_8080_8080
    /// A byte of `word` is below 0x20, a quote or a backslash (exact for ASCII; bytes from 0x80
    /// never match).
    @inline(__always) func needsEscape(_ word: UInt64) -> Bool {
      let quotes = word ^ (ones &* 0x22)
      let backslashes = word ^ (ones &* 0x5C)
      let below = (word &- ones &* 0x20) & ~word
      let quote = (quotes &- ones) & ~quotes
      let backslash = (backslashes &- ones) & ~backslashes
      return (below | quote | backslash) & highBits != 0
    }
    let raw = UnsafeRawPointer(start)
    var offset = 0
    while offset &+ 8 <= count {
      if needsEscape(raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) { return false }
      offset &+= 8
    }
    while offset < count {
      let byte = start[offset]
      if byte < 0x20 || byte == 0x22 || byte == 0x5C { return false }
      offset &+= 1
    }
    return true
  }

  /// Calls `body` with the bytes written, mutable (for a checksum written into its place).
  package func withUnsafeMutableBytes<R>(_ body: (UnsafeMutableRawBufferPointer) -> R) -> R {
    body(UnsafeMutableRawBufferPointer(start: state.pointee.base, count: state.pointee.count))
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
