import Testing

@testable import Rewind

/// What a live sink's window (``LiveWindow``) does with the recorder's large states: a `state`
/// record in parts larger than the viewer's queue capacity still becomes the base, without a
/// drop and without asking the recorder for another state (which costs the app a copy of its
/// state); and a newer base blanks an older state record a slow connection has not begun to
/// receive, while one whose sending began is sent whole.
@Suite struct LiveWindowStateTests {
  /// A window of `capacity` bytes whose connection headers name their first seq only.
  static func window(capacity: Int) -> LiveWindow {
    LiveWindow(capacity: capacity) { firstSeq, _, _ in
      Array(#"{"kind":"header","firstSeq":\#(firstSeq)}"#.utf8) + [UInt8(ascii: "\n")]
    }
  }

  /// The line of action `seq`, as the recorder writes it.
  static func action(_ seq: Int) -> [UInt8] {
    var line = LogLineBuilder(kind: .action)
    line.integer("seq", seq)
    line.string("type", "tick")
    line.json("action", Array(#""tick""#.utf8))
    return line.framed()
  }

  /// The lines of the `state` record after action `seq` of a state of about `bytes` bytes.
  static func stateLines(seq: Int, bytes: Int, fill: Character) -> [[UInt8]] {
    let json =
      Array(#"{"text":""#.utf8) + Array(String(repeating: fill, count: bytes).utf8)
      + Array(#""}"#.utf8)
    var lines: [[UInt8]] = []
    _ = StateRecord.forEachLine(seq: seq, json: json) { line in
      lines.append(line)
      return nil
    }
    return lines
  }

  static func contains(_ bytes: [UInt8], _ line: [UInt8]) -> Bool {
    guard line.count <= bytes.count else { return false }
    return (0...(bytes.count - line.count)).contains {
      bytes[$0..<($0 + line.count)].elementsEqual(line)
    }
  }

  @Test func aStateLargerThanTheCapacityBecomesTheBaseOfAViewerThatReadsEverything() throws {
    var window = Self.window(capacity: 64 << 10)
    window.take(StateRecord.whole(seq: 0, json: Array(#"{"text":""}"#.utf8))[...])
    window.connect()
    let start = window.nextBytes(limit: .max)
    #expect(start != nil)
    for seq in 1...10 { window.take(Self.action(seq)[...]) }
    let parts = Self.stateLines(seq: 10, bytes: 200 << 10, fill: "x")
    #expect(parts.count == 4)
    for line in parts { window.take(line[...]) }

    #expect(window.base?.seq == 10)
    #expect(!window.wantsState)
    let next = window.nextBytes(limit: .max)
    let sent = try #require(next)
    #expect(window.droppedActions == 0)
    #expect(sent == (1...10).flatMap { Self.action($0) } + parts.flatMap { $0 })
  }

  @Test func aNewerStateBlanksAnOlderOneNotBegunAndAStateBegunIsSentWhole() throws {
    var window = Self.window(capacity: 64 << 10)
    window.take(StateRecord.whole(seq: 0, json: Array(#"{"text":""}"#.utf8))[...])
    window.connect()
    let start = window.nextBytes(limit: .max)
    #expect(start != nil)
    // Three states with an action before each; the connection reads nothing meanwhile.
    let first = Self.stateLines(seq: 1, bytes: 100 << 10, fill: "a")
    let second = Self.stateLines(seq: 2, bytes: 100 << 10, fill: "b")
    let third = Self.stateLines(seq: 3, bytes: 100 << 10, fill: "c")
    window.take(Self.action(1)[...])
    for line in first { window.take(line[...]) }
    // The connection begins the first state: its action and first part.
    let begun = window.nextBytes(limit: 1)
    #expect(begun == Self.action(1))
    let part = window.nextBytes(limit: 1)
    #expect(part == first[0])
    window.take(Self.action(2)[...])
    for line in second { window.take(line[...]) }
    window.take(Self.action(3)[...])
    for line in third { window.take(line[...]) }

    #expect(window.base?.seq == 3)
    let next = window.nextBytes(limit: .max)
    let rest = try #require(next)
    #expect(window.droppedActions == 0)
    // The first state, begun, is sent whole; the second, covered by the third, not at all.
    #expect(
      rest
        == first.dropFirst().flatMap { $0 } + Self.action(2) + Self.action(3)
        + third.flatMap { $0 })
    #expect(!second.contains { Self.contains(rest, $0) })
  }
}
