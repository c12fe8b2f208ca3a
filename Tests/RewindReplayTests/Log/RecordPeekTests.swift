import Rewind
import Testing

@testable import RewindReplay

/// The indexer reads an action line's `seq` with `RecordPeek.actionSeq` and any other line with
/// `RecordPeek.fast`: on every line, the two must agree.
@Suite struct RecordPeekTests {
  private static let checksum = #"{"c":"0123abcd","#

  private func peeks(_ body: String) -> (actionSeq: Int?, fast: RecordPeek?) {
    let bytes = Array((Self.checksum + body).utf8)
    return bytes.withUnsafeBytes { (RecordPeek.actionSeq($0), RecordPeek.fast($0)) }
  }

  @Test(arguments: [
    #""kind":"action","seq":1,"time":0.5}"#,
    #""kind":"action","seq":0,"time":0.5}"#,
    #""kind":"action","seq":1234567}"#,
    #""kind":"action","seq":123456789012345678,"x":1}"#,
    #""kind":"action","seq":1234567890123456789,"x":1}"#,
    #""kind":"action","seq":007,"x":1}"#,
    #""kind":"action","seq":12"#,
    #""kind":"action","seq":12 ,"x":1}"#,
    #""kind":"action","seq":-1,"x":1}"#,
    #""kind":"action","seq":,"x":1}"#,
    #""kind":"action","seq":"1","x":1}"#,
    #""kind":"action","seq":1.5,"x":1}"#,
    #""kind":"actions","seq":1,"x":1}"#,
    #""kind":"checkpoint","seq":9,"state":{}}"#,
    #""kind":"skipped","seq":3,"type":"x","reason":"denied"}"#,
    #""kind":"end","seq":3,"reason":"closed"}"#,
    #""seq":1,"kind":"action"}"#,
    #""kind":"action""#,
    "",
  ])
  func actionSeqReadsWhatFastReads(body: String) {
    let (actionSeq, fast) = peeks(body)
    if let fast, fast.kind == "action" {
      #expect(actionSeq == fast.seq, "\(body)")
    } else {
      #expect(actionSeq == nil, "\(body)")
    }
  }

  @Test func actionSeqReadsTheDigits() {
    #expect(peeks(#""kind":"action","seq":1,"time":0.5}"#).actionSeq == 1)
    #expect(peeks(#""kind":"action","seq":1234567}"#).actionSeq == 1_234_567)
    #expect(peeks(#""kind":"action","seq":007,"x":1}"#).actionSeq == nil)
    #expect(peeks(#""kind":"action","seq":1234567890123456789,"x":1}"#).actionSeq == nil)
  }

  /// A log's bytes live in a buffer that is mapped for huge pages from 4 MiB up: it must hold
  /// exactly what was put in it, at either size, and free without trouble.
  @Test func largeAndSmallBuffersHoldTheirBytes() {
    for size in [1, 4095, (4 << 20) - 1, 4 << 20, (6 << 20) + 7] {
      let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 12) }
      let log = LogBytes(copying: bytes)
      #expect(log.buffer.count == size)
      #expect(Array(log.buffer) == bytes, "size \(size)")
      let raw = Platform.allocateLargeBuffer(size)
      #expect(raw.bytes.count >= size)
      raw.bytes.storeBytes(of: 0xAB, toByteOffset: size - 1, as: UInt8.self)
      #expect(raw.bytes[size - 1] == 0xAB)
      raw.free()
    }
  }
}
