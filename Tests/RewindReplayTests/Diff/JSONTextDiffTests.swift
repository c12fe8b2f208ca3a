import RewindJSON
import RewindTestSupport
import Testing

@testable import RewindReplay

private typealias Fixture = DiffFixtures

/// ``JSONDiff/diff(oldText:newText:limits:)`` finds, from the two texts, exactly the changes
/// ``JSONDiff/diff(_:_:)`` finds between the parsed values — also when equal values are written
/// differently (members in another order, escapes, whitespace), which byte comparison alone
/// would take for changes.
@Suite struct JSONTextDiffTests {
  /// Writes `value` as JSON text with its objects' members shuffled, some characters of its
  /// strings escaped as `\uXXXX` and, now and then, whitespace between tokens.
  static func scrambledText(_ value: JSONValue, _ random: inout SplitMix64) -> String {
    let space = Bool.random(using: &random) ? " " : ""
    switch value {
    case .null, .bool, .number:
      return value.jsonText
    case .string(let text):
      var out = "\""
      for scalar in text.unicodeScalars {
        if scalar.value < 0x10000, Int.random(in: 0..<3, using: &random) == 0 {
          out += "\\u" + String(format: "%04x", scalar.value)
        } else {
          let plain = JSONValue.string(String(scalar)).jsonText
          out += plain.dropFirst().dropLast()
        }
      }
      return out + "\""
    case .array(let elements):
      let texts = elements.map { scrambledText($0, &random) }
      return "[" + space + texts.joined(separator: "," + space) + space + "]"
    case .object(let members):
      let texts = members.shuffled(using: &random).map { member in
        JSONValue.string(member.key).jsonText + space + ":" + space
          + scrambledText(member.value, &random)
      }
      return "{" + space + texts.joined(separator: ",") + "}"
    }
  }

  /// The texts' diff against the diff of the values parsed from them (an object's changes come
  /// in its old text's member order), and those values against `old` and `new`.
  func expectSameChanges(
    _ old: JSONValue, _ new: JSONValue, oldText: String, newText: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let (oldParsed, newParsed) = (try JSONParser.parse(oldText), try JSONParser.parse(newText))
    #expect(oldParsed == old && newParsed == new, sourceLocation: sourceLocation)
    let fromTrees = JSONDiff.diff(oldParsed, newParsed)
    let fromTexts = try JSONDiff.diff(oldText: Array(oldText.utf8), newText: Array(newText.utf8))
    #expect(
      fromTexts == fromTrees, "\(oldText) → \(newText)", sourceLocation: sourceLocation)
  }

  @Test(arguments: 0..<8)
  func theTextsGiveTheTreesChanges(batch: UInt64) throws {
    var random = Fixture.RandomJSON(seed: 0x7E47 + batch)
    var scramble = SplitMix64(seed: 0x5C4A + batch)
    for _ in 0..<150 {
      let old = random.value(depth: 4)
      var new = old
      for _ in 0..<random.int(0...4) { new = random.edited(new) }
      try expectSameChanges(old, new, oldText: old.jsonText, newText: new.jsonText)
      try expectSameChanges(
        old, new, oldText: Self.scrambledText(old, &scramble),
        newText: Self.scrambledText(new, &scramble))
      try expectSameChanges(old, new, oldText: old.prettyText(), newText: new.jsonText)
    }
  }

  @Test(arguments: 0..<4)
  func todoListsGiveTheTreesChanges(batch: UInt64) throws {
    var random = Fixture.RandomJSON(seed: 0x70DE + batch)
    var scramble = SplitMix64(seed: 0x70DF + batch)
    for _ in 0..<50 {
      let todos = random.todos(count: random.int(0...40))
      var edited = todos
      for _ in 0..<random.int(1...6) { edited = random.editedTodos(edited) }
      let old = Fixture.todoState(todos)
      let new = Fixture.todoState(edited, filter: "done")
      try expectSameChanges(old, new, oldText: old.jsonText, newText: new.jsonText)
      try expectSameChanges(
        old, new, oldText: Self.scrambledText(old, &scramble), newText: new.jsonText)
    }
  }

  /// Texts that share bytes at their start and end across the places where they differ: what
  /// the narrowing to the differing children must not be fooled by (a child that is whole in
  /// one text and cut in the other, a key moved out of the shared bytes, strings and escapes
  /// around the difference).
  @Test(arguments: [
    ("[1,23]", "[12,3]"), ("[1,2,3]", "[1,3]"), ("[1,3]", "[1,2,3]"), ("[[1],[2]]", "[[1,2]]"),
    (#"{"a":1,"b":2}"#, #"{"b":2,"a":1,"c":3}"#), (#"{"a":1,"b":2}"#, #"{"a":1,"c":2}"#),
    (#"{"ab":1}"#, #"{"a":1,"b":1}"#), (#"["a\"b","c"]"#, #"["a\"","b","c"]"#),
    (#"["x","y"]"#, #"["x\",\"y"]"#),
    (
      #"{"t":[{"id":1,"v":"a"},{"id":2,"v":"b"}]}"#,
      #"{"t":[{"id":2,"v":"b"}]}"#
    ), ("[]", "[0]"), ("{}", #"{"":{}}"#),
    (#"{"a":{"b":{"c":1}},"d":[1,2]}"#, #"{"a":{"b":{"c":2}},"d":[1,2]}"#),
    // A container reaching into the difference and on past it, or ending within it, with
    // members, strings, escapes and spaces after it (read backward) or before it.
    (#"{"a":[1,2],"b":3}"#, #"{"a":[1],"x":[2],"b":3}"#),
    (
      #"{"a":[{"k":"v\\"},{"k":"w"}], "s":"\"]}" ,"n":-1.5e3 }"#,
      #"{"a":[{"k":"v\\"},{"k":"x"}], "s":"\"]}" ,"n":-1.5e3 }"#
    ),
    (
      #"{"t":[{"id":1},{"id":2}],"f":"all","n":3}"#,
      #"{"t":[{"id":1},{"id":2},{"id":3}],"f":"all","n":4}"#
    ),
    (#"[[1,[2,3]],[4]]"#, #"[[1,[2,4]],[4]]"#), (#"[[1],[2] ]"#, #"[[1],[2,3] ]"#),
    (#"{"a":["x\"y",{"b":"]"}],"c":"\\"}"#, #"{"a":["x\"y",{"b":"}"}],"c":"\\"}"#),
  ])
  func sharedBytesAroundADifferenceGiveTheTreesChanges(pair: (String, String)) throws {
    let old = try JSONParser.parse(Array(pair.0.utf8))
    let new = try JSONParser.parse(Array(pair.1.utf8))
    try expectSameChanges(old, new, oldText: pair.0, newText: pair.1)
    try expectSameChanges(new, old, oldText: pair.1, newText: pair.0)
  }

  /// An equal value written another way is no change at all.
  @Test func anEqualValueWrittenDifferentlyIsNoChange() throws {
    let old = #"{"a":[1,{"b":"ü","c":null}],"d":true}"#
    let new = #" { "d" : true , "a" : [ 1 , { "c" : null , "b" : "\u00fc" } ] } "#
    #expect(try JSONDiff.diff(oldText: Array(old.utf8), newText: Array(new.utf8)) == nil)
  }

  /// One todo changed among many: the change names its member, and only its values are built.
  @Test func oneMemberChangedAmongManyElements() throws {
    let todos = (0..<2_000).map { Fixture.todo($0, "todo \($0)") }
    var edited = todos
    edited[1_234] = Fixture.todo(1_234, "todo 1234", done: true)
    let changes = try JSONDiff.diff(
      oldText: Fixture.todoState(todos).serializedBytes,
      newText: Fixture.todoState(edited).serializedBytes)
    #expect(changes.map { $0.map(\.description) } == ["todos[1234].done: false → true"])
  }

  /// A text that is not one JSON value is refused, naming which text and where.
  @Test func anInvalidTextIsRefusedWithItsPosition() {
    #expect {
      try JSONDiff.diff(oldText: Array("[1,2]".utf8), newText: Array("[1,,2]".utf8))
    } throws: { error in
      guard let error = error as? JSONTextDiffError else { return false }
      return error.source == "newText" && error.error.offset == 3
    }
  }
}
