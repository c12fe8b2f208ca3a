/// CRC-32C (Castagnoli, polynomial 0x1EDC6F41, reflected 0x82F63B78), the checksum of every log
/// line: with the CPU's own CRC-32C instruction where it has one (`CRC32C+Hardware.swift`),
/// else with the slicing-by-16 table method. Both give the same value for every input.
///
/// `CRC32C.checksum("123456789".utf8) == 0xE306_9283` (the standard check value).
package enum CRC32C {
  /// Sixteen 256-entry tables: table 0 is the classic byte-at-a-time table; table k gives the CRC
  /// of a byte followed by k zero bytes, so sixteen bytes are folded in per step.
  private static let tables: [UInt32] = {
    var tables = [UInt32](repeating: 0, count: 16 * 256)
    for byte in 0..<256 {
      var crc = UInt32(byte)
      for _ in 0..<8 { crc = (crc >> 1) ^ (0x82F6_3B78 & (0 &- (crc & 1))) }
      tables[byte] = crc
    }
    for byte in 0..<256 {
      var crc = tables[byte]
      for slice in 1..<16 {
        crc = (crc >> 8) ^ tables[Int(crc & 0xFF)]
        tables[slice * 256 + byte] = crc
      }
    }
    return tables
  }()

  /// The CRC-32C of `bytes`.
  /// - Complexity: O(n), about one table lookup per byte.
  @inline(__always)
  package static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
    update(0, bytes)
  }

  /// The CRC-32C of a byte sequence.
  package static func checksum<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt32 {
    let array = Array(bytes)
    return array.withUnsafeBytes { update(0, $0) }
  }

  /// Continues a CRC-32C computed over earlier bytes with `bytes`.
  /// - Complexity: O(n): one CRC-32C instruction per eight bytes where the CPU has it
  ///   (``Hardware``), else one table lookup per byte.
  @inline(__always)
  package static func update(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
    if let hardware = Hardware.available { return hardware.update(crc, bytes) }
    return updateBySlicing(crc, bytes)
  }

  /// The CRC-32C of `bytes`, bit by bit: no table, no lazy global, no CPU check, so that a
  /// signal handler may call it (the recorder's fatal-signal line, ``FatalSignalRecord``). Eight
  /// shifts per byte: only for short lines.
  package static func checksumWithoutTables(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = (crc >> 1) ^ (0x82F6_3B78 & (0 &- (crc & 1))) }
    }
    return ~crc
  }

  /// ``update(_:_:)`` with the slicing-by-16 tables, on any CPU.
  /// - Complexity: O(n): one table lookup per byte, sixteen bytes read with two loads.
  package static func updateBySlicing(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
    guard var pointer = bytes.baseAddress else { return crc }
    var crc = ~crc
    var remaining = bytes.count
    tables.withUnsafeBufferPointer { tables in
      guard let t = tables.baseAddress else { return }
      @inline(__always) func lookup(_ table: Int, _ word: UInt64, _ shift: UInt64) -> UInt32 {
        t[table &* 256 &+ Int((word &>> shift) & 0xFF)]
      }
      while remaining >= 16 {
        let low = UInt64(littleEndian: pointer.loadUnaligned(as: UInt64.self)) ^ UInt64(crc)
        let high = UInt64(littleEndian: pointer.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        crc =
          lookup(15, low, 0) ^ lookup(14, low, 8) ^ lookup(13, low, 16) ^ lookup(12, low, 24)
          ^ lookup(11, low, 32) ^ lookup(10, low, 40) ^ lookup(9, low, 48) ^ lookup(8, low, 56)
          ^ lookup(7, high, 0) ^ lookup(6, high, 8) ^ lookup(5, high, 16) ^ lookup(4, high, 24)
          ^ lookup(3, high, 32) ^ lookup(2, high, 40) ^ lookup(1, high, 48) ^ lookup(0, high, 56)
        pointer += 16
        remaining &-= 16
      }
      while remaining >= 8 {
        let word = UInt64(littleEndian: pointer.loadUnaligned(as: UInt64.self)) ^ UInt64(crc)
        crc =
          t[7 &* 256 &+ Int(word & 0xFF)] ^ t[6 &* 256 &+ Int((word &>> 8) & 0xFF)]
          ^ t[5 &* 256 &+ Int((word &>> 16) & 0xFF)] ^ t[4 &* 256 &+ Int((word &>> 24) & 0xFF)]
          ^ t[3 &* 256 &+ Int((word &>> 32) & 0xFF)] ^ t[2 &* 256 &+ Int((word &>> 40) & 0xFF)]
          ^ t[1 &* 256 &+ Int((word &>> 48) & 0xFF)] ^ t[Int(word &>> 56)]
        pointer += 8
        remaining &-= 8
      }
      while remaining > 0 {
        crc = (crc &>> 8) ^ t[Int((crc ^ UInt32(pointer.load(as: UInt8.self))) & 0xFF)]
        pointer += 1
        remaining &-= 1
      }
    }
    return ~crc
  }

  /// Writes `value` as 8 lowercase hexadecimal digits at `destination`, without allocating.
  ///
  /// All eight at once, in one 64-bit word (a digit per byte) and one store: the nibbles are
  /// spread one to a byte, and each becomes `0`–`9` or `a`–`f` by adding `0` and, for those
  /// over 9 (found by adding 6, which carries into the byte's fifth bit), `a` - `0` - 10.
  @inline(__always)
  package static func writeHex(_ value: UInt32, to destination: UnsafeMutableRawPointer) {
    var word = UInt64(value)
    word = (word & 0xFFFF_0000) &<< 16 | (word & 0xFFFF)
    word = (word & 0x0000_FF00_0000_FF00) &<< 8 | (word & 0x0000_00FF_0000_00FF)
    word = (word & 0x00F0_00F0_00F0_00F0) &<< 4 | (word & 0x000F_000F_000F_000F)
    // Byte k holds nibble k (the least significant first).
    let ones: UInt64 = 0x0101_0101_0101_0101
    let letters = ((word &+ ones &* 6) &>> 4) & ones
    let digits = word &+ ones &* 0x30 &+ letters &* 39
    // The most significant digit first in memory.
    destination.storeBytes(of: UInt64(bigEndian: digits), as: UInt64.self)
  }

  /// `value` as 8 lowercase hexadecimal digits, as the `c` key of a log line holds it.
  package static func hex(_ value: UInt32) -> [UInt8] {
    var out = [UInt8](repeating: 0, count: 8)
    out.withUnsafeMutableBytes { buffer in
      if let base = buffer.baseAddress { writeHex(value, to: base) }
    }
    return out
  }
}
