/// Text written into a fixed buffer without allocating, for signal handlers (the crash
/// reporter's note of `replay`, the recorder's fatal-signal line): the caller makes sure the
/// buffer has room.
package enum SignalSafeText {
  /// Copies `text` at `cursor` and moves past it.
  @inline(__always)
  package static func put(_ text: StaticString, at cursor: inout UnsafeMutablePointer<UInt8>) {
    let count = text.utf8CodeUnitCount
    cursor.update(from: text.utf8Start, count: count)
    cursor += count
  }

  /// Writes `value` in decimal (at most 20 characters and a sign) at `cursor` and moves past it.
  package static func putDecimal(_ value: Int, at cursor: inout UnsafeMutablePointer<UInt8>) {
    if value < 0 {
      cursor.pointee = UInt8(ascii: "-")
      cursor += 1
    }
    var rest = value.magnitude
    var digits = 1
    var scale: UInt = 10
    while digits < 20 && rest >= scale {
      digits += 1
      scale = scale &* 10
    }
    var position = cursor + digits
    cursor = position
    repeat {
      position -= 1
      position.pointee = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
      rest /= 10
    } while rest > 0
  }

  /// Writes the low `digits` hexadecimal digits of `value`, lowercase, at `cursor`.
  package static func putHex(
    _ value: UInt64, digits: Int, at cursor: inout UnsafeMutablePointer<UInt8>
  ) {
    for index in stride(from: digits - 1, through: 0, by: -1) {
      let nibble = UInt8(truncatingIfNeeded: value >> UInt64(index * 4)) & 0xF
      cursor.pointee = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
      cursor += 1
    }
  }
}
