import RewindJSON
import RewindTestSupport
import Testing

@testable import RewindReplay

private typealias Fixture = DiffFixtures

/// ``StateChanges`` keeps two states' texts and finds their changes again each time they are
/// read: the same changes, in the same order, as the diff of the parsed values; `nil` for states
/// that are equal however they are written; an invalid text refused up front.
@Suite struct StateChangesTests {
  @Test(arguments: 0..<4)
  func theChangesAreTheTreesChangesEachTimeTheyAreRead(batch: UInt64) throws {
    var random = Fixture.RandomJSON(seed: 0x57A7 + batch)
    for _ in 0..<100 {
      let todos = random.todos(count: random.int(0...40))
      var edited = todos
      for _ in 0..<random.int(0...6) { edited = random.editedTodos(edited) }
      let old = Fixture.todoState(todos)
      let new = Fixture.todoState(edited, filter: random.int(0...1) == 0 ? "all" : "done")
      let changes = try StateChanges(
        from: StateText(old.serializedBytes), to: StateText(new.serializedBytes), what: "states")
      #expect(changes?.all == JSONDiff.diff(old, new))
      // Read again, a change at a time: the same.
      var again: [JSONChange] = []
      changes?.forEachChange { again.append($0) }
      #expect(again == changes?.all ?? [])
    }
  }

  /// More changes than are held: found again from the texts, the same each time.
  @Test func manyChangesAreFoundAgainFromTheTexts() throws {
    let count = StateChanges.heldChanges + 500
    let old = Fixture.todoState((0..<count).map { Fixture.todo($0, "todo \($0)") })
    let new = Fixture.todoState([])
    let changes = try #require(
      try StateChanges(
        from: StateText(old.serializedBytes), to: StateText(new.serializedBytes), what: "states"))
    let expected = try #require(JSONDiff.diff(old, new))
    #expect(expected.count > StateChanges.heldChanges)
    #expect(changes.all == expected)
    #expect(changes.all == expected)
  }

  @Test func equalStatesHaveNoChangesHoweverTheyAreWritten() throws {
    let text = StateText(Array(#"{"a":[1,{"b":"ü"}],"d":true}"#.utf8))
    #expect(try StateChanges(from: text, to: text, what: "states") == nil)
    let written = StateText(Array(#" { "d" : true , "a" : [ 1 , { "b" : "\u00fc" } ] } "#.utf8))
    #expect(try StateChanges(from: text, to: written, what: "states") == nil)
    #expect(StateChanges([]) == nil && StateChanges(nil) == nil)
  }

  @Test func aStateThatIsNotJSONIsRefusedNamingIt() {
    #expect {
      try StateChanges(
        from: StateText(Array("[1,2]".utf8)), to: StateText(Array("[1,,2]".utf8)),
        what: "states at 3 and 4")
    } throws: { error in
      guard case .encodingFailed(let what, let reason) = error as? ReplayError else {
        return false
      }
      return what == "states at 3 and 4" && reason.hasPrefix("newText: ")
    }
  }
}
