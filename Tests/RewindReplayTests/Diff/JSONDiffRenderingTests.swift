import RewindJSON
import RewindReplay
import Testing

private typealias Fixture = DiffFixtures

@Suite struct JSONDiffRenderingTests {
  @Test func rendersEachKindOfChangeOnItsOwnLine() {
    let old = Fixture.object(
      (
        "todos",
        .array([
          Fixture.todo(1, "Walk the dog", done: true),
          Fixture.todo(2, "Buy milk"),
          Fixture.todo(3, "Call mom"),
        ])
      ),
      ("filter", .string("all")),
      ("draft", .string("")))
    let new = Fixture.object(
      (
        "todos",
        .array([
          Fixture.todo(2, "Buy oat milk"),
          Fixture.todo(3, "Call mom", done: true),
          Fixture.todo(4, "Write tests"),
        ])
      ),
      ("filter", .string("active")),
      ("last edit", Fixture.object(("by", .string("me")))))
    let expected = """
      - todos[0]: {"id":1,"title":"Walk the dog","done":true}
      todos[0].title: "Buy milk" → "Buy oat milk"
      todos[1].done: false → true
      + todos[2]: {"id":4,"title":"Write tests","done":false}
      filter: "all" → "active"
      - draft: ""
      + ["last edit"]: {"by":"me"}
      """
    #expect(JSONDiff.render(JSONDiff.diff(old, new)) == expected)
  }

  @Test func rendersNoChangesAsOneLine() {
    #expect(JSONDiff.render(nil) == "no changes")
    #expect(JSONDiff.render([]) == "no changes")
    #expect(JSONDiff.render(JSONDiff.diff(.null, .null)) == "no changes")
  }

  @Test func rendersRootAndKindChanges() {
    let changes = JSONDiff.diff(.array([.null]), Fixture.object(("a", .bool(true))))
    #expect(JSONDiff.render(changes) == #"(root): [null] → {"a":true}"#)
  }

  @Test func shortensLongValuesToTheWidth() {
    let long = JSONValue.string(String(repeating: "a", count: 100))
    let changes: [JSONChange] = [
      .changed(JSONPath([.key("text")]), old: .string("short"), new: long),
      .added(JSONPath([.key("list")]), Fixture.numbers(0..<100_000)),
      .removed(JSONPath([.key("tiny")]), .string("abc")),
    ]
    let expected = """
      text: "short" → "aaaaaaaa…
      + list: [0,1,2,3,…
      - tiny: "abc"
      """
    #expect(JSONDiff.render(changes, maxValueWidth: 10) == expected)
  }

  @Test func shortensHugeStringsWithoutWritingThemOut() {
    let huge = JSONValue.string(String(repeating: "z", count: 5_000_000))
    let line = JSONDiff.render([.removed(JSONPath([.key("blob")]), huge)], maxValueWidth: 5)
    #expect(line == #"- blob: "zzz…"#)
  }

  @Test func defaultWidthIsEightyCharacters() {
    let value = JSONValue.string(String(repeating: "é", count: 200))
    let line = JSONDiff.render([.added(JSONPath([.key("k")]), value)])
    #expect(line == "+ k: \"" + String(repeating: "é", count: 78) + "…")
  }

  @Test func valueOfExactlyTheWidthIsNotShortened() {
    let change = JSONChange.added(JSONPath([.index(0)]), .string("12345678"))
    #expect(JSONDiff.render([change], maxValueWidth: 10) == #"+ [0]: "12345678""#)
    #expect(JSONDiff.render([change], maxValueWidth: 9) == #"+ [0]: "1234567…"#)
    #expect(JSONDiff.render([change], maxValueWidth: 0) == "+ [0]: …")
  }

  @Test func escapesControlCharactersSoEachChangeStaysOnOneLine() {
    let change = JSONChange.changed(
      JSONPath([.key("note")]), old: .string("a\nb\t\"c\"\\"), new: .string("\u{1}"))
    #expect(JSONDiff.render([change]) == #"note: "a\nb\t\"c\"\\" → "\u0001""#)
  }

  @Test func changeDescriptionIsItsRenderedLine() {
    let change = JSONChange.changed(
      JSONPath([.key("todos"), .index(2), .key("title")]), old: .string("Buy milk"),
      new: .string("Buy oat milk"))
    #expect(change.description == #"todos[2].title: "Buy milk" → "Buy oat milk""#)
    #expect(change.path.description == "todos[2].title")
  }
}
