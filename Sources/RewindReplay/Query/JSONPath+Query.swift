import RewindJSON

extension JSONPath {
  /// Parses a state path as users type it: `todos[2].title`, `filter`, `todos.count`,
  /// `["a key"].x`, `todos[id=42].title` (the element whose `id` is 42, wherever it is), `.` or
  /// the empty string for the whole state.
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
        } else if let equals = chars[i...].firstIndex(where: { $0 == "=" || $0 == "]" }),
          chars[equals] == "="
        {
          components.append(try matchingStep(chars, from: &i, equals: equals, in: text))
        } else {
          let start = i
          while i < chars.count, chars[i].isASCII, chars[i].isNumber { i += 1 }
          guard i > start else {
            throw fail(
              "expected an index (a whole number), a quoted key or MEMBER=VALUE after '['")
          }
          guard let index = Int(String(chars[start..<i])) else {
            throw fail(
              "index \(String(chars[start..<i])) is too large: no array holds more than "
                + "\(Int.max) elements")
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

  /// The identity step `[member=value]` from `chars[i]` (just after `[`, with `=` at `equals`)
  /// up to the closing `]`, which `i` is left on: the member a name (`id`) or a quoted key, the
  /// value a JSON scalar (`42`, `"Buy milk"`, `true`, `null`).
  private static func matchingStep(
    _ chars: [Character], from i: inout Int, equals: Int, in text: String
  ) throws(StatePathError) -> Component {
    let nameText = String(chars[i..<equals]).trimmingSpaces
    let key: String
    if nameText.hasPrefix("\"") {
      guard case .string(let quoted)? = try? JSONParser.parse(Array(nameText.utf8)) else {
        throw .syntax(text, offset: i, reason: "expected a quoted member name before '='")
      }
      key = quoted
    } else {
      guard !nameText.isEmpty, !nameText.contains(where: { "[].\" ".contains($0) }) else {
        throw .syntax(text, offset: i, reason: "expected a member name before '=' ([id=42])")
      }
      key = nameText
    }
    i = equals + 1
    let start = i
    if i < chars.count, chars[i] == "\"" {
      i += 1
      while i < chars.count, chars[i] != "\"" {
        if chars[i] == "\\" { i += 1 }
        i += 1
      }
      guard i < chars.count else {
        throw .syntax(text, offset: start, reason: "unterminated string")
      }
      i += 1
    } else {
      while i < chars.count, chars[i] != "]" { i += 1 }
    }
    let literal = String(chars[start..<i]).trimmingSpaces
    guard let value = try? JSONParser.parse(Array(literal.utf8)) else {
      throw .syntax(
        text, offset: start,
        reason: literal.isEmpty
          ? "expected a value after '=' ([id=42], [title=\"Buy milk\"])"
          : "'\(literal)' is not a JSON value: quote a string ([\(key)=\"\(literal)\"])")
    }
    switch value {
    case .array, .object:
      throw .syntax(
        text, offset: start,
        reason: "an identity step compares a number, string, true, false or null")
    default: return .matching(key: key, value: value.jsonText)
    }
  }
}

extension String {
  /// The text without spaces at either end.
  fileprivate var trimmingSpaces: String {
    String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
  }
}

extension JSONPath {
  /// The path as ``JSONProjection`` follows it.
  var projectionSteps: [JSONProjection.Step] {
    components.map { component in
      switch component {
      case .key(let key): return .key(key)
      case .index(let index): return .index(index)
      case .matching(let key, let text):
        let literal = Array(text.utf8)
        return .matching(key: key) { found in
          // The same text is a match; a number written otherwise (`42.0`) is compared by value.
          if found == literal { return true }
          // Two JSON integers (no leading zeros) are equal only when their texts are.
          func isFraction(_ text: [UInt8]) -> Bool {
            text.contains { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") }
          }
          guard let first = found.first,
            first == UInt8(ascii: "-") || (0x30...0x39).contains(first),
            isFraction(found) || isFraction(literal),
            let value = try? JSONParser.parse(found, limits: .unlimited)
          else { return false }
          return Component.scalar(value, matches: text)
        }
      }
    }
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
      case (.matching(let key, let text), .array(let elements)):
        let match = elements.first { element in
          guard case .object(let members) = element,
            let member = members.first(where: { $0.key == key })
          else { return false }
          return JSONPath.Component.scalar(member.value, matches: text)
        }
        guard let match else {
          throw .noMatchingElement(
            JSONPath([component]).description, in: walked.description, count: elements.count)
        }
        current = match
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

extension JSONPath {
  /// The value at this path in the JSON document `text` — a state as the encoder writes it —
  /// as ``JSONValue/value(at:)`` finds it in the parsed document, with the same errors; but only
  /// the value found is built as a ``JSONValue``, not the whole document (a large state's tree
  /// costs many times its text).
  ///
  /// - Throws: ``StatePathError`` naming the step that fails and what is valid there.
  public func value(inText text: [UInt8]) throws(StatePathError) -> JSONValue {
    try found(inText: text) { document, found in
      switch found {
      case .value(let index): document.value(at: index)
      case .count(let count): .number(String(count))
      case .tree(let value): value
      }
    }
  }

  /// The JSON text of the value at this path in `text` — a state as the encoder writes it,
  /// compact — as it is there (a slice of `text`): ``value(inText:)`` written compactly, without
  /// building it at all.
  ///
  /// - Throws: As ``value(inText:)``.
  public func text(inText text: [UInt8]) throws(StatePathError) -> ArraySlice<UInt8> {
    try found(inText: text) { document, found in
      switch found {
      case .value(let index):
        // The same bytes, not a copy: the document was loaded from `text`.
        let range = document.range(at: index)
        return text[range]
      case .count(let count): return ArraySlice(String(count).utf8)
      case .tree(let value): return ArraySlice(value.serializedBytes)
      }
    }
  }

  /// What a path leads to in a loaded document: a value, or the count of a container (`.count`
  /// where the container has no such member); or, in a text that did not load, the value found
  /// in its tree.
  private enum Found {
    case value(Int)
    case count(Int)
    case tree(JSONValue)
  }

  /// `make`'s result for what this path leads to in `text`.
  private func found<T>(
    inText text: [UInt8], _ make: (JSONTapeDocument, Found) -> T
  ) throws(StatePathError) -> T {
    // The encoder's text, not a file's: no limit of the reader's applies.
    let everything = JSONLimits(
      maxDepth: .max, maxStringBytes: .max, maxNumberLength: .max, maxElements: .max)
    let result = text.withUnsafeBytes { bytes -> Result<T, StatePathError> in
      let document = JSONTapeDocument(limits: everything)
      guard document.load(bytes) else {
        // Not one JSON text: the tree says what it can.
        return Result { () throws(StatePathError) in
          make(
            document,
            .tree(try ((try? JSONParser.parse(bytes, limits: everything)) ?? .null).value(at: self))
          )
        }
      }
      return Result { () throws(StatePathError) in make(document, try found(in: document)) }
    }
    return try result.get()
  }

  /// What this path leads to in a loaded document.
  private func found(in document: JSONTapeDocument) throws(StatePathError) -> Found {
    var current = document.root
    var walked = JSONPath.root
    for (n, component) in components.enumerated() {
      let isLast = n == components.count - 1
      let isObject = document.isObject(at: current)
      let isArray = document.isArray(at: current)
      switch component {
      case .key(let key) where isObject:
        if let member = document.member(named: key, of: current) {
          current = member
        } else if key == "count" && isLast {
          return .count(document.count(at: current))
        } else {
          throw .noSuchKey(key, in: walked.description, available: document.keys(of: current))
        }
      case .key("count") where isArray && isLast:
        return .count(document.count(at: current))
      case .index(let index) where isArray:
        guard let element = document.element(index, of: current) else {
          throw .indexOutOfRange(index, in: walked.description, count: document.count(at: current))
        }
        current = element
      case .index(let index) where isObject:
        guard let member = document.member(named: String(index), of: current) else {
          throw .noSuchKey(
            String(index), in: walked.description, available: document.keys(of: current))
        }
        current = member
      case .key(let key) where isArray:
        throw .noSuchKey(key, in: walked.description, available: ["count", "[0]…"])
      case .matching(let key, let text) where isArray:
        let match = document.firstElement(of: current) { element in
          guard let member = document.member(named: key, of: element) else { return false }
          return Component.scalar(document.value(at: member), matches: text)
        }
        guard let match else {
          throw .noMatchingElement(
            JSONPath([component]).description, in: walked.description,
            count: document.count(at: current))
        }
        current = match
      default:
        throw .notAContainer(walked.description, kind: document.value(at: current).kindName)
      }
      walked = walked.appending(component)
    }
    return .value(current)
  }
}
