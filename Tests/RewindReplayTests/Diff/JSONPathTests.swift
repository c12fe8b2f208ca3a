import RewindReplay
import Testing

@Suite struct JSONPathTests {
  @Test(
    arguments: [
      ([], "(root)"),
      ([.key("todos"), .index(2), .key("title")], "todos[2].title"),
      ([.index(0)], "[0]"),
      ([.index(0), .index(12)], "[0][12]"),
      ([.key("weird key")], #"["weird key"]"#),
      ([.key("a"), .key("b c"), .key("d")], #"a["b c"].d"#),
      ([.key("byID"), .key("2"), .key("title")], #"byID["2"].title"#),
      ([.key("")], #"[""]"#),
      ([.key("_x9"), .key("Y")], "_x9.Y"),
      ([.key("9x")], #"["9x"]"#),
      ([.key("a-b")], #"["a-b"]"#),
      ([.key("café")], #"["café"]"#),
      ([.key(#"say "hi""#)], #"["say \"hi\""]"#),
      ([.key("line\nbreak")], #"["line\nbreak"]"#),
    ] as [([JSONPath.Component], String)])
  func rendersHumanPath(components: [JSONPath.Component], expected: String) {
    #expect(JSONPath(components).description == expected)
  }

  @Test func convertsToPointer() {
    let path = JSONPath([.key("a/b"), .index(3), .key("m~n")])
    #expect(path.pointer == JSONPointer(tokens: ["a/b", "3", "m~n"]))
    #expect(path.pointer.description == "/a~1b/3/m~0n")
    #expect(JSONPath.root.pointer == .root)
  }

  @Test func appendsComponents() {
    #expect(JSONPath.root.appending(.key("todos")).appending(.index(1)).description == "todos[1]")
  }
}
