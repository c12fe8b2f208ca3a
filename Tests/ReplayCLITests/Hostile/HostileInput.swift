import Foundation
import RewindTestSupport
import Testing

/// A hostile input that `replay` must refuse with a specific diagnostic: how to make it, and the
/// words its diagnostic must hold.
enum HostileInput: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case checksumMismatch
  case malformedChecksum
  case missingChecksum
  case invalidJSON
  case invalidUTF8InString
  case invalidUTF8OutsideString
  case overlongUTF8
  case loneSurrogateEscape
  case nulInString
  case nulOutsideString
  case lineOfNULs
  case duplicateKeyInRecord
  case duplicateKeyInPayload
  case duplicateKeyInHeader
  case seqOutOfRangeExponent
  case seqOutOfRangeDigits
  case negativeSeq
  case amountOutOfRangeExponent
  case amountOutOfRangeDigits
  case version99
  case version0
  case emptyFile
  case blankLinesOnly
  case directory
  case missingFile
  case randomBinary
  case byteOrderMark
  case firstLineNotAHeader
  case firstSeqPastTheLimit
  case seqGap
  case secondHeader
  case actionAfterTheEnd
  case nestedTooDeeply
  case headerCutOff

  var testDescription: String { rawValue }

  /// The words the first line of the diagnostic must hold, after `error: <path>`.
  var keyWords: [String] {
    switch self {
    case .checksumMismatch:
      return ["checksum mismatch (stored ", "the line was changed after it was recorded"]
    case .malformedChecksum: return [#"malformed checksum: "c" must be 8 lowercase hex digits"#]
    case .missingChecksum: return ["the line has no checksum although the log's other lines do"]
    case .invalidJSON: return ["invalid JSON at byte ", "unexpected end of input"]
    case .invalidUTF8InString, .overlongUTF8:
      return ["invalid JSON at byte ", "invalid UTF-8 byte sequence"]
    case .invalidUTF8OutsideString: return ["invalid JSON at byte 192: invalid UTF-8 byte sequence"]
    case .loneSurrogateEscape:
      return ["invalid JSON at byte ", #"unpaired UTF-16 surrogate \uD800"#]
    case .nulInString: return ["invalid JSON at byte ", "unescaped control character 0x00"]
    case .nulOutsideString, .lineOfNULs: return ["invalid JSON at byte ", "found byte 0x00"]
    case .duplicateKeyInRecord: return ["invalid JSON at byte ", #"duplicate key "seq" in object"#]
    case .duplicateKeyInPayload: return ["invalid JSON at byte ", #"duplicate key "_0" in object"#]
    case .duplicateKeyInHeader:
      return ["not a Rewind log: line 1 is not valid JSON", #"duplicate key "version""#]
    case .seqOutOfRangeExponent, .seqOutOfRangeDigits, .negativeSeq:
      return [#"invalid record: "seq" is not a non-negative integer"#]
    case .amountOutOfRangeExponent:
      return [#"action 1 (type "add") does not decode: add._0: number 1e400 does not fit in Int"#]
    case .amountOutOfRangeDigits:
      return [
        #"action 1 (type "add") does not decode: add._0: number 99999999999999999999 does not "#
          + "fit in Int"
      ]
    case .version99: return ["the log has format version 99; this replay reads versions up to 2"]
    case .version0: return [#"not a Rewind log: the header's "version" 0 is not 1 or more"#]
    case .emptyFile, .blankLinesOnly: return ["the log is empty: it has no header line"]
    case .directory: return ["not a log file: it is a directory"]
    case .missingFile: return ["cannot open the log: No such file or directory"]
    case .randomBinary: return ["not a Rewind log: line 1 is not valid JSON: invalid JSON at byte "]
    case .byteOrderMark: return ["not a Rewind log: line 1 is not valid JSON", "byte order mark"]
    case .firstLineNotAHeader:
      return [#"not a Rewind log: the first line's "kind" is "action", not "header""#]
    case .firstSeqPastTheLimit:
      return [#"not a Rewind log: the header has no positive integer "firstSeq""#]
    case .seqGap: return ["seq gap 1→3: expected seq 2, found 3"]
    case .secondHeader: return ["misplaced record: a second header"]
    case .actionAfterTheEnd: return ["misplaced record: ", " line after the end record at line 3"]
    case .nestedTooDeeply:
      return ["invalid JSON at byte ", "nested too deeply: more than 512 arrays and objects"]
    case .headerCutOff: return ["line cut off mid-write"]
    }
  }

  /// Whether the log itself is sound and only its action fails to decode as a `CounterAction`:
  /// only the commands that rebuild states fail, and `verify` reports it with status 1.
  var isUndecodableAction: Bool {
    self == .amountOutOfRangeExponent || self == .amountOutOfRangeDigits
  }

  /// Makes the input in `directory` and returns its path.
  func make(in directory: URL) throws -> String {
    let header = HostileLog.counterHeader
    func log(_ lines: [[UInt8]]) throws -> String {
      try HostileLog.write(HostileLog.bytes(lines), named: "\(rawValue).jsonl", in: directory)
    }
    func withAction(_ text: String) throws -> String {
      try log([header, Array(text.utf8), HostileLog.increment(seq: 2), HostileLog.end(seq: 2)])
    }
    func withHeader(_ replace: String, by replacement: String) throws -> String {
      let text = String(decoding: header, as: UTF8.self)
        .replacingOccurrences(of: replace, with: replacement)
      return try log([Array(text.utf8), HostileLog.increment(seq: 1)])
    }
    let action = #"{"kind":"action","seq":1,"type":"add","action":"#
    switch self {
    case .checksumMismatch:
      var line = HostileLog.checksummed(HostileLog.add(seq: 1, 5))
      if let five = line.lastIndex(of: UInt8(ascii: "5")) { line[five] = UInt8(ascii: "6") }
      return try log(
        [HostileLog.checksummed(header), line, HostileLog.checksummed(HostileLog.end(seq: 1))])
    case .malformedChecksum:
      return try log([
        HostileLog.checksummed(header),
        Array(
          #"{"c":"XYZ","kind":"action","seq":1,"type":"increment","action":{"increment":{}}}"#.utf8),
        HostileLog.checksummed(HostileLog.end(seq: 1)),
      ])
    case .missingChecksum:
      return try log([
        HostileLog.checksummed(header), HostileLog.checksummed(HostileLog.increment(seq: 1)),
        HostileLog.increment(seq: 2), HostileLog.checksummed(HostileLog.end(seq: 2)),
      ])
    case .invalidJSON: return try withAction(#"{"kind":"action","seq":1,"type":"add","action":{"#)
    case .invalidUTF8InString:
      return try log([
        header,
        Array(#"{"kind":"action","seq":1,"type":"a"#.utf8) + [0xFF]
          + Array(#"","action":{}}"#.utf8), HostileLog.increment(seq: 2),
      ])
    case .invalidUTF8OutsideString:
      return try log([
        header, Array(#"{"kind":"action","seq":1,"#.utf8) + [0xFF] + Array(#""type":"add"}"#.utf8),
        HostileLog.increment(seq: 1),
      ])
    case .overlongUTF8:
      return try log([
        header,
        Array(#"{"kind":"action","seq":1,"type":"a"#.utf8) + [0xC0, 0xAF]
          + Array(#"","action":{}}"#.utf8), HostileLog.increment(seq: 2),
      ])
    case .loneSurrogateEscape:
      return try withAction(#"{"kind":"action","seq":1,"type":"\uD800","action":{}}"#)
    case .nulInString:
      return try log([
        header,
        Array(#"{"kind":"action","seq":1,"type":"a"#.utf8) + [0x00]
          + Array(#"b","action":{}}"#.utf8), HostileLog.increment(seq: 2),
      ])
    case .nulOutsideString:
      return try log([
        header,
        Array(#"{"kind":"action","seq":1,"#.utf8) + [0x00]
          + Array(#""type":"a","action":{}}"#.utf8), HostileLog.increment(seq: 2),
      ])
    case .lineOfNULs:
      return try log([header, [UInt8](repeating: 0, count: 64), HostileLog.increment(seq: 1)])
    case .duplicateKeyInRecord:
      return try withAction(
        #"{"kind":"action","seq":1,"seq":1,"type":"increment","action":{"increment":{}}}"#)
    case .duplicateKeyInPayload: return try withAction(action + #"{"add":{"_0":1,"_0":2}}}"#)
    case .duplicateKeyInHeader:
      return try withHeader(#""version":1"#, by: #""version":1,"version":1"#)
    case .seqOutOfRangeExponent:
      return try withAction(
        #"{"kind":"action","seq":1e400,"type":"increment","action":{"increment":{}}}"#)
    case .seqOutOfRangeDigits:
      return try withAction(
        #"{"kind":"action","seq":99999999999999999999,"type":"increment","action":{"increment":{}}}"#
      )
    case .negativeSeq:
      return try withAction(
        #"{"kind":"action","seq":-1,"type":"increment","action":{"increment":{}}}"#)
    case .amountOutOfRangeExponent: return try withAction(action + #"{"add":{"_0":1e400}}}"#)
    case .amountOutOfRangeDigits:
      return try withAction(action + #"{"add":{"_0":99999999999999999999}}}"#)
    case .version99: return try withHeader(#""version":1"#, by: #""version":99"#)
    case .version0: return try withHeader(#""version":1"#, by: #""version":0"#)
    case .emptyFile: return try HostileLog.write([], named: "empty.jsonl", in: directory)
    case .blankLinesOnly:
      return try HostileLog.write(Array("\n  \n\t\r\n\n".utf8), named: "blank.jsonl", in: directory)
    case .directory:
      let url = directory.appendingPathComponent("a-directory.jsonl")
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
      return url.path
    case .missingFile: return directory.appendingPathComponent("missing.jsonl").path
    case .randomBinary:
      return try HostileLog.write(
        Self.randomBytes(count: 1 << 16, seed: 6), named: "random.bin", in: directory)
    case .byteOrderMark:
      return try log([[0xEF, 0xBB, 0xBF] + header, HostileLog.increment(seq: 1)])
    case .firstLineNotAHeader: return try log([HostileLog.increment(seq: 1), header])
    case .firstSeqPastTheLimit:
      return try withHeader(#""firstSeq":1"#, by: #""firstSeq":9223372036854775807"#)
    case .seqGap:
      return try log([
        header, HostileLog.increment(seq: 1), HostileLog.increment(seq: 3),
        HostileLog.increment(seq: 4),
      ])
    case .secondHeader:
      return try log([header, HostileLog.increment(seq: 1), header, HostileLog.increment(seq: 2)])
    case .actionAfterTheEnd:
      return try log([
        header, HostileLog.increment(seq: 1), HostileLog.end(seq: 1), HostileLog.increment(seq: 2),
        HostileLog.increment(seq: 3),
      ])
    case .nestedTooDeeply:
      return try withAction(
        action + String(repeating: "[", count: 513) + String(repeating: "]", count: 513) + "}")
    case .headerCutOff:
      return try HostileLog.write(header, named: "\(rawValue).jsonl", in: directory)
    }
  }

  /// `count` bytes from a seeded SplitMix64 generator: the same bytes on every run.
  static func randomBytes(count: Int, seed: UInt64) -> [UInt8] {
    SplitMix64.bytes(count: count, seed: seed)
  }
}
