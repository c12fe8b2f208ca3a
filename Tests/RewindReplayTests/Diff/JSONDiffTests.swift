import RewindJSON
import RewindReplay
import Testing

private typealias Fixture = DiffFixtures

@Suite struct JSONDiffTests {
  private static let todos = [
    Fixture.todo(1, "Walk the dog", done: true),
    Fixture.todo(2, "Buy milk"),
    Fixture.todo(3, "Call mom"),
    Fixture.todo(4, "Write tests"),
  ]

  @Test(arguments: [
    JSONValue.null, .bool(true), .number("1.50"), .string("x"), .array([]), .object([]),
    Fixture.todoState(todos),
  ])
  func equalValuesHaveNoChanges(value: JSONValue) {
    #expect(JSONDiff.diff(value, value) == nil)
  }

  @Test func memberOrderDoesNotMatter() {
    let old = Fixture.object(("a", Fixture.number(1)), ("b", .array([.null])))
    let new = Fixture.object(("b", .array([.null])), ("a", Fixture.number(1)))
    #expect(JSONDiff.diff(old, new) == nil)
  }

  @Test func differentScalarsAtRootAreOneChange() {
    #expect(
      JSONDiff.diff(.number("1"), .number("1.0"))
        == [.changed(.root, old: .number("1"), new: .number("1.0"))])
    #expect(JSONDiff.diff(.null, .bool(false)) == [.changed(.root, old: .null, new: .bool(false))])
  }

  @Test func objectMembersAreRemovedChangedAndAdded() {
    let old = Fixture.object(
      ("keep", .bool(true)), ("gone", .string("bye")), ("count", Fixture.number(1)))
    let new = Fixture.object(
      ("fresh", .null), ("count", Fixture.number(2)), ("keep", .bool(true)))
    #expect(
      JSONDiff.diff(old, new) == [
        .removed(JSONPath([.key("gone")]), .string("bye")),
        .changed(JSONPath([.key("count")]), old: Fixture.number(1), new: Fixture.number(2)),
        .added(JSONPath([.key("fresh")]), .null),
      ])
  }

  @Test func flippedFlagIsOneChangeDeepInside() {
    var todos = Self.todos
    todos[3] = Fixture.todo(4, "Write tests", done: true)
    let changes = JSONDiff.diff(Fixture.todoState(Self.todos), Fixture.todoState(todos))
    #expect(
      changes == [
        .changed(
          JSONPath([.key("todos"), .index(3), .key("done")]), old: .bool(false), new: .bool(true))
      ])
  }

  @Test func kindChangeIsOneChange() {
    let old = Fixture.object(("value", Fixture.object(("a", Fixture.number(1)))))
    let new = Fixture.object(("value", .array([Fixture.number(1)])))
    #expect(
      JSONDiff.diff(old, new) == [
        .changed(
          JSONPath([.key("value")]), old: Fixture.object(("a", Fixture.number(1))),
          new: .array([Fixture.number(1)]))
      ])
    #expect(
      JSONDiff.diff(.array([]), .object([])) == [.changed(.root, old: .array([]), new: .object([]))]
    )
  }

  @Test func replacedElementsOfEqualCountAreComparedInPlace() {
    let old = Fixture.numbers([1, 2, 3, 4])
    let new = Fixture.numbers([1, 7, 8, 4])
    #expect(
      JSONDiff.diff(old, new) == [
        .changed(JSONPath([.index(1)]), old: Fixture.number(2), new: Fixture.number(7)),
        .changed(JSONPath([.index(2)]), old: Fixture.number(3), new: Fixture.number(8)),
      ])
  }

  @Test func unrelatedElementInTheSamePlaceIsReplacedWhole() {
    let stranger = Fixture.object(("kind", .string("other")))
    let old = [Self.todos[0], Self.todos[1], Self.todos[2]]
    let new = [Self.todos[0], stranger, Self.todos[2]]
    #expect(
      JSONDiff.diff(.array(old), .array(new)) == [
        .changed(JSONPath([.index(1)]), old: Self.todos[1], new: stranger)
      ])
    #expect(
      JSONDiff.diff(Fixture.numbers([1, 2]), .array([Fixture.number(1), .string("2")])) == [
        .changed(JSONPath([.index(1)]), old: Fixture.number(2), new: .string("2"))
      ])
  }

  @Test func removalNextToAnEditPairsTheSimilarElement() {
    let old = Self.todos
    let new = [Self.todos[0], Fixture.todo(3, "Call mom", done: true), Self.todos[3]]
    #expect(
      JSONDiff.diff(.array(old), .array(new)) == [
        .removed(JSONPath([.index(1)]), Self.todos[1]),
        .changed(JSONPath([.index(1), .key("done")]), old: .bool(false), new: .bool(true)),
      ])
  }

  @Test func insertionNextToAnEditPairsTheSimilarElement() {
    let old = Self.todos
    let new = [
      Self.todos[0], Fixture.todo(9, "New one"), Fixture.todo(2, "Buy oat milk"),
      Self.todos[2], Self.todos[3],
    ]
    #expect(
      JSONDiff.diff(.array(old), .array(new)) == [
        .added(JSONPath([.index(1)]), Fixture.todo(9, "New one")),
        .changed(
          JSONPath([.index(2), .key("title")]), old: .string("Buy milk"),
          new: .string("Buy oat milk")),
      ])
  }

  @Test func dissimilarObjectsInAnUnevenRunAreRemovedAndAdded() {
    let stranger = Fixture.object(("kind", .string("other")))
    let old = [Self.todos[0], Self.todos[1], Self.todos[2]]
    let new = [Self.todos[0], stranger]
    #expect(
      JSONDiff.diff(.array(old), .array(new)) == [
        .removed(JSONPath([.index(1)]), Self.todos[1]),
        .removed(JSONPath([.index(2)]), Self.todos[2]),
        .added(JSONPath([.index(1)]), stranger),
      ])
  }

  @Test func removedIndicesAreOldPositionsAndOthersNewPositions() {
    // The todo at old index 2 moves to new index 1 after the removal, and its tag list loses
    // its first tag: the tag's path uses the todo's new index and the tag's old index.
    let tagged = Fixture.object(
      ("id", Fixture.number(3)), ("tags", .array([.string("a"), .string("b")])))
    let untagged = Fixture.object(("id", Fixture.number(3)), ("tags", .array([.string("b")])))
    let old = [Self.todos[0], Self.todos[1], tagged]
    let new = [Self.todos[0], untagged]
    #expect(
      JSONDiff.diff(.array(old), .array(new)) == [
        .removed(JSONPath([.index(1)]), Self.todos[1]),
        .removed(JSONPath([.index(1), .key("tags"), .index(0)]), .string("a")),
      ])
  }
}
