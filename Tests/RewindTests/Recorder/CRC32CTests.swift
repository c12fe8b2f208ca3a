import Foundation
import Rewind
import RewindTestSupport
import Testing

@Suite struct CRC32CTests {
  @Test func checkValueOfTheStandardTestString() {
    #expect(CRC32C.checksum("123456789".utf8) == 0xE306_9283)
    #expect(ReferenceCRC32C.checksum("123456789".utf8) == 0xE306_9283)
    #expect(CRC32C.checksum([UInt8]()) == 0)
    #expect(String(decoding: CRC32C.hex(0xE306_9283), as: UTF8.self) == "e3069283")
    #expect(String(decoding: CRC32C.hex(0x0000_00AF), as: UTF8.self) == "000000af")
  }

  /// The eight digits are made all at once in one word (`CRC32C.writeHex`): every nibble value
  /// at every position, and random values, against `String(_:radix:)`.
  @Test func hexDigitsAreStringsRadix16() {
    var random = SplitMix64(seed: 0x4E1B_B1E5)
    var values: [UInt32] = [0, .max, 0x0123_4567, 0x89AB_CDEF, 0xFEDC_BA98, 0x7654_3210]
    for nibble in UInt32(0)...15 {
      for position in UInt32(0)..<8 { values.append(nibble << (4 * position)) }
    }
    for _ in 0..<1_000 { values.append(UInt32(truncatingIfNeeded: random.next())) }
    for value in values {
      let text = String(value, radix: 16)
      let expected = String(repeating: "0", count: 8 - text.count) + text
      #expect(String(decoding: CRC32C.hex(value), as: UTF8.self) == expected)
    }
  }

  @Test func matchesTheBitwiseReferenceOnRandomBuffers() {
    var random = SplitMix64(seed: 0xC0FF_EE00)
    let lengths = Array(0...100) + [255, 256, 257, 4093, 65_536, 100_003]
    for length in lengths {
      let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
      #expect(CRC32C.checksum(bytes) == ReferenceCRC32C.checksum(bytes), "length \(length)")
      // The same bytes at every alignment of the slicing-by-8 loop.
      if length <= 100 && length > 0 {
        for offset in 1..<min(8, length) {
          let slice = bytes[offset...]
          let computed = slice.withUnsafeBytes { CRC32C.checksum($0) }
          #expect(computed == ReferenceCRC32C.checksum(slice), "length \(length) from \(offset)")
        }
      }
    }
  }

  /// `checksum` takes the CPU's instruction where it has one: both ways must agree with the
  /// bitwise reference, each on its own, at every length and alignment.
  @Test func slicingTablesAndTheCPUInstructionMatchTheReference() {
    var random = SplitMix64(seed: 0x5EED_C4C3)
    let hardware = CRC32C.Hardware.available
    for length in Array(0...80) + [127, 128, 129, 1_000, 4_099] {
      let bytes = (0..<(length + 7)).map { _ in UInt8.random(in: 0...255, using: &random) }
      for offset in 0..<8 {
        let slice = bytes[offset..<(offset + length)]
        let expected = ReferenceCRC32C.checksum(slice)
        let seed = ReferenceCRC32C.checksum(bytes[..<offset])
        slice.withUnsafeBytes { buffer in
          #expect(CRC32C.updateBySlicing(0, buffer) == expected, "slicing, length \(length)")
          let continued = ReferenceCRC32C.checksum(bytes[..<(offset + length)])
          #expect(CRC32C.updateBySlicing(seed, buffer) == continued, "slicing continued")
          if let hardware {
            #expect(hardware.update(0, buffer) == expected, "instruction, length \(length)")
            #expect(hardware.update(seed, buffer) == continued, "instruction continued")
          }
        }
      }
    }
  }

  /// The instruction is used exactly when the CPU reports it: SSE 4.2 on x86-64, the CRC32
  /// extension on 64-bit ARM (which every Apple CPU has); no other CPU has one Rewind uses.
  @Test func theInstructionIsUsedWhenTheCPUHasIt() throws {
    #if (arch(x86_64) || arch(arm64)) && os(Linux)
      let cpuinfo = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
      let prefix = ["flags", "Features"]
      let flags = cpuinfo.split(separator: "\n").first { line in
        prefix.contains { line.hasPrefix($0) }
      }
      let flag = CRC32CTests.isX86 ? "sse4_2" : "crc32"
      let hasInstruction = (flags ?? "").split(separator: " ").contains { $0 == flag }
      #expect((CRC32C.Hardware.available != nil) == hasInstruction)
    #elseif arch(arm64) && canImport(Darwin)
      #expect(CRC32C.Hardware.available != nil)
    #elseif !arch(x86_64) && !arch(arm64)
      #expect(CRC32C.Hardware.available == nil)
    #endif
  }

  private static var isX86: Bool {
    #if arch(x86_64)
      return true
    #else
      return false
    #endif
  }

  @Test func incrementalUpdateEqualsOneShot() {
    var random = SplitMix64(seed: 42)
    let bytes = (0..<200).map { _ in UInt8.random(in: 0...255, using: &random) }
    let whole = CRC32C.checksum(bytes)
    #expect(bytes.withUnsafeBytes { CRC32C.update(0, $0) } == whole)
    for split in 0...bytes.count {
      let head = bytes[..<split].withUnsafeBytes { CRC32C.checksum($0) }
      let continued = bytes[split...].withUnsafeBytes { CRC32C.update(head, $0) }
      #expect(continued == whole, "split at \(split)")
    }
    // Three pieces.
    let first = bytes[..<13].withUnsafeBytes { CRC32C.update(0, $0) }
    let second = bytes[13..<101].withUnsafeBytes { CRC32C.update(first, $0) }
    #expect(bytes[101...].withUnsafeBytes { CRC32C.update(second, $0) } == whole)
  }

  @Test func lineChecksumCatchesAChangedByte() {
    var line: [UInt8] = []
    let body = Array(#""kind":"action","seq":1,"type":"increment","action":{"increment":{}}"#.utf8)
    body.withUnsafeBytes { LogLine.appendFramed(body: $0, to: &line) }
    #expect(line.last == UInt8(ascii: "\n"))
    line.removeLast()
    #expect(RecordedLog.checksumProblem(of: line) == nil)
    line[line.count - 5] ^= 0x01
    let status = line.withUnsafeBytes { LogLine.checkChecksum($0) }
    guard case .mismatch = status else {
      Issue.record("status \(status)")
      return
    }
  }
}
