/// CRC-32C computed bit by bit, straight from the definition (reflected polynomial 0x82F63B78,
/// initial value and final XOR 0xFFFFFFFF): slow, but too simple to be wrong, so it checks the
/// table-driven `CRC32C` and the checksums in recorded logs.
enum ReferenceCRC32C {
  /// The CRC-32C of `bytes`.
  static func checksum<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 {
        crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1
      }
    }
    return ~crc
  }
}
