import RewindJSON
import RewindReplay
import Testing

private typealias Fixture = DiffFixtures

/// The patch made from a diff turns the old value into the new one, for many random values.
@Suite struct JSONPatchRoundTripTests {
  @Test(arguments: 0..<8)
  func patchOfDiffTurnsOldIntoNew(batch: UInt64) throws {
    var random = Fixture.RandomJSON(seed: 0xD1FF + batch)
    for _ in 0..<100 {
      let old = random.value(depth: 4)
      var new = old
      for _ in 0..<random.int(1...4) {
        new = random.edited(new)
      }
      try expectRoundTrip(old, new)
    }
  }

  @Test(arguments: 0..<4)
  func patchOfTodoListEditsTurnsOldIntoNew(batch: UInt64) throws {
    var random = Fixture.RandomJSON(seed: 0x70D0 + batch)
    for _ in 0..<50 {
      let old = random.todos(count: random.int(0...40))
      var new = old
      for _ in 0..<random.int(1...6) {
        new = random.editedTodos(new)
      }
      try expectRoundTrip(Fixture.todoState(old), Fixture.todoState(new, filter: "done"))
    }
  }

  @Test func patchOfUnrelatedValuesReplacesTheDocument() throws {
    try expectRoundTrip(.string("a"), Fixture.numbers([1]))
    #expect(
      JSONPatch(from: .null, to: .bool(true))
        == JSONPatch([.replace(path: .root, value: .bool(true))]))
  }

  @Test func equalValuesGiveAnEmptyPatch() {
    let value = Fixture.todoState([Fixture.todo(1, "a")])
    #expect(JSONPatch(from: value, to: value) == JSONPatch())
    #expect(JSONPatch(changes: nil).jsonValue == .array([]))
  }

  @Test func oneInsertionIntoAThousandIsOneAdd() {
    var values = Array(0..<1000)
    let old = Fixture.numbers(values)
    values.insert(5000, at: 417)
    let patch = JSONPatch(from: old, to: Fixture.numbers(values))
    #expect(
      patch == JSONPatch([.add(path: JSONPointer(tokens: ["417"]), value: Fixture.number(5000))]))
  }

  @Test func oneRemovalFromAThousandIsOneRemove() {
    var values = Array(0..<1000)
    let old = Fixture.numbers(values)
    values.remove(at: 731)
    let patch = JSONPatch(from: old, to: Fixture.numbers(values))
    #expect(patch == JSONPatch([.remove(path: JSONPointer(tokens: ["731"]))]))
  }

  @Test func operationsKeepIndicesValidAsTheArrayChanges() throws {
    let old = Fixture.numbers([0, 1, 2, 3, 4, 5, 6])
    let new = JSONValue.array([
      .string("a"), Fixture.number(1), .bool(true), Fixture.number(3), Fixture.number(5),
      .string("b"), .string("c"),
    ])
    let patch = JSONPatch(from: old, to: new)
    #expect(try patch.apply(to: old) == new)
    #expect(
      patch.jsonValue
        == .array([
          Fixture.object(("op", .string("remove")), ("path", .string("/6"))),
          Fixture.object(("op", .string("remove")), ("path", .string("/4"))),
          Fixture.object(("op", .string("add")), ("path", .string("/5")), ("value", .string("b"))),
          Fixture.object(("op", .string("add")), ("path", .string("/6")), ("value", .string("c"))),
          Fixture.object(
            ("op", .string("replace")), ("path", .string("/0")), ("value", .string("a"))),
          Fixture.object(
            ("op", .string("replace")), ("path", .string("/2")), ("value", .bool(true))),
        ]))
  }

  private func expectRoundTrip(
    _ old: JSONValue, _ new: JSONValue, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let changes = JSONDiff.diff(old, new)
    #expect((changes == nil) == (old == new), sourceLocation: sourceLocation)
    let patch = JSONPatch(changes: changes)
    let patched = try patch.apply(to: old)
    #expect(
      patched == new,
      "\(JSONDiff.render(changes))\nold: \(old)\nnew: \(new)",
      sourceLocation: sourceLocation)
    #expect(try JSONPatch(jsonValue: patch.jsonValue) == patch, sourceLocation: sourceLocation)
  }
}
