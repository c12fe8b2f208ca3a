import RewindJSON
import Testing

@testable import Rewind

/// Each kind of migration step on JSON values: where its path reaches, and nowhere else.
@Suite struct MigrationStepTests {
  static func json(_ text: String) throws -> JSONValue { try JSONParser.parse(Array(text.utf8)) }

  static func run(_ step: MigrationStep, on text: String) throws -> String {
    var value = try json(text)
    try step.apply(to: &value)
    return String(decoding: value.serializedBytes, as: UTF8.self)
  }

  @Test func renameKeyRenamesInPlaceWhereThePathLeadsAndNowhereElse() throws {
    let step = MigrationStep.renameKey("text", to: "title", in: "add")
    #expect(
      try Self.run(step, on: #"{"add":{"text":"milk","n":1}}"#)
        == #"{"add":{"title":"milk","n":1}}"#)
    #expect(try Self.run(step, on: #"{"toggle":{"text":"x"}}"#) == #"{"toggle":{"text":"x"}}"#)
    #expect(try Self.run(step, on: #""refresh""#) == #""refresh""#)
    #expect(step.name == "rename key text → title in add")
    // A member already named `title` gives way: keys stay unique.
    #expect(
      try Self.run(step, on: #"{"add":{"title":"old","text":"milk"}}"#)
        == #"{"add":{"title":"milk"}}"#)
  }

  @Test func aPathReachesEachElementOfAnArray() throws {
    let step = MigrationStep.renameKey("text", to: "title", in: "lists[].todos[]")
    #expect(
      try Self.run(
        step, on: #"{"lists":[{"todos":[{"text":"a"},{"text":"b"}]},{"todos":[]}],"n":2}"#)
        == #"{"lists":[{"todos":[{"title":"a"},{"title":"b"}]},{"todos":[]}],"n":2}"#)
    // A path that does not match the shape leaves the value alone.
    #expect(try Self.run(step, on: #"{"lists":{"todos":1}}"#) == #"{"lists":{"todos":1}}"#)
  }

  @Test func renameCaseRenamesAPayloadCaseOrARawValue() throws {
    let step = MigrationStep.renameCase("archive", to: "remove")
    #expect(try Self.run(step, on: #"{"archive":{"id":3}}"#) == #"{"remove":{"id":3}}"#)
    #expect(try Self.run(step, on: #""archive""#) == #""remove""#)
    #expect(try Self.run(step, on: #"{"archived":{}}"#) == #"{"archived":{}}"#)
    let nested = MigrationStep.renameCase("asc", to: "ascending", in: "settings.sort")
    #expect(
      try Self.run(nested, on: #"{"settings":{"sort":"asc"}}"#)
        == #"{"settings":{"sort":"ascending"}}"#)
  }

  @Test func insertDefaultAddsOnlyWhatIsMissing() throws {
    let step = MigrationStep.insertDefault("priority", .number("0"), in: "todos[]")
    #expect(
      try Self.run(step, on: #"{"todos":[{"id":1},{"id":2,"priority":5}]}"#)
        == #"{"todos":[{"id":1,"priority":0},{"id":2,"priority":5}]}"#)
  }

  @Test func dropKeyRemovesTheMember() throws {
    let step = MigrationStep.dropKey("color", in: "add")
    #expect(
      try Self.run(step, on: #"{"add":{"title":"x","color":"red"}}"#) == #"{"add":{"title":"x"}}"#)
  }

  struct Refused: Error, CustomStringConvertible {
    var description: String { "a negative id" }
  }

  @Test func aCustomStepDoesAnythingAndMayThrow() throws {
    let double = MigrationStep("double the id") { value in
      guard case .object(var members) = value, case .number(let n)? = members.first?.value
      else { return }
      guard let id = Int(n), id >= 0 else { throw Refused() }
      members[0].value = .number(String(id * 2))
      value = .object(members)
    }
    #expect(try Self.run(double, on: #"{"id":21}"#) == #"{"id":42}"#)
    #expect(throws: Refused.self) { try Self.run(double, on: #"{"id":-1}"#) }
  }

  @Test func aBuildStampReadsBackAndSaysWhatItKnows() {
    let stamp = BuildStamp(version: "1.4.2", build: "87", revision: "3f9a2c1", schema: 3)
    #expect(stamp.summary == "1.4.2 (87), revision 3f9a2c1, schema 3")
    #expect(BuildStamp(json: stamp.json) == stamp)
    #expect(BuildStamp(schema: 2).summary == "schema 2")
    #expect(BuildStamp(build: "9").summary == "build 9")
    #expect(BuildStamp().isEmpty)
    #expect(
      String(decoding: BuildStamp(version: "2").json.serializedBytes, as: UTF8.self)
        == #"{"version":"2"}"#)
  }
}
