import RewindJSON
import RewindReplay

/// The members or elements of a value of the state, a page at a time, each with its kind, its
/// size and a one-line preview: the state read a level at a time, as the TUI's state pane reads
/// it, for a front end that must never send or build a large state whole (a debugger's
/// variables pane, a coding agent's tool). Answered with a ``ChildrenResponse``.
package struct ChildrenRequest: ReplayRequest, Equatable {
  /// The most children one page holds.
  package static let maxLimit = 1000
  /// The value whose children are listed; the empty path is the state.
  package var path: JSONPath
  /// The state's position, or `nil` for the cursor's.
  package var position: Int?
  /// The first child listed.
  package var offset: Int
  /// How many children at most (1 to ``maxLimit``).
  package var limit: Int

  /// The children `offset..<offset + limit` of the value at `path` in the state at `position`
  /// (the cursor's when `nil`).
  package init(_ path: JSONPath, at position: Int? = nil, offset: Int = 0, limit: Int = 100) {
    self.path = path
    self.position = position
    self.offset = offset
    self.limit = limit
  }

  package func run(on service: ReplayService) throws(ReplayFailure) -> ChildrenResponse {
    guard offset >= 0 else { throw .usage("the offset must be 0 or more, not \(offset)") }
    guard (1...Self.maxLimit).contains(limit) else {
      throw .usage("the limit must be 1 to \(Self.maxLimit), not \(limit)")
    }
    let position = self.position ?? service.position
    guard service.log.positions.contains(position) else {
      throw .debugger(.positionOutOfRange(position, valid: service.log.positions))
    }
    let document = try service.debug { () throws(DebuggerError) in
      try service.stateDocument(at: position)
    }
    let value = try start(of: path, in: document)
    let count = document.childCount(value)
    let isObject = document.text[value] == UInt8(ascii: "{")
    var children: [ChildrenResponse.Child] = []
    let end = min(count, offset + limit)
    if offset < end {
      children.reserveCapacity(end - offset)
      for index in offset..<end {
        guard let start = document.child(index, of: value) else { break }
        let component: JSONPath.Component =
          isObject ? .key(document.key(index, of: value) ?? "") : .index(index)
        children.append(
          ChildrenResponse.Child(
            component: component, path: path.appending(component),
            facts: ChildrenResponse.ValueFacts(at: start, in: document)))
      }
    }
    return ChildrenResponse(
      position: position, path: path, facts: ChildrenResponse.ValueFacts(at: value, in: document),
      offset: offset, children: children, nextOffset: end < count ? end : nil)
  }

  /// Where the value at `path` starts in `document`'s text.
  /// - Throws: The path's error, as `print` gives it (`.badPath`), when it leads nowhere or to
  ///   a count (`todos.count` names no value of the text: print it instead).
  private func start(of path: JSONPath, in document: StateDocument) throws(ReplayFailure) -> Int {
    if let start = document.start(at: path) { return start }
    // An identity step (`todos[id=3]`), or a path that leads nowhere: the whole path's search
    // finds it (a slice of the same text) or says why not.
    let found: ArraySlice<UInt8>
    do throws(StatePathError) { found = try path.text(inText: document.text) } catch {
      throw .debugger(.badPath(error))
    }
    // A value found is a slice of the text, after its first byte (where the state starts); a
    // count is text of its own.
    guard found.startIndex == 0 else { return found.startIndex }
    throw .usage("'\(path)' is a count, not a value with members: print it instead")
  }

  /// `members [PATH] [--at N] [--offset N] [--limit K]`.
  static let command = ReplayCommand(
    name: "members", alias: "ls", usage: "members [PATH] [--at N] [--offset N] [--limit K]",
    summary: "the members or elements of a value, a page at a time",
    details: "Lists the members of an object or the elements of an array at PATH (the whole "
      + "state without it) in the state at the cursor, or at position N with --at: each with "
      + "its kind, its size and a one-line preview, 100 at a time (--limit, up to 1000) from "
      + "--offset. A large state is read a level at a time, never whole.",
    arguments: .statePath
  ) { words, service throws(ReplayFailure) in
    let usage = "usage: members [PATH] [--at N] [--offset N] [--limit K]"
    let pathWords = words.prefix { !$0.hasPrefix("--") }
    var request = ChildrenRequest(try ReplayCommand.path(Array(pathWords)))
    var rest = words.dropFirst(pathWords.count)
    while let option = rest.popFirst() {
      guard let value = rest.popFirst() else { throw .usage(usage) }
      switch option {
      case "--at": request.position = try ReplayCommand.position(value, in: service)
      case "--offset":
        guard let offset = Int(value), offset >= 0 else {
          throw .usage("--offset takes a child's index (0 or more), not '\(value)'")
        }
        request.offset = offset
      case "--limit":
        guard let limit = Int(value), (1...maxLimit).contains(limit) else {
          throw .usage("--limit takes a number of children (1 to \(maxLimit)), not '\(value)'")
        }
        request.limit = limit
      default: throw .usage(usage)
      }
    }
    return request
  }
}

/// A page of the members or elements of a value of the state.
package struct ChildrenResponse: ReplayResponse {
  /// What a page says of one value without building it: its kind, size and a preview, and the
  /// value itself when it is a scalar of a reasonable size.
  package struct ValueFacts: Sendable, Equatable {
    /// The largest scalar text given as ``value`` (64 KiB): a longer string is previewed only.
    package static let maxValueBytes = 1 << 16
    /// The longest ``preview``, in characters.
    package static let previewLength = 80

    /// `object`, `array`, `string`, `number`, `boolean` or `null`.
    package var kind: String
    /// The members or elements of an object or array; `nil` for a scalar.
    package var count: Int?
    /// The length of the value's compact JSON text.
    package var byteCount: Int
    /// The value, for a scalar whose text is at most ``maxValueBytes``.
    package var value: JSONValue?
    /// One line: `{…} 3 members`, `[…] 120 elements`, `"Buy milk"`, `42` (a long scalar cut
    /// with `…`).
    package var preview: String

    /// The facts of the value starting at `start` in `document`'s text.
    package init(at start: Int, in document: StateDocument) {
      let text = document.text
      let end = text.withUnsafeBytes { JSONScan.valueEnd(in: $0, at: start) }
      byteCount = end - start
      switch text[start] {
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        let isObject = text[start] == UInt8(ascii: "{")
        let count = document.childCount(start)
        kind = isObject ? "object" : "array"
        self.count = count
        value = nil
        let noun =
          isObject ? (count == 1 ? "member" : "members") : (count == 1 ? "element" : "elements")
        preview = "\(isObject ? "{…}" : "[…]") \(count) \(noun)"
      default:
        switch text[start] {
        case UInt8(ascii: "\""): kind = "string"
        case UInt8(ascii: "t"), UInt8(ascii: "f"): kind = "boolean"
        case UInt8(ascii: "n"): kind = "null"
        default: kind = "number"
        }
        count = nil
        let slice = Array(text[start..<end])
        value =
          byteCount <= Self.maxValueBytes ? try? JSONParser.parse(slice, limits: .unlimited) : nil
        let head = String(decoding: slice.prefix(Self.previewLength * 4), as: UTF8.self)
        preview =
          head.count > Self.previewLength || slice.count > Self.previewLength * 4
          ? String(head.prefix(Self.previewLength - 1)) + "…" : head
      }
    }

    /// `kind`, `count` (containers), `bytes`, `value` (scalars up to 64 KiB), `preview`.
    package var jsonMembers: [JSONMember] {
      var members = [JSONMember("kind", .string(kind))]
      if let count { members.append(JSONMember("count", .number(String(count)))) }
      members.append(JSONMember("bytes", .number(String(byteCount))))
      if let value { members.append(JSONMember("value", value)) }
      members.append(JSONMember("preview", .string(preview)))
      return members
    }
  }

  /// One member or element.
  package struct Child: Sendable, Equatable {
    /// Its key (`.key`) or index (`.index`) in the value listed.
    package var component: JSONPath.Component
    /// Its path in the state.
    package var path: JSONPath
    /// What it is.
    package var facts: ValueFacts

    /// Its name: the member's key, or `[i]` for an element.
    package var name: String {
      switch component {
      case .key(let key): return key
      case .index(let index): return "[\(index)]"
      case .matching(let key, let value): return "[\(key)=\(value)]"
      }
    }
  }

  /// The state's position.
  package var position: Int
  /// The value listed.
  package var path: JSONPath
  /// What that value is (its kind, count and preview).
  package var facts: ValueFacts
  /// The index of the first child of the page.
  package var offset: Int
  /// The page's children, in order.
  package var children: [Child]
  /// The offset of the next page, or `nil` when this one reaches the last child.
  package var nextOffset: Int?

  /// `{"position","path","kind","count","bytes","preview","offset","children":[{"name","path",
  /// "kind",…}],"nextOffset"}` (`nextOffset` only when there is more).
  package var jsonValue: JSONValue {
    var members = [
      JSONMember("position", .number(String(position))),
      JSONMember("path", .string(path.description)),
    ]
    members += facts.jsonMembers.filter { $0.key != "value" }
    members.append(JSONMember("offset", .number(String(offset))))
    members.append(
      JSONMember(
        "children",
        .array(
          children.map { child in
            .object(
              [
                JSONMember("name", .string(child.name)),
                JSONMember("path", .string(child.path.description)),
              ] + child.facts.jsonMembers)
          })))
    if let nextOffset { members.append(JSONMember("nextOffset", .number(String(nextOffset)))) }
    return .object(members)
  }
}
