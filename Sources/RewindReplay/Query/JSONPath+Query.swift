import RewindJSON

extension JSONPath {
  /// Parses a state path as users type it: `todos[2].title`, `filter`, `todos.count`,
  /// `["a key"].x`, `.` or the empty string for the whole state.
  ///
  /// - Throws: ``StatePathError/syntax(_:offset:reason:)``.
  public static func parse(_ text: String) throws(StatePathError) -> JSONPath {
    let chars = Array(text)
    var components: [Component] = []
    var i = 0
    func fail(_ reason: String) -> StatePathError { .syntax(text, offset: i, reason: reason) }
    if chars == ["."] || chars.isEmpty { return .root }
    var expectsName = true
    while i < chars.count {
      let c = chars[i]
      if c == "[" {
        i += 1
        if i < chars.count, chars[i] == "\"" {
          i += 1
          var key = ""
          while i < chars.count, chars[i] != "\"" {
            if chars[i] == "\\", i + 1 < chars.count { i += 1 }
            key.append(chars[i])
            i += 1
          }
          guard i < chars.count else { throw fail("unterminated quoted key") }
          i += 1
          components.append(.key(key))
        } else {
          let start = i
          while i < chars.count, chars[i].isASCII, chars[i].isNumber { i += 1 }
          guard i > start, let index = Int(String(chars[start..<i])) else {
            throw fail("expected an index (a whole number) or a quoted key after '['")
          }
          components.append(.index(index))
        }
        guard i < chars.count, chars[i] == "]" else { throw fail("expected ']'") }
        i += 1
        expectsName = false
      } else if c == "." {
        guard !expectsName || components.isEmpty && i == 0 else { throw fail("unexpected '.'") }
        i += 1
        expectsName = true
        guard i < chars.count else { throw fail("expected a key after '.'") }
      } else {
        guard expectsName else { throw fail("expected '.' or '[' before a key") }
        let start = i
        while i < chars.count, chars[i] != ".", chars[i] != "[" { i += 1 }
        let name = String(chars[start..<i])
        if let bad = chars[start..<i].firstIndex(where: { $0 == "]" || $0 == " " }) {
          i = bad
          throw fail("unexpected character in key '\(name)'; quote it: [\"\(name)\"]")
        }
        components.append(.key(name))
        expectsName = false
      }
    }
    return JSONPath(components)
  }
}

extension JSONValue {
  /// The value at `path`. A final `count` step on an array or object that has no `count` member
  /// gives its number of elements or members.
  ///
  /// - Throws: ``StatePathError`` naming the step that fails and what is valid there.
  /// - Complexity: O(path length × members scanned per object).
  public func value(at path: JSONPath) throws(StatePathError) -> JSONValue {
    var current = self
    var walked = JSONPath.root
    for (n, component) in path.components.enumerated() {
      let isLast = n == path.components.count - 1
      switch (component, current) {
      case (.key(let key), .object(let members)):
        if let member = members.first(where: { $0.key == key }) {
          current = member.value
        } else if key == "count" && isLast {
          return .number(String(members.count))
        } else {
          throw .noSuchKey(key, in: walked.description, available: members.map(\.key))
        }
      case (.key("count"), .array(let elements)) where isLast:
        return .number(String(elements.count))
      case (.index(let index), .array(let elements)):
        guard index < elements.count else {
          throw .indexOutOfRange(index, in: walked.description, count: elements.count)
        }
        current = elements[index]
      case (.index(let index), .object(let members)):
        if let member = members.first(where: { $0.key == String(index) }) {
          current = member.value
        } else {
          throw .noSuchKey(String(index), in: walked.description, available: members.map(\.key))
        }
      case (.key(let key), .array):
        throw .noSuchKey(key, in: walked.description, available: ["count", "[0]…"])
      default:
        throw .notAContainer(walked.description, kind: current.kindName)
      }
      walked = walked.appending(component)
    }
    return current
  }

  /// The value at `path`, or `nil` when the path does not lead anywhere.
  public func valueIfPresent(at path: JSONPath) -> JSONValue? {
    try? value(at: path)
  }
}
