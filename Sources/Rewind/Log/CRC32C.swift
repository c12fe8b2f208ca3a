/// CRC-32C (Castagnoli, polynomial 0x1EDC6F41, reflected 0x82F63B78), the checksum of every log
/// line, computed with the slicing-by-8 table method.
///
/// `CRC32C.checksum("123456789".utf8) == 0xE306_9283` (the standard check value).
package enum CRC32C {
  /// Eight 256-entry tables: table 0 is the classic byte-at-a-time table; table k gives the CRC of
  /// a byte followed by k zero bytes, so eight bytes are folded in per step.
  private static let tables: [UInt32] = {
    var tables = [UInt32](repeating: 0, count: 8 * 256)
    for byte in 0..<256 {
      var crc = UInt32(byte)
      for _ in 0..<8 { crc = (crc >> 1) ^ (0x82F6_3B78 & (0 &- (crc & 1))) }
      tables[byte] = crc
    }
    for byte in 0..<256 {
      var crc = tables[byte]
      for slice in 1..<8 {
        crc = (crc >> 8) ^ tables[Int(crc & 0xFF)]
        tables[slice * 256 + byte] = crc
      }
    }
    return tables
  }()

  /// The CRC-32C of `bytes`.
  /// - Complexity: O(n), about one table lookup per byte.
  package static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
    update(0, bytes)
  }

  /// The CRC-32C of a byte sequence.
  package static func checksum<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt32 {
    let array = Array(bytes)
    return array.withUnsafeBytes { update(0, $0) }
  }

  /// Continues a CRC-32C computed over earlier bytes with `bytes`.
  package static func update(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
    var crc = ~crc
    var index = 0
    let count = bytes.count
    tables.withUnsafeBufferPointer { t in
      while count - index >= 8 {
        let low =
          crc
          ^ (UInt32(bytes[index]) | UInt32(bytes[index + 1]) << 8
            | UInt32(bytes[index + 2]) << 16 | UInt32(bytes[index + 3]) << 24)
        let high =
          UInt32(bytes[index + 4]) | UInt32(bytes[index + 5]) << 8
          | UInt32(bytes[index + 6]) << 16 | UInt32(bytes[index + 7]) << 24
        crc =
          t[7 * 256 + Int(low & 0xFF)] ^ t[6 * 256 + Int((low >> 8) & 0xFF)]
          ^ t[5 * 256 + Int((low >> 16) & 0xFF)] ^ t[4 * 256 + Int(low >> 24)]
          ^ t[3 * 256 + Int(high & 0xFF)] ^ t[2 * 256 + Int((high >> 8) & 0xFF)]
          ^ t[1 * 256 + Int((high >> 16) & 0xFF)] ^ t[Int(high >> 24)]
        index += 8
      }
      while index < count {
        crc = (crc >> 8) ^ t[Int((crc ^ UInt32(bytes[index])) & 0xFF)]
        index += 1
      }
    }
    return ~crc
  }

  /// `value` as 8 lowercase hexadecimal digits, as the `c` key of a log line holds it.
  package static func hex(_ value: UInt32) -> [UInt8] {
    let digits = Array("0123456789abcdef".utf8)
    var out = [UInt8](repeating: 0, count: 8)
    for i in 0..<8 {
      out[i] = digits[Int((value >> UInt32(28 - 4 * i)) & 0xF)]
    }
    return out
  }
}
