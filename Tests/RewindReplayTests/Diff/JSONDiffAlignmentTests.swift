import RewindJSON
import RewindReplay
import Testing

private typealias Fixture = DiffFixtures

/// How arrays are aligned: insertions and removals anywhere in long arrays are single changes.
@Suite struct JSONDiffAlignmentTests {
  @Test(arguments: [0, 1, 500, 999, 1000])
  func oneInsertionIntoAThousandIsOneAddition(position: Int) {
    var values = Array(0..<1000)
    let old = Fixture.numbers(values)
    values.insert(-1, at: position)
    let changes = JSONDiff.diff(old, Fixture.numbers(values))
    #expect(changes == [.added(JSONPath([.index(position)]), Fixture.number(-1))])
  }

  @Test(arguments: [0, 1, 500, 998, 999])
  func oneRemovalFromAThousandIsOneRemoval(position: Int) {
    var values = Array(0..<1000)
    let old = Fixture.numbers(values)
    values.remove(at: position)
    let changes = JSONDiff.diff(old, Fixture.numbers(values))
    #expect(changes == [.removed(JSONPath([.index(position)]), Fixture.number(position))])
  }

  @Test func insertionAmongRepeatedElementsIsOneAddition() {
    let old = JSONValue.array(Array(repeating: .string("x"), count: 50))
    let new = JSONValue.array(Array(repeating: .string("x"), count: 51))
    #expect(JSONDiff.diff(old, new)?.count == 1)
  }

  @Test func movedElementIsRemovedAndAdded() {
    let old = Fixture.numbers(0..<10)
    let new = Fixture.numbers([1, 2, 3, 4, 5, 6, 0, 7, 8, 9])
    #expect(
      JSONDiff.diff(old, new) == [
        .removed(JSONPath([.index(0)]), Fixture.number(0)),
        .added(JSONPath([.index(6)]), Fixture.number(0)),
      ])
  }

  @Test func scatteredEditsInTenThousandElementsAreFound() {
    let old = (0..<10_000).map { Fixture.todo($0, "todo \($0)") }
    var new = old
    new.insert(Fixture.todo(-1, "first"), at: 0)
    new.remove(at: 5_001)
    new[7_000] = Fixture.todo(7_000, "todo 7000", done: true)
    new.append(Fixture.todo(10_000, "last"))
    let changes = JSONDiff.diff(.array(old), .array(new))
    #expect(
      changes == [
        .added(JSONPath([.index(0)]), Fixture.todo(-1, "first")),
        .removed(JSONPath([.index(5_000)]), old[5_000]),
        .changed(JSONPath([.index(7_000), .key("done")]), old: .bool(false), new: .bool(true)),
        .added(JSONPath([.index(10_000)]), Fixture.todo(10_000, "last")),
      ])
  }

  @Test func wholesaleReplacementOfALongArrayStaysCorrect() throws {
    let old = Fixture.numbers(0..<5_000)
    let new = Fixture.numbers(10_000..<13_000)
    let changes = try #require(JSONDiff.diff(old, new))
    #expect(changes.count == 8_000)
    #expect(try JSONPatch(changes: changes).apply(to: old) == new)
  }

  /// Every change stands for one removal and one insertion (`.changed`) or one of either; their
  /// total is minimal exactly when the alignment kept a longest common subsequence.
  @Test func alignmentKeepsALongestCommonSubsequence() {
    var random = Fixture.RandomJSON(seed: 7)
    for _ in 0..<300 {
      let old = (0..<random.int(0...30)).map { _ in random.int(0...4) }
      let new = (0..<random.int(0...30)).map { _ in random.int(0...4) }
      let changes = JSONDiff.diff(Fixture.numbers(old), Fixture.numbers(new)) ?? []
      let edits = changes.reduce(0) { total, change in
        if case .changed = change { return total + 2 }
        return total + 1
      }
      #expect(edits == old.count + new.count - 2 * longestCommonSubsequence(old, new))
    }
  }

  private func longestCommonSubsequence(_ a: [Int], _ b: [Int]) -> Int {
    var previous = [Int](repeating: 0, count: b.count + 1)
    for x in a {
      var current = [0]
      for (j, y) in b.enumerated() {
        current.append(x == y ? previous[j] + 1 : max(previous[j + 1], current[j]))
      }
      previous = current
    }
    return previous[b.count]
  }
}
