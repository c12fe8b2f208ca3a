import RewindJSON
import RewindReplay
import Testing

private typealias Fixture = DiffFixtures

private func pointer(_ text: String) -> JSONPointer {
  (try? JSONPointer(parsing: text)) ?? JSONPointer(tokens: ["invalid pointer in test", text])
}

private func apply(_ operations: [JSONPatchOperation], to document: JSONValue)
  throws(JSONPatchError)
  -> JSONValue
{
  try JSONPatch(operations).apply(to: document)
}

@Suite struct JSONPatchTests {
  @Test func writesRFCOperationObjects() {
    let patch = JSONPatch([
      .replace(path: pointer("/todos/2/title"), value: .string("Buy oat milk")),
      .remove(path: pointer("/a~1b")),
      .move(from: pointer("/x"), path: pointer("/y")),
    ])
    #expect(
      patch.jsonValue
        == .array([
          Fixture.object(
            ("op", .string("replace")), ("path", .string("/todos/2/title")),
            ("value", .string("Buy oat milk"))),
          Fixture.object(("op", .string("remove")), ("path", .string("/a~1b"))),
          Fixture.object(("op", .string("move")), ("from", .string("/x")), ("path", .string("/y"))),
        ]))
  }

  @Test func readsWhatItWrites() throws {
    let patch = JSONPatch([
      .add(path: pointer("/a/-"), value: Fixture.numbers([1, 2])),
      .remove(path: pointer("/b")),
      .replace(path: pointer(""), value: .null),
      .move(from: pointer("/c"), path: pointer("/d")),
      .copy(from: pointer("/e"), path: pointer("/m~0n")),
      .test(path: pointer("/f"), value: .string("x")),
    ])
    #expect(try JSONPatch(jsonValue: patch.jsonValue) == patch)
    #expect(patch.operations.map(\.name) == ["add", "remove", "replace", "move", "copy", "test"])
    #expect(patch.operations.map(\.path.description) == ["/a/-", "/b", "", "/d", "/m~0n", "/f"])
  }

  @Test func addsMembersAndElements() throws {
    let document = Fixture.object(("foo", .array([.string("bar"), .string("baz")])))
    #expect(
      try apply(
        [
          .add(path: pointer("/foo/1"), value: .string("qux")),
          .add(path: pointer("/foo/-"), value: .string("end")),
          .add(path: pointer("/foo/0"), value: .string("start")),
          .add(path: pointer("/new"), value: .bool(true)),
          .add(path: pointer("/new"), value: .bool(false)),
        ], to: document)
        == Fixture.object(
          (
            "foo",
            .array([
              .string("start"), .string("bar"), .string("qux"), .string("baz"), .string("end"),
            ])
          ),
          ("new", .bool(false))))
    #expect(try apply([.add(path: .root, value: .null)], to: document) == .null)
  }

  @Test func removesAndReplaces() throws {
    let document = Fixture.object(
      ("baz", .string("qux")), ("foo", .array([.string("bar"), .string("qux"), .string("baz")])))
    #expect(
      try apply(
        [
          .remove(path: pointer("/foo/1")),
          .remove(path: pointer("/baz")),
          .replace(path: pointer("/foo/0"), value: .number("7")),
        ], to: document)
        == Fixture.object(("foo", .array([.number("7"), .string("baz")]))))
    #expect(
      try apply([.replace(path: .root, value: .string("all"))], to: document) == .string("all"))
  }

  @Test func movesAndCopies() throws {
    let document = Fixture.object(
      ("foo", Fixture.object(("bar", .string("baz")), ("waldo", .string("fred")))),
      ("qux", Fixture.object(("corge", .string("grault")))),
      ("list", .array([.string("all"), .string("grass"), .string("cows"), .string("eat")])))
    let patched = try apply(
      [
        .move(from: pointer("/foo/waldo"), path: pointer("/qux/thud")),
        .move(from: pointer("/list/1"), path: pointer("/list/3")),
        .copy(from: pointer("/qux"), path: pointer("/copy")),
        .move(from: pointer("/foo"), path: pointer("/foo")),
      ], to: document)
    #expect(
      patched
        == Fixture.object(
          ("foo", Fixture.object(("bar", .string("baz")))),
          ("qux", Fixture.object(("corge", .string("grault")), ("thud", .string("fred")))),
          ("list", .array([.string("all"), .string("cows"), .string("eat"), .string("grass")])),
          ("copy", Fixture.object(("corge", .string("grault")), ("thud", .string("fred"))))))
  }

  @Test func testsValuesComparingNumbersByValue() throws {
    let document = Fixture.object(
      ("n", .number("1.0")), ("list", .array([Fixture.object(("a", .number("10")))])),
      ("m~n", .string("x")))
    let checks: [JSONPatchOperation] = [
      .test(path: pointer("/n"), value: .number("1")),
      .test(path: pointer("/n"), value: .number("1e0")),
      .test(path: pointer("/list"), value: .array([Fixture.object(("a", .number("1e1")))])),
      .test(path: pointer("/m~0n"), value: .string("x")),
    ]
    #expect(try apply(checks, to: document) == document)
  }

  @Test func patchIsAppliedAsAWholeOrNotAtAll() {
    let document = Fixture.numbers([1, 2, 3])
    #expect(throws: JSONPatchError.self) {
      try apply([.remove(path: pointer("/0")), .remove(path: pointer("/9"))], to: document)
    }
    #expect(document == Fixture.numbers([1, 2, 3]))
  }

  private static let document = Fixture.object(
    ("todos", .array([Fixture.todo(1, "Walk the dog"), Fixture.todo(2, "Buy milk")])),
    ("count", .number("2")))

  @Test(arguments: [
    (
      JSONPatchOperation.remove(path: pointer("/todos/7")),
      JSONPatchError.arrayIndexOutOfRange(
        operation: 1, pointer: pointer("/todos/7"), token: "7", count: 2),
      #"operation 1: "/todos/7": index 7 is out of range for an array of 2 elements"#
    ),
    (
      .add(path: pointer("/todos/3"), value: .null),
      .arrayIndexOutOfRange(operation: 1, pointer: pointer("/todos/3"), token: "3", count: 2),
      #"operation 1: "/todos/3": index 3 is out of range for an array of 2 elements"#
    ),
    (
      .replace(path: pointer("/todos/-"), value: .null),
      .arrayIndexOutOfRange(operation: 1, pointer: pointer("/todos/-"), token: "-", count: 2),
      #"operation 1: "/todos/-": index - is out of range for an array of 2 elements"#
    ),
    (
      .remove(path: pointer("/todos/01")),
      .invalidArrayIndex(operation: 1, pointer: pointer("/todos/01"), token: "01"),
      #"operation 1: "/todos/01": "01" is not an array index"#
    ),
    (
      .add(path: pointer("/todos/x/title"), value: .null),
      .invalidArrayIndex(operation: 1, pointer: pointer("/todos/x/title"), token: "x"),
      #"operation 1: "/todos/x/title": "x" is not an array index"#
    ),
    (
      .replace(path: pointer("/todos/1/titel"), value: .null),
      .noSuchMember(operation: 1, pointer: pointer("/todos/1/titel"), key: "titel"),
      #"operation 1: "/todos/1/titel": no member "titel""#
    ),
    (
      .add(path: pointer("/missing/a"), value: .null),
      .noSuchMember(operation: 1, pointer: pointer("/missing/a"), key: "missing"),
      #"operation 1: "/missing/a": no member "missing""#
    ),
    (
      .add(path: pointer("/count/a"), value: .null),
      .notAContainer(operation: 1, pointer: pointer("/count/a"), token: "a", kind: "number"),
      #"operation 1: "/count/a": cannot look up "a" in a number"#
    ),
    (
      .remove(path: .root),
      .cannotRemoveRoot(operation: 1),
      #"operation 1: cannot remove the whole document (path "")"#
    ),
    (
      .move(from: pointer("/todos"), path: pointer("/todos/0/sub")),
      .moveIntoDescendant(operation: 1, from: pointer("/todos"), path: pointer("/todos/0/sub")),
      #"operation 1: cannot move "/todos" into its own descendant "/todos/0/sub""#
    ),
    (
      .copy(from: pointer("/nope"), path: pointer("/count")),
      .noSuchMember(operation: 1, pointer: pointer("/nope"), key: "nope"),
      #"operation 1: "/nope": no member "nope""#
    ),
    (
      .test(path: pointer("/todos/0/done"), value: .bool(true)),
      .testFailed(
        operation: 1, pointer: pointer("/todos/0/done"), expected: .bool(true),
        actual: .bool(false)),
      #"operation 1: test failed at "/todos/0/done": expected true, found false"#
    ),
    (
      .test(path: pointer("/count"), value: .string("2")),
      .testFailed(
        operation: 1, pointer: pointer("/count"), expected: .string("2"), actual: .number("2")),
      #"operation 1: test failed at "/count": expected "2", found 2"#
    ),
  ])
  func failingOperationGivesTypedError(
    operation: JSONPatchOperation, error: JSONPatchError, message: String
  ) {
    let patch = JSONPatch([.test(path: pointer("/count"), value: .number("2")), operation])
    #expect(throws: error) { try patch.apply(to: Self.document) }
    #expect(error.operationIndex == 1)
    #expect(error.description == message)
  }

  @Test func errorNamesThePointerThatFailed() {
    let error = JSONPatchError.noSuchMember(operation: 3, pointer: pointer("/a/b"), key: "a")
    #expect(error.pointer == pointer("/a/b"))
    #expect(JSONPatchError.patchIsNotAnArray(kind: "object").operationIndex == nil)
    #expect(JSONPatchError.patchIsNotAnArray(kind: "object").pointer == nil)
  }

  @Test(arguments: [
    (
      Fixture.object(), JSONPatchError.patchIsNotAnArray(kind: "object"),
      "a JSON Patch must be an array of operations, found an object"
    ),
    (
      .array([.string("add")]), .operationIsNotAnObject(operation: 0, kind: "string"),
      "operation 0: must be an object, found a string"
    ),
    (
      .array([Fixture.object(("path", .string("/a")))]), .missingMember(operation: 0, name: "op"),
      #"operation 0: missing member "op""#
    ),
    (
      .array([
        Fixture.object(("op", .string("remove")), ("path", .string("/a"))),
        Fixture.object(("op", .string("add")), ("path", .string("/a"))),
      ]),
      .missingMember(operation: 1, name: "value"),
      #"operation 1: missing member "value""#
    ),
    (
      .array([Fixture.object(("op", .string("move")), ("path", .string("/a")))]),
      .missingMember(operation: 0, name: "from"),
      #"operation 0: missing member "from""#
    ),
    (
      .array([Fixture.object(("op", .string("remove")), ("path", .number("1")))]),
      .memberIsNotAString(operation: 0, name: "path", kind: "number"),
      #"operation 0: member "path" must be a string, found a number"#
    ),
    (
      .array([Fixture.object(("op", .string("delete")), ("path", .string("/a")))]),
      .unknownOperation(operation: 0, name: "delete"),
      #"operation 0: unknown op "delete" (expected add, remove, replace, move, copy or test)"#
    ),
    (
      .array([Fixture.object(("op", .string("remove")), ("path", .string("a")))]),
      .invalidPointer(operation: 0, member: "path", error: .missingLeadingSlash(pointer: "a")),
      #"operation 0: member "path": invalid JSON pointer "a": it must be empty or start with "/""#
    ),
  ])
  func malformedPatchDocumentGivesTypedError(
    json: JSONValue, error: JSONPatchError, message: String
  ) {
    #expect(throws: error) { try JSONPatch(jsonValue: json) }
    #expect(error.description == message)
  }

  @Test func ignoresUnknownMembers() throws {
    let json = JSONValue.array([
      Fixture.object(("op", .string("remove")), ("path", .string("/a")), ("note", .null))
    ])
    #expect(try JSONPatch(jsonValue: json) == JSONPatch([.remove(path: pointer("/a"))]))
  }
}
