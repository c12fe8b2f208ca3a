import RewindJSON
import Testing

@testable import RewindReplay

/// State paths as users type them (`todos[2].title`, `todos.count`) and what they find in a
/// state — or, when they find nothing, what is there instead.
@Suite struct StatePathQueryTests {
  private let state: JSONValue = {
    func todo(_ id: Int, _ title: String) -> JSONValue {
      .object([
        JSONMember("id", .number(String(id))), JSONMember("title", .string(title)),
        JSONMember("done", .bool(false)),
      ])
    }
    return .object([
      JSONMember("todos", .array([todo(1, "Buy milk"), todo(2, "Call mum"), todo(3, "Pay rent")])),
      JSONMember("filter", .string("active")),
      JSONMember("weird key", .object([JSONMember("x", .number("7"))])),
      JSONMember("empty", .array([])),
      JSONMember("byID", .object([JSONMember("2", .string("Call mum"))])),
    ])
  }()

  @Test(
    arguments: [
      ("todos[2].title", [.key("todos"), .index(2), .key("title")]),
      ("filter", [.key("filter")]),
      ("todos.count", [.key("todos"), .key("count")]),
      (#"["weird key"]"#, [.key("weird key")]),
      (#"["weird key"].x"#, [.key("weird key"), .key("x")]),
      (#"["say \"hi\""]"#, [.key(#"say "hi""#)]),
      (".todos", [.key("todos")]),
      ("[0][1]", [.index(0), .index(1)]),
      ("", []),
      (".", []),
    ] as [(String, [JSONPath.Component])])
  func parsesPaths(text: String, components: [JSONPath.Component]) throws {
    #expect(try JSONPath.parse(text) == JSONPath(components))
  }

  @Test(
    arguments: [
      ("todos[2].title", .string("Pay rent")),
      ("filter", .string("active")),
      ("todos.count", .number("3")),
      ("empty.count", .number("0")),
      (#"["weird key"].x"#, .number("7")),
      (#"["weird key"].count"#, .number("1")),
      ("byID[2]", .string("Call mum")),
      (".", nil),
    ] as [(String, JSONValue?)])
  func findsValues(text: String, expected: JSONValue?) throws {
    let value = try state.value(at: JSONPath.parse(text))
    #expect(value == (expected ?? state))
    // Looked up in the state's text, as `state --path` and `print` do: the same value.
    #expect(try JSONPath.parse(text).value(inText: state.serializedBytes) == (expected ?? state))
  }

  @Test(
    arguments: [
      (
        "todos[0].titl",
        StatePathError.noSuchKey("titl", in: "todos[0]", available: ["id", "title", "done"]),
        "todos[0] has no key 'titl'; its keys are: id, title, done"
      ),
      (
        "todos[3]", .indexOutOfRange(3, in: "todos", count: 3),
        "index 3 is out of range: todos has 3 elements (0…2)"
      ),
      (
        "empty[0]", .indexOutOfRange(0, in: "empty", count: 0),
        "index 0 is out of range: empty is empty"
      ),
      (
        "filtr",
        .noSuchKey(
          "filtr", in: "(root)", available: ["todos", "filter", "weird key", "empty", "byID"]),
        "(root) has no key 'filtr'; its keys are: todos, filter, weird key, empty, byID"
      ),
      (
        "filter.x", .notAContainer("filter", kind: "string"),
        "filter is a string, which has no members"
      ),
      (
        "todos.first", .noSuchKey("first", in: "todos", available: ["count", "[0]…"]),
        "todos has no key 'first'; its keys are: count, [0]…"
      ),
    ] as [(String, StatePathError, String)])
  func pathsThatLeadNowhereSayWhatIsThere(text: String, error: StatePathError, message: String) {
    #expect(throws: error) { try state.value(at: JSONPath.parse(text)) }
    #expect(throws: error) { try JSONPath.parse(text).value(inText: state.serializedBytes) }
    #expect(error.description == message)
  }

  @Test(
    arguments: [
      ("todos[", 6, "expected an index (a whole number), a quoted key or MEMBER=VALUE after '['"),
      ("todos[x]", 6, "expected an index (a whole number), a quoted key or MEMBER=VALUE after '['"),
      ("todos[1", 7, "expected ']'"),
      (#"["open"#, 6, "unterminated quoted key"),
      ("todos..title", 6, "unexpected '.'"),
      ("todos.", 6, "expected a key after '.'"),
      ("todos[1]title", 8, "expected '.' or '[' before a key"),
      // The offset is the character where the path goes wrong: the space.
      ("my todos", 2, "unexpected character in key 'my todos'; quote it: [\"my todos\"]"),
      ("todos]", 5, "unexpected character in key 'todos]'; quote it: [\"todos]\"]"),
    ] as [(String, Int, String)])
  func malformedPathsAreSyntaxErrorsAtTheirCharacter(text: String, offset: Int, reason: String) {
    #expect(throws: StatePathError.syntax(text, offset: offset, reason: reason)) {
      try JSONPath.parse(text)
    }
  }
}
