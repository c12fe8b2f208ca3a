import Foundation
import Rewind

/// Builds the bytes of hostile counter and todo logs: a valid header, then any lines at all.
///
/// Lines are byte arrays, not strings, so that invalid UTF-8, NUL bytes and stray `\r` reach the
/// file exactly as given.
enum HostileLog {
  /// The header of a counter log whose initial count is 0.
  static let counterHeader = Array(
    (#"{"kind":"header","format":"rewind","version":1,"session":"s","app":"counter","#
      + #""actionType":"CounterAction","stateType":"CounterState","firstSeq":1,"#
      + #""state":{"count":0}}"#).utf8)

  /// The header of an empty todo log.
  static let todoHeader = Array(
    (#"{"kind":"header","format":"rewind","version":1,"session":"s","app":"todo","#
      + #""actionType":"TodoAction","stateType":"TodoState","firstSeq":1,"#
      + #""state":{"todos":[],"filter":"all","nextID":1}}"#).utf8)

  /// `{"kind":"action","seq":N,"type":"increment","action":` — an action line up to its payload.
  static func actionPrefix(seq: Int, type: String = "increment") -> [UInt8] {
    Array(#"{"kind":"action","seq":\#(seq),"type":"\#(type)","action":"#.utf8)
  }

  /// An action line carrying `payload` exactly as given, hostile or not.
  static func action(seq: Int, type: String = "increment", payload: [UInt8]) -> [UInt8] {
    actionPrefix(seq: seq, type: type) + payload + Array("}".utf8)
  }

  /// A valid counter `increment` action line.
  static func increment(seq: Int) -> [UInt8] {
    action(seq: seq, payload: Array(#"{"increment":{}}"#.utf8))
  }

  /// A valid counter `add` action line.
  static func add(seq: Int, _ amount: Int) -> [UInt8] {
    action(seq: seq, type: "add", payload: Array(#"{"add":{"_0":\#(amount)}}"#.utf8))
  }

  /// The `end` record of a cleanly closed log whose last action is `seq`.
  static func end(seq: Int) -> [UInt8] {
    Array(#"{"kind":"end","seq":\#(seq),"reason":"closed"}"#.utf8)
  }

  /// `lines`, each followed by `terminator` (a line feed by default).
  static func bytes(_ lines: [[UInt8]], terminator: [UInt8] = [0x0A]) -> [UInt8] {
    var result: [UInt8] = []
    result.reserveCapacity(lines.reduce(0) { $0 + $1.count + terminator.count })
    for line in lines {
      result += line
      result += terminator
    }
    return result
  }

  /// The line as the recorder frames it: `{"c":"<CRC-32C of the body>",<body>}`, where `line`
  /// is `{<body>}`.
  static func checksummed(_ line: [UInt8]) -> [UInt8] {
    precondition(line.first == UInt8(ascii: "{") && line.last == UInt8(ascii: "}"))
    var framed: [UInt8] = []
    Array(line.dropFirst().dropLast()).withUnsafeBytes { body in
      LogLine.appendFramed(body: body, to: &framed)
    }
    return Array(framed.dropLast())  // without its line feed
  }

  /// Writes `bytes` to `name` in `directory` and returns the path.
  @discardableResult
  static func write(_ bytes: [UInt8], named name: String, in directory: URL) throws -> String {
    let url = directory.appendingPathComponent(name)
    try Data(bytes).write(to: url)
    return url.path
  }
}
