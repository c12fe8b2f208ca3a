import RewindJSON
import RewindReplay
import RewindReplayService
import RewindTestSupport
import Testing

@testable import ReplayCLI

/// Walking the rows of a folded state without listing them.
@Suite struct StateTreeTests {
  private let value = JSONValue.object([
    JSONMember(
      "todos",
      .array([
        .object([JSONMember("id", .number("1")), JSONMember("title", .string("Buy milk"))]),
        .object([JSONMember("id", .number("2")), JSONMember("title", .string("Call mum"))]),
      ])),
    JSONMember("filter", .string("all")),
    JSONMember("empty", .array([])),
  ])
  private var state: StateDocument { StateDocument(value) }

  private func paths(_ tree: StateTreeRows) -> [String] {
    tree.rows(from: tree.first, count: 100).map { tree.jsonPath($0).sessionText }
  }

  @Test func membersOfTheFirstTwoLevelsStartUnfolded() {
    let tree = StateTreeRows(document: state, toggled: [])
    #expect(paths(tree) == ["todos", "todos[0]", "todos[1]", "filter", "empty"])
  }

  @Test func toggledPathsFoldAndUnfold() throws {
    let todos = try JSONPath.parse("todos")
    let first = try JSONPath.parse("todos[0]")
    let tree = StateTreeRows(document: state, toggled: [todos, first])
    #expect(paths(tree) == ["todos", "filter", "empty"])
    let unfolded = StateTreeRows(document: state, toggled: [first])
    #expect(
      paths(unfolded) == [
        "todos", "todos[0]", "todos[0].id", "todos[0].title", "todos[1]", "filter", "empty",
      ])
  }

  @Test func previousWalksBackThroughUnfoldedRows() throws {
    let tree = StateTreeRows(document: state, toggled: [try JSONPath.parse("todos[1]")])
    let rows = tree.rows(from: tree.first, count: 100)
    var walked: [[Int]] = []
    var current: [Int]? = rows.last
    while let row = current {
      walked.append(row)
      current = tree.previous(row)
    }
    #expect(walked == rows.reversed())
  }

  @Test func aPathThatIsGoneStandsForItsNearestRow() throws {
    let tree = StateTreeRows(document: state, toggled: [])
    #expect(
      tree.jsonPath(tree.row(for: try JSONPath.parse("todos[7].title"))).sessionText == "todos[1]")
    #expect(tree.jsonPath(tree.row(for: try JSONPath.parse("nothing.here"))).sessionText == "todos")
    #expect(tree.jsonPath(tree.row(for: try JSONPath.parse("filter.x"))).sessionText == "filter")
  }

  @Test func aScalarStateIsOneRow() {
    let tree = StateTreeRows(document: StateDocument(.number("8")), toggled: [])
    #expect(tree.rows(from: tree.first, count: 10) == [[]])
    #expect(StateTreePane.text(of: [], in: tree, isCursor: true, width: 20) == ">  8")
  }

  @Test func theCursorMovesAndTheViewScrollsToKeepItShown() {
    var view = StateTreeView()
    view.moveCursor(by: 3, in: state, height: 2)
    #expect(view.cursor.sessionText == "filter")
    #expect(view.top.sessionText == "todos[1]")
    view.moveCursor(by: -10, in: state, height: 2)
    #expect(view.cursor.sessionText == "todos")
    #expect(view.top.sessionText == "todos")
  }

  @Test func foldingTheRowUnderTheCursor() {
    var view = StateTreeView()
    view.toggleFold(in: state, height: 10)
    #expect(view.toggled == [JSONPath([.key("todos")])])
    view.moveCursor(by: 1, in: state, height: 10)
    #expect(view.cursor.sessionText == "filter")
  }

  @Test func rowsShowFoldsKeysAndCompactValues() {
    let tree = StateTreeRows(document: state, toggled: [])
    #expect(
      StateTreePane.text(of: [0], in: tree, isCursor: true, width: 40) == ">▾ todos: [2 items]")
    #expect(
      StateTreePane.text(of: [0, 1], in: tree, isCursor: false, width: 30)
        == #"   ▸ [1]: {"id":2,"title":"Ca…"#)
    #expect(StateTreePane.text(of: [2], in: tree, isCursor: false, width: 40) == "   empty: []")
  }

  @Test func aPreviewOfAHugeValueCostsOnlyItsWidth() {
    let huge = StateDocument(.array(Array(repeating: .string("x\u{1B}y"), count: 1_000_000)))
    #expect(JSONPreview.text(ofValueAt: huge.root, in: huge.text, width: 12) == #"["x\u001by"…"#)
    let long = StateDocument(.string(String(repeating: "é", count: 5_000_000)))
    #expect(JSONPreview.text(ofValueAt: long.root, in: long.text, width: 6) == #""éééé…"#)
    #expect(JSONPreview.key("by id") == #""by id""#)
    #expect(JSONPreview.key("nextID") == "nextID")
  }

  @Test func aPreviewIsTheCompactTextOfTheValueWhateverItsSourceLayout() {
    let source = Array(
      #" { "a" : [ 1 , -2.50e3 , true , null ] ,"s":"\u0041\"\\\/\b\f\n\r\t\u001B\ud83d\ude00 é\u007f" } "#
        .utf8)
    let document = StateDocument(checkedText: source)
    #expect(
      JSONPreview.text(ofValueAt: document.root, in: document.text, width: 80)
        == #"{"a":[1,-2.50e3,true,null],"s":"A\"\\/\u0008\u000c\n\r\t\u001b😀 é\u007f"}"#)
    let parsed = JSONValue.object([
      JSONMember("a", .array([.number("1"), .number("-2.50e3"), .bool(true), .null])),
      JSONMember("s", .string("A\"\\/\u{8}\u{C}\n\r\t\u{1B}😀 é\u{7F}")),
    ])
    // The same as the preview of the value read back and written again.
    let rewritten = StateDocument(parsed)
    #expect(
      JSONPreview.text(ofValueAt: rewritten.root, in: rewritten.text, width: 80)
        == JSONPreview.text(ofValueAt: document.root, in: document.text, width: 80))
  }

  @Test func aPathLeadsToItsValueInTheText() throws {
    let document = state
    let title = try #require(document.start(at: try JSONPath.parse("todos[1].title")))
    #expect(JSONPreview.text(ofValueAt: title, in: document.text, width: 40) == #""Call mum""#)
    #expect(document.start(at: try JSONPath.parse("todos[2]")) == nil)
    #expect(document.start(at: try JSONPath.parse("filter.x")) == nil)
    #expect(document.start(at: try JSONPath.parse("todos.count")) == nil)
    #expect(document.keys(of: document.root) == ["todos", "filter", "empty"])
    #expect(document.level(of: title) == nil)
  }

  @Test func childrenAreFoundFromTheMarksOfTheirLevelInALargeContainer() throws {
    // 10,000 elements of various lengths, some over 4 KiB, and an object of 300 members: every
    // child found by skipping from the nearest mark is the one a parse finds.
    var random = SplitMix64(seed: 7)
    let elements: [JSONValue] = (0..<10_000).map { index in
      let length = random.next() % 50 == 0 ? 5_000 : Int(random.next() % 40)
      return index % 3 == 0
        ? .string(String(repeating: "é", count: length))
        : .array((0..<(length % 5)).map { .number(String($0)) })
    }
    let members = (0..<300).map { JSONMember("k\($0)", .number(String($0))) }
    let value = JSONValue.object([
      JSONMember("list", .array(elements)), JSONMember("map", .object(members)),
    ])
    let document = StateDocument(value)
    let list = try #require(document.start(at: try JSONPath.parse("list")))
    let level = try #require(document.level(of: list))
    #expect(level.count == 10_000 && !level.isObject)
    #expect(level.marks.count < 10_000 / 32)
    for index in [0, 1, 63, 64, 65, 4_999, 9_998, 9_999] + (0..<200).map({ $0 * 37 }) {
      let start = try #require(document.child(index, of: list))
      let shown = JSONPreview.text(ofValueAt: start, in: document.text, width: 20_000)
      #expect(shown == String(decoding: elements[index].serializedBytes, as: UTF8.self))
    }
    #expect(document.child(10_000, of: list) == nil)
    let map = try #require(document.start(at: try JSONPath.parse("map")))
    #expect(document.key(299, of: map) == "k299")
    #expect(document.index(ofKey: "k150", in: map) == 150)
    #expect(document.keys(of: map)?.count == 300)
    // Members whose values are over 4 KiB each: every member is marked, found without its value.
    let wide = StateDocument(
      .object((0..<100).map { JSONMember("w\($0)", .string(String(repeating: "v", count: 5_000))) })
    )
    #expect(wide.level(of: wide.root)?.marks.count == 100)
    #expect(wide.keys(of: wide.root) == (0..<100).map { "w\($0)" })
    #expect(wide.index(ofKey: "w99", in: wide.root) == 99)
    #expect(wide.index(ofKey: "w100", in: wide.root) == nil)
  }

  @Test func keysAreMatchedScalarForScalarWhateverTheirEscapes() throws {
    let document = StateDocument(checkedText: Array(#"{"e\u0301":1,"é":2,"a\"b":3}"#.utf8))
    #expect(document.index(ofKey: "e\u{301}", in: document.root) == 0)
    #expect(document.index(ofKey: "é", in: document.root) == 1)
    #expect(document.index(ofKey: "a\"b", in: document.root) == 2)
    #expect(document.keys(of: document.root) == ["e\u{301}", "é", "a\"b"])
  }

  @Test func whetherAValueHasChildrenIsReadFromItsFirstBytes() {
    for (text, expected) in [
      ("[ ]", false), ("{}", false), (" [ 1 ] ", true), (#" { "a" : 1 } "#, true), ("7", false),
      (#""[x]""#, false),
    ] {
      let document = StateDocument(checkedText: Array(text.utf8))
      #expect(document.hasChildren(document.root) == expected, "\(text)")
      #expect((document.childCount(document.root) > 0) == expected, "\(text)")
    }
  }

  @Test func levelsUsedLeastRecentlyAreForgottenPastTheRoomButNotRecentOnes() throws {
    // Three arrays of 200 elements: each level keeps 4 marks (every 64th) and counts 5.
    let many = JSONValue.array((1...200).map { .number(String($0)) })
    let value = JSONValue.object([
      JSONMember("a", many), JSONMember("b", many), JSONMember("c", many),
    ])
    let paths = try ["a", "b"].map { try JSONPath.parse($0) }
    let forgetting = StateDocument(
      checkedText: value.serializedBytes, maxLevelEntries: 12, recentUses: 0)
    let keeping = StateDocument(
      checkedText: value.serializedBytes, maxLevelEntries: 12, recentUses: 100)
    for document in [forgetting, keeping] {
      for path in paths {
        let start = try #require(document.start(at: path))
        #expect(document.level(of: start)?.count == 200)
      }
    }
    // The root (2), a (5), b (5): 12 fits; c's 5 more do not, so the least recently used go.
    #expect(forgetting.keptLevelEntries == 12)
    let c = try #require(forgetting.start(at: try JSONPath.parse("c")))
    #expect(forgetting.level(of: c)?.count == 200)
    #expect(forgetting.keptLevelEntries <= 12)
    // All were used within the last 100 uses: the room is exceeded instead.
    let kept = try #require(keeping.start(at: try JSONPath.parse("c")))
    #expect(keeping.level(of: kept)?.count == 200)
    #expect(keeping.keptLevelEntries == 17)
    // What was forgotten is read again, the same.
    let last = try #require(forgetting.start(at: try JSONPath.parse("a[199]")))
    #expect(JSONPreview.text(ofValueAt: last, in: forgetting.text, width: 10) == "200")
  }
}
