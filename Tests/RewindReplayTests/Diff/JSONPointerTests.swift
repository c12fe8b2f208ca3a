import RewindReplay
import Testing

@Suite struct JSONPointerTests {
  @Test(
    arguments: [
      ("", []),
      ("/", [""]),
      ("/todos/2/title", ["todos", "2", "title"]),
      ("/a~1b", ["a/b"]),
      ("/m~0n", ["m~n"]),
      ("/~01", ["~1"]),
      ("/~10", ["/0"]),
      ("/a//b/", ["a", "", "b", ""]),
      ("/ /c%d/e^f/ü", [" ", "c%d", "e^f", "ü"]),
    ] as [(String, [String])])
  func parsesAndRendersTokens(text: String, tokens: [String]) throws {
    let pointer = try JSONPointer(parsing: text)
    #expect(pointer.tokens == tokens)
    #expect(pointer.description == text)
    #expect(JSONPointer(tokens: tokens).description == text)
  }

  @Test func escapesTildeBeforeSlash() {
    #expect(JSONPointer(tokens: ["~/", "/~"]).description == "/~0~1/~1~0")
  }

  @Test func escapesTildeFollowedByCombiningMark() throws {
    let token = "~\u{301}"
    let pointer = JSONPointer(tokens: [token])
    #expect(pointer.description == "/~0\u{301}")
    #expect(try JSONPointer(parsing: pointer.description).tokens == [token])
  }

  @Test(arguments: [
    (
      "todos", JSONPointerError.missingLeadingSlash(pointer: "todos"),
      #"invalid JSON pointer "todos": it must be empty or start with "/""#
    ),
    (
      "/a~", .invalidEscape(pointer: "/a~", offset: 2),
      #"invalid JSON pointer "/a~": "~" at offset 2 must be followed by "0" (for "~") or "1" (for "/")"#
    ),
    (
      "/~2/b", .invalidEscape(pointer: "/~2/b", offset: 1),
      #"invalid JSON pointer "/~2/b": "~" at offset 1 must be followed by "0" (for "~") or "1" (for "/")"#
    ),
    (
      "/ü~x", .invalidEscape(pointer: "/ü~x", offset: 2),
      #"invalid JSON pointer "/ü~x": "~" at offset 2 must be followed by "0" (for "~") or "1" (for "/")"#
    ),
  ])
  func rejectsMalformedPointers(text: String, error: JSONPointerError, message: String) {
    #expect(throws: error) { try JSONPointer(parsing: text) }
    #expect(error.description == message)
  }

  @Test func navigatesParentsAndAncestors() throws {
    let title = try JSONPointer(parsing: "/todos/2/title")
    let todos = try JSONPointer(parsing: "/todos")
    #expect(title.parent == JSONPointer(tokens: ["todos", "2"]))
    #expect(JSONPointer.root.parent == nil)
    #expect(JSONPointer.root.isRoot)
    #expect(!todos.isRoot)
    #expect(todos.appending("2").appending("title") == title)
    #expect(todos.isAncestor(of: title))
    #expect(JSONPointer.root.isAncestor(of: todos))
    #expect(!title.isAncestor(of: title))
    #expect(!title.isAncestor(of: todos))
    #expect(!(try JSONPointer(parsing: "/to")).isAncestor(of: todos))
  }
}
