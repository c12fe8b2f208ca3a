import RewindJSON
import Testing

@testable import RewindReplay

/// The recorder's action-line layout: found where it is, and checking the line exactly as parsing
/// the whole line would.
@Suite struct ActionLineLayoutTests {
  static let prefix = #"{"c":"0123abcd","kind":"action","seq":7"#

  /// Whether the layout path accepts `line` (layout found and the payload loads), or `nil` when
  /// there is no layout.
  func layoutAccepts(_ line: String, limits: JSONLimits = .default) -> Bool? {
    let bytes = Array(line.utf8)
    return bytes.withUnsafeBytes { buffer -> Bool? in
      guard let layout = ActionLineLayout(buffer, limits: limits) else { return nil }
      return JSONTapeDocument(limits: limits).load(
        UnsafeRawBufferPointer(rebasing: buffer[layout.payload]), depth: layout.depth,
        elements: layout.elements)
    }
  }

  @Test func findsTheActionAndTypeOfRecordedLines() throws {
    let line = Self.prefix + #","time":0.5,"type":"add","action":{"add":{"title":"Buy milk"}}}"#
    let bytes = Array(line.utf8)
    try bytes.withUnsafeBytes { buffer in
      let layout = try #require(ActionLineLayout(buffer, limits: .default))
      #expect(
        String(decoding: UnsafeRawBufferPointer(rebasing: buffer[layout.payload]), as: UTF8.self)
          == #"{"add":{"title":"Buy milk"}}"#)
      #expect(ReplayLog.ActionTypeName(line: buffer, layout: layout).string == "add")
      #expect(layout.elements == 6)
    }
  }

  @Test(arguments: [
    #","time":0.5,"type":"add","action":{"add":{}},"sanitized":true}"#,
    #","type":"a\u0064d","action":"x"}"#,
    #","time":1e3,"type":"t","action":[1,2]}"#,
  ])
  func acceptsTheRecordersVariants(_ rest: String) {
    #expect(layoutAccepts(Self.prefix + rest) == true)
    #expect((try? JSONParser.parse(Self.prefix + rest)) != nil)
  }

  @Test(arguments: [
    #"{"c":"0123abcd","seq":7,"kind":"action","type":"t","action":1}"#,
    #"{"c":"0123ABCD","kind":"action","seq":7,"type":"t","action":1}"#,
    #"{"kind":"action","seq":7,"type":"t","action":1}"#,
    #"{"c":"0123abcd","kind":"action","seq":7,"type":"t","action":1,"x":2}"#,
    #"{"c":"0123abcd","kind":"action","seq":7, "type":"t","action":1}"#,
  ])
  func leavesOtherLayoutsToTheFullParse(_ line: String) {
    // No layout, or one whose action does not load: either way the caller parses the line.
    #expect(layoutAccepts(line) != true)
  }

  @Test(arguments: [
    #","type":"t","action":{"a":1,"a":2}}"#,
    #","type":"t","action":[1,]}"#,
    #","type":"t\u0000","action":1}"#,
    #","type":"t","action":01}"#,
    #","time":01,"type":"t","action":1}"#,
    #","type":"t","action":{"a":1}},"sanitized":true}"#,
    #","type":"t","action": 1 }"#,
  ])
  func acceptsExactlyWhatParsingTheWholeLineAccepts(_ rest: String) {
    let line = Self.prefix + rest
    let parses = (try? JSONParser.parse(line)) != nil
    if let accepted = layoutAccepts(line) { #expect(accepted == parses, "\(line)") }
  }

  @Test func countsTheLineAgainstTheDepthAndElementLimits() {
    let line = Self.prefix + #","type":"t","action":[[1]]}"#
    for depth in 1...4 {
      let limits = JSONLimits(maxDepth: depth)
      let parses = (try? JSONParser.parse(line, limits: limits)) != nil
      #expect(layoutAccepts(line, limits: limits) ?? parses == parses, "depth \(depth)")
    }
    for elements in 4...9 {
      let limits = JSONLimits(maxElements: elements)
      let parses = (try? JSONParser.parse(line, limits: limits)) != nil
      #expect(layoutAccepts(line, limits: limits) ?? parses == parses, "elements \(elements)")
    }
  }
}
