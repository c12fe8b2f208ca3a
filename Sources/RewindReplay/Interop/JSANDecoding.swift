import Foundation
import RewindJSON

/// Undoes the `jsan` serializer that Redux DevTools uses when `serialize` is on: an object
/// `{"$jsan": "…"}` stands for a value JSON cannot hold, or for a second reference to an object
/// written earlier in the same document.
///
/// | `$jsan` | stands for | becomes |
/// |---|---|---|
/// | `$.a.b[0]["c d"]` | the value at that path of the document | a copy of that value |
/// | `u` | `undefined` | a member left out; `null` in an array |
/// | `d<ms>` | a `Date` | Foundation's `Date` encoding: seconds since 2001-01-01 |
/// | `l<json>` | a `Set` | an array of its elements |
/// | `m<json>` | a `Map` | an object (all keys strings) or Swift's `[key, value, …]` array |
/// | `n`, `i`, `y` | `NaN`, `Infinity`, `-Infinity` | lost: JSON has no such number |
/// | `r…`, `f…`, `e…`, `s…`, `g…` | a regular expression, function, error or symbol | lost: kept as its text |
///
/// A member named `$jsan` that jsan escaped (its value wrapped in a one-element array) is
/// unwrapped. What would be lost is an ``InteropError`` naming its path, or, when `lenient`, a
/// warning and the replacement above (`null` for the numbers).
///
/// References copy what they point at, so a small hostile document can stand for a huge or
/// deeply nested one (each level referring twice to the level before doubles it). The decoded
/// document is held to what a log line may hold (``ReaderLimits``' JSON limits): at most
/// `maxElements` values in all and `maxDepth - 2` levels (the log line and the action's case wrap
/// it in two more), else an ``InteropError`` says where it grew past them.
struct JSANDecoding {
  /// The document the `$` of references is.
  let root: JSONValue
  /// Whether losses are warnings rather than errors.
  let lenient: Bool
  /// Where the document is, for messages (`payload`, `preloadedState`).
  let name: String
  /// The warnings of a lenient decoding.
  private(set) var warnings: [String] = []
  /// What the decoded document may hold.
  private let limits = ReaderLimits.default.json
  /// The array elements and object members decoded so far.
  private var produced = 0
  /// Keys looked up by references in large objects, by where the object is.
  private let memberIndex = MemberIndex()

  /// The members of the document's large objects by key, made the first time a reference looks
  /// a key up in one: a document of many references into one large object (each a linear search)
  /// would otherwise take time quadratic in its size.
  private final class MemberIndex {
    /// Objects with more members than this are indexed.
    static let threshold = 32
    private var indexes: [[Step]: [String: JSONValue]] = [:]

    /// The value of `key` in the object `members`, found at `steps` from the document's root.
    func member(_ key: String, of members: [JSONMember], at steps: ArraySlice<Step>) -> JSONValue? {
      guard members.count > Self.threshold else {
        return members.first(where: { $0.key == key })?.value
      }
      let path = Array(steps)
      if let index = indexes[path] { return index[key] }
      var index: [String: JSONValue] = [:]
      for member in members where index[member.key] == nil { index[member.key] = member.value }
      indexes[path] = index
      return index[key]
    }
  }

  /// Whether `text` (the JSON text of a document) may hold `jsan` markers at all.
  static func mayHoldMarkers(_ value: JSONValue) -> Bool {
    value.jsonText.contains("\"$jsan\"")
  }

  /// How many containers down `root` sits in the document being decoded (a `Set` or `Map`'s
  /// entries, decoded on their own, sit inside it).
  private let baseDepth: Int

  init(root: JSONValue, name: String, lenient: Bool, baseDepth: Int = 0) {
    self.root = root
    self.name = name
    self.lenient = lenient
    self.baseDepth = baseDepth
  }

  /// The document with its markers replaced.
  mutating func decoded() throws(InteropError) -> JSONValue {
    guard Self.mayHoldMarkers(root) else { return root }
    var resolving: [String] = []
    var measured: [String: (count: Int, depth: Int)] = [:]
    let size = try measure(root, path: name, resolving: &resolving, measured: &measured)
    try grow(by: size.count, depth: baseDepth + size.depth, at: name)
    produced = 0
    return try decode(root, path: name, resolving: &resolving, depth: baseDepth) ?? .null
  }

  /// Counts `count` more values in a container at `depth`, refusing what a log line cannot hold.
  private mutating func grow(by count: Int, depth: Int, at path: String) throws(InteropError) {
    produced += count
    if depth > limits.maxDepth - 2 {
      throw InteropError(
        "\(path): the $jsan references nest values more than \(limits.maxDepth - 2) levels deep, "
          + "more than a Rewind log line can hold")
    }
    if produced > limits.maxElements {
      throw InteropError(
        "\(path): the $jsan references expand to more than \(limits.maxElements) values, more "
          + "than a Rewind log line can hold")
    }
  }

  /// `value` (at `depth` containers down) with its markers replaced; `nil` for `undefined`.
  private mutating func decode(
    _ value: JSONValue, path: String, resolving: inout [String], depth: Int
  ) throws(InteropError) -> JSONValue? {
    switch value {
    case .object(let members):
      if let marker = members.first(where: { $0.key == "$jsan" })?.value.stringValue {
        return try restore(marker, path: path, resolving: &resolving, depth: depth)
      }
      try grow(by: members.count, depth: depth + 1, at: path)
      var out: [JSONMember] = []
      for member in members {
        var inner = member.value
        if member.key == "$jsan", case .array(let wrapped) = inner, wrapped.count == 1 {
          inner = wrapped[0]
        }
        let memberPath = Self.append(member.key, to: path)
        if let decoded = try decode(
          inner, path: memberPath, resolving: &resolving, depth: depth + 1)
        {
          out.append(JSONMember(member.key, decoded))
        }
      }
      return .object(out)
    case .array(let elements):
      try grow(by: elements.count, depth: depth + 1, at: path)
      var out: [JSONValue] = []
      for (index, element) in elements.enumerated() {
        out.append(
          try decode(
            element, path: "\(path)[\(index)]", resolving: &resolving, depth: depth + 1) ?? .null)
      }
      return .array(out)
    default:
      return value
    }
  }

  private mutating func restore(
    _ marker: String, path: String, resolving: inout [String], depth: Int
  ) throws(InteropError) -> JSONValue? {
    guard let kind = marker.first else { return try lost("an empty $jsan marker", at: path) }
    let rest = String(marker.dropFirst())
    switch kind {
    case "$":
      return try reference(marker, path: path, resolving: &resolving, depth: depth)
    case "u":
      return nil
    case "d":
      guard let milliseconds = Double(rest), milliseconds.isFinite,
        let date = try? RewindJSONEncoder().encodeValue(
          Date(timeIntervalSince1970: milliseconds / 1000))
      else {
        return try lost("a date marker without a time (\(marker))", at: path)
      }
      return date
    case "l", "m":
      let inner: JSONValue
      do { inner = try JSONParser.parse(rest) } catch {
        return try lost("a \(kind == "l" ? "Set" : "Map") whose entries do not parse", at: path)
      }
      var nested = JSANDecoding(root: inner, name: path, lenient: lenient, baseDepth: depth)
      let entries = try nested.decoded()
      warnings += nested.warnings
      try grow(by: nested.produced, depth: depth, at: path)
      guard case .array(let items) = entries else {
        return try lost("a \(kind == "l" ? "Set" : "Map") that is not an array", at: path)
      }
      return kind == "l" ? .array(items) : try map(items, path: path)
    case "n":
      return try lost("NaN (JSON has no NaN)", at: path, keeping: .null)
    case "i", "y":
      return try lost(
        "\(kind == "i" ? "" : "-")Infinity (JSON has no infinity)", at: path, keeping: .null)
    case "r":
      return try lost("a regular expression", at: path, keeping: .string(rest))
    case "f":
      return try lost("a function", at: path, keeping: .string(rest))
    case "e":
      return try lost("an Error", at: path, keeping: .string(rest))
    case "s", "g":
      return try lost("a Symbol", at: path, keeping: .string(rest))
    default:
      return try lost("an unknown $jsan marker \(marker)", at: path)
    }
  }

  /// A `Map`'s `[[key, value], …]`: an object when every key is a string, else Swift's
  /// flat `[key, value, …]` array for dictionaries with other keys.
  private mutating func map(_ pairs: [JSONValue], path: String) throws(InteropError) -> JSONValue {
    var members: [JSONMember] = []
    var flat: [JSONValue] = []
    var allStrings = true
    for pair in pairs {
      guard case .array(let kv) = pair, kv.count == 2 else {
        return try lost("a Map entry that is not a [key, value] pair", at: path)
      }
      flat += kv
      if let key = kv[0].stringValue {
        members.append(JSONMember(key, kv[1]))
      } else {
        allStrings = false
      }
    }
    return allStrings ? .object(members) : .array(flat)
  }

  /// The value a `$…` reference points at, with its own markers replaced.
  private mutating func reference(
    _ target: String, path: String, resolving: inout [String], depth: Int
  ) throws(InteropError) -> JSONValue {
    let value = try self.target(target, path: path, resolving: resolving)
    resolving.append(target)
    defer { resolving.removeLast() }
    return try decode(value, path: path, resolving: &resolving, depth: depth) ?? .null
  }

  /// The value at the path of reference `target` (as written, markers and all).
  private func target(
    _ target: String, path: String, resolving: [String]
  ) throws(InteropError) -> JSONValue {
    // Each reference being resolved is a level of recursion here: a chain of references to
    // references is as bounded as nesting is.
    guard resolving.count < limits.maxDepth else {
      throw InteropError(
        "\(path): the $jsan reference \(target) is reached through more than "
          + "\(limits.maxDepth) other references")
    }
    guard let steps = Self.steps(of: target) else {
      throw InteropError("\(path): the $jsan reference \(target) is not a path jsan writes")
    }
    guard !resolving.contains(target) else {
      throw InteropError(
        "\(path): the $jsan reference \(target) points into itself (a circular structure), "
          + "which a Rewind log cannot hold")
    }
    var value = root
    // The steps walked so far, which name the object a key is looked up in.
    var walked = 0
    for step in steps {
      walked += 1
      switch (step, value) {
      case (.key(let key), .object(let members)):
        guard let found = memberIndex.member(key, of: members, at: steps[..<(walked - 1)]) else {
          throw InteropError("\(path): the $jsan reference \(target) leads nowhere (no \"\(key)\")")
        }
        value = found
      case (.index(let index), .array(let elements)) where index < elements.count:
        value = elements[index]
      case (.index(let index), .object(let members)):
        guard let found = members.first(where: { $0.key == String(index) }) else {
          throw InteropError("\(path): the $jsan reference \(target) leads nowhere (no [\(index)])")
        }
        value = found.value
      default:
        throw InteropError("\(path): the $jsan reference \(target) leads nowhere")
      }
    }
    return value
  }

  /// How many values and levels `value` decodes to, each reference counted as what it copies —
  /// measured once per target, without building anything — saturating past the limits: so that
  /// a document whose references expand past what a log line holds is refused before the memory
  /// is spent.
  private func measure(
    _ value: JSONValue, path: String, resolving: inout [String],
    measured: inout [String: (count: Int, depth: Int)]
  ) throws(InteropError) -> (count: Int, depth: Int) {
    let cap = limits.maxElements + 1
    var count: Int
    var depth = 0
    switch value {
    case .object(let members):
      if let marker = members.first(where: { $0.key == "$jsan" })?.value.stringValue {
        guard marker.first == "$" else { return (0, 0) }  // a Set or Map: as long as its text
        if let known = measured[marker] { return known }
        let value = try target(marker, path: path, resolving: resolving)
        resolving.append(marker)
        let size = try measure(value, path: path, resolving: &resolving, measured: &measured)
        resolving.removeLast()
        measured[marker] = size
        return size
      }
      count = members.count
      for member in members where count < cap {
        let size = try measure(
          member.value, path: Self.append(member.key, to: path), resolving: &resolving,
          measured: &measured)
        count = min(cap, count + size.count)
        depth = max(depth, size.depth)
      }
    case .array(let elements):
      count = elements.count
      for (index, element) in elements.enumerated() where count < cap {
        let size = try measure(
          element, path: "\(path)[\(index)]", resolving: &resolving, measured: &measured)
        count = min(cap, count + size.count)
        depth = max(depth, size.depth)
      }
    default:
      return (0, 0)
    }
    return (count, min(depth + 1, limits.maxDepth + 1))
  }

  /// One step of a reference path.
  enum Step: Hashable {
    case key(String)
    case index(Int)
  }

  /// The steps of `$.a[0]["b c"]`; `nil` when it is not such a path.
  static func steps(of target: String) -> [Step]? {
    var chars = Array(target)
    guard chars.first == "$" else { return nil }
    chars.removeFirst()
    var steps: [Step] = []
    var i = 0
    while i < chars.count {
      if chars[i] == "." {
        var j = i + 1
        while j < chars.count, chars[j].isLetter || chars[j].isNumber || chars[j] == "_" {
          j += 1
        }
        guard j > i + 1 else { return nil }
        steps.append(.key(String(chars[(i + 1)..<j])))
        i = j
      } else if chars[i] == "[", i + 1 < chars.count, chars[i + 1] == "\"" {
        // A JSON string key, up to its closing quote and bracket.
        var j = i + 2
        var escaped = false
        while j < chars.count, escaped || chars[j] != "\"" {
          escaped = !escaped && chars[j] == "\\"
          j += 1
        }
        guard j + 1 < chars.count, chars[j + 1] == "]",
          let key = (try? JSONParser.parse(String(chars[(i + 1)...j])))?.stringValue
        else { return nil }
        steps.append(.key(key))
        i = j + 2
      } else if chars[i] == "[" {
        var j = i + 1
        while j < chars.count, chars[j].isASCII, chars[j].isNumber { j += 1 }
        guard j > i + 1, j < chars.count, chars[j] == "]",
          let index = Int(String(chars[(i + 1)..<j]))
        else { return nil }
        steps.append(.index(index))
        i = j + 1
      } else {
        return nil
      }
    }
    return steps
  }

  /// The path of member `key` below `path`, as jsan writes paths.
  static func append(_ key: String, to path: String) -> String {
    let plain =
      !key.isEmpty && key.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    return plain ? "\(path).\(key)" : "\(path)[\(JSONValue.string(key).jsonText)]"
  }

  /// What cannot be kept: an error, or with `lenient` a warning and `replacement`.
  private mutating func lost(
    _ what: String, at path: String, keeping replacement: JSONValue = .null
  ) throws(InteropError) -> JSONValue {
    guard lenient else {
      throw InteropError(
        "\(path): \(what) cannot be kept in a Rewind log; --lenient imports it as "
          + "\(replacement.jsonText) with a warning")
    }
    warnings.append("\(path): \(what) imported as \(replacement.jsonText)")
    return replacement
  }
}
