/// The decimal digits of unsigned integers, written two at a time from a table: every integer
/// Rewind writes (a log line's `seq` and `time`, JSON numbers) goes through here, in the text
/// `String(value)` gives.
@usableFromInline package enum DecimalDigits {
  /// `"00" "01" … "99"`: the two digits of every number below 100, read from a string literal's
  /// bytes (no allocation, no lazy initialisation, no bounds check).
  // swift-format-ignore
  @usableFromInline static let pairs: StaticString = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

  /// How many digits `value` has (1 for 0).
  @inlinable @inline(__always) package static func count(_ value: UInt64) -> Int {
    var count = 1
    var rest = value
    while rest >= 100 {
      count &+= 2
      rest /= 100
    }
    return rest >= 10 ? count &+ 1 : count
  }

  /// Writes `value`, below 1,000,000, as six digits with leading zeros at `destination` (the
  /// microseconds of a log line's `time`): three pairs from the table, no loop.
  @inlinable @inline(__always)
  package static func writeSix(_ value: UInt64, to destination: UnsafeMutableRawPointer) {
    let table = UnsafeRawPointer(pairs.utf8Start)
    let (high, low) = value.quotientAndRemainder(dividingBy: 100)
    let (first, middle) = high.quotientAndRemainder(dividingBy: 100)
    @inline(__always) func pair(_ pair: UInt64, at offset: Int) {
      destination.storeBytes(
        of: table.loadUnaligned(
          fromByteOffset: Int(truncatingIfNeeded: pair) &* 2, as: UInt16.self),
        toByteOffset: offset, as: UInt16.self)
    }
    pair(first % 100, at: 0)
    pair(middle, at: 2)
    pair(low, at: 4)
  }

  /// Writes the `count` digits of `value` at `destination`; `count` is ``count(_:)`` of
  /// `value`, or more for leading zeros (never fewer).
  @inlinable @inline(__always)
  package static func write(_ value: UInt64, count: Int, to destination: UnsafeMutableRawPointer) {
    let table = UnsafeRawPointer(pairs.utf8Start)
    var rest = value
    var end = count
    while rest >= 100 {
      let pair = Int(truncatingIfNeeded: rest % 100)
      rest /= 100
      end &-= 2
      destination.storeBytes(
        of: table.loadUnaligned(fromByteOffset: pair &* 2, as: UInt16.self), toByteOffset: end,
        as: UInt16.self)
    }
    if rest >= 10 {
      let pair = Int(truncatingIfNeeded: rest)
      end &-= 2
      destination.storeBytes(
        of: table.loadUnaligned(fromByteOffset: pair &* 2, as: UInt16.self), toByteOffset: end,
        as: UInt16.self)
    } else {
      end &-= 1
      destination.storeBytes(
        of: 0x30 &+ UInt8(truncatingIfNeeded: rest), toByteOffset: end, as: UInt8.self)
    }
    while end > 0 {
      end &-= 1
      destination.storeBytes(of: 0x30, toByteOffset: end, as: UInt8.self)
    }
  }
}
