/// The JSON text of the value at a path inside an `Encodable` value, found by encoding only what
/// lies on the path: `filter` encodes one string of the state, not its todos; `todos[id=3].title`
/// encodes each todo's `id` and one title. What ``JSONStreamEncoder`` writes for the whole value,
/// cut at the path, is what this gives — or, where it cannot be sure of that, it says so
/// (``Outcome/unsupported``) and the caller encodes the whole value.
///
/// It follows the value's own `encode(to:)` with an `Encoder` that passes by every member and
/// element off the path without encoding it. The value at the end of the path is written by
/// ``JSONStreamEncoder``, so its text is byte for byte the same.
package enum JSONProjection {
  /// One step of a path.
  package enum Step {
    /// An object's member with this key (an object written with `Int` keys: the key's text).
    case key(String)
    /// An array's element at this position.
    case index(Int)
    /// The first element of an array that is an object whose member `key` passes `test`, given
    /// that member's compact JSON text.
    case matching(key: String, test: ([UInt8]) -> Bool)
  }

  /// What following a path found.
  package enum Outcome: Equatable {
    /// The compact JSON text of the value at the path.
    case found([UInt8])
    /// The path leads nowhere in this value.
    case nowhere
    /// This projection cannot be sure to match the full encoding here (a container the path
    /// passes through written in a way it does not follow: a super encoder, a key written twice,
    /// a set's sorted elements): encode the whole value instead.
    case unsupported
  }

  /// The text of the value at `steps` in `value`'s encoding. A last step `key("count")` on an
  /// array, or on an object without a `count` member, gives its number of elements or members,
  /// as a state path's `count` does.
  package static func text<T: Encodable>(of value: T, at steps: [Step]) -> Outcome {
    let search = Search()
    search.follow(value, steps[...])
    if search.isUnsupported { return .unsupported }
    return search.found.map(Outcome.found) ?? .nowhere
  }
}

/// One projection's result so far.
private final class Search {
  /// The text found at the path.
  var found: [UInt8]?
  /// Set when the projection cannot be sure of its result.
  var isUnsupported = false
  /// The encoder of the value found (one for the search and its probes).
  let streamEncoder: JSONStreamEncoder
  /// The search that reads a member of each element for a matching step, reused.
  private lazy var probe = Search(streamEncoder: streamEncoder)

  init(streamEncoder: JSONStreamEncoder = JSONStreamEncoder()) {
    self.streamEncoder = streamEncoder
  }
  /// Whether the search is over (found, or given up).
  var isDone: Bool { found != nil || isUnsupported }

  /// Follows `steps` into `value`: writes it whole when there are none left.
  func follow<T: Encodable>(_ value: T, _ steps: ArraySlice<JSONProjection.Step>) {
    guard !isDone else { return }
    guard let step = steps.first else {
      var text: [UInt8] = []
      do { try streamEncoder.encode(value, into: &text) } catch {
        isUnsupported = true
        return
      }
      found = text
      return
    }
    // A number, string or bool has no members or elements (and encodes itself as itself).
    if value is any ScalarMarker { return }
    if value is any JSONStreamSpecialEncoding {
      // A dictionary's members are found by key whatever their order; a set's elements, and a
      // dictionary written as a key-value array, are sorted in the full encoding.
      guard case .key = step, value is any DictionaryMarker else {
        isUnsupported = true
        return
      }
    }
    let encoder = ProjectingEncoder(search: self, steps: steps)
    do { try value.encode(to: encoder) } catch {
      isUnsupported = true
      return
    }
    encoder.finish()
  }

  /// The test of a matching step on `element`: whether its member `key` passes `test`, found by
  /// projecting that member alone.
  func element<T: Encodable>(_ element: T, matches key: String, _ test: ([UInt8]) -> Bool)
    -> Bool
  {
    probe.found = nil
    probe.isUnsupported = false
    probe.follow(element, [.key(key)][...])
    if probe.isUnsupported {
      isUnsupported = true
      return false
    }
    return probe.found.map(test) ?? false
  }
}

/// Marks the types that encode as a JSON number, string or bool, for ``Search/follow(_:_:)``.
private protocol ScalarMarker {}
extension Bool: ScalarMarker {}
extension String: ScalarMarker {}
extension Int: ScalarMarker {}
extension Int8: ScalarMarker {}
extension Int16: ScalarMarker {}
extension Int32: ScalarMarker {}
extension Int64: ScalarMarker {}
extension UInt: ScalarMarker {}
extension UInt8: ScalarMarker {}
extension UInt16: ScalarMarker {}
extension UInt32: ScalarMarker {}
extension UInt64: ScalarMarker {}
extension Float: ScalarMarker {}
extension Double: ScalarMarker {}

/// Marks dictionaries for ``Search/follow(_:_:)``.
private protocol DictionaryMarker {}
extension Dictionary: DictionaryMarker {}

/// The `Encoder` of one value on the path, with the steps left from it.
private final class ProjectingEncoder: Encoder {
  let search: Search
  let steps: ArraySlice<JSONProjection.Step>
  var codingPath: [any CodingKey] = []
  var userInfo: [CodingUserInfoKey: Any] = [:]
  /// How many members or elements its container has taken, for a last `count` step.
  var entries = 0
  /// Whether its container is an object that has a member `count`.
  var hasCountMember = false
  /// Which kind of container it made, if any.
  var kind: Kind?
  /// The keys written on the path, to give up on one written twice.
  var keysOnPath: Set<String> = []
  /// Whether a matching step has found its element.
  var hasMatched = false

  enum Kind { case keyed, unkeyed, single }

  init(search: Search, steps: ArraySlice<JSONProjection.Step>) {
    self.search = search
    self.steps = steps
  }

  var step: JSONProjection.Step? { steps.first }
  var rest: ArraySlice<JSONProjection.Step> { steps.dropFirst() }
  var isCountStep: Bool {
    if steps.count == 1, case .key("count") = steps.first { return true }
    return false
  }

  /// Records that a second container was asked of one encoder: the full encoding writes them
  /// in a way this does not follow.
  private func make(_ wanted: Kind) {
    if let kind, kind != wanted || wanted == .single { search.isUnsupported = true }
    kind = wanted
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    make(.keyed)
    return KeyedEncodingContainer(ProjectingKeyedContainer<Key>(encoder: self))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    make(.unkeyed)
    return ProjectingUnkeyedContainer(encoder: self)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    make(.single)
    return ProjectingSingleValueContainer(encoder: self)
  }

  /// Once the value's `encode(to:)` returned: a last `count` step not met as a member is the
  /// number of entries of the container.
  func finish() {
    guard !search.isDone, isCountStep, !hasCountMember, kind == .keyed || kind == .unkeyed
    else { return }
    search.found = Array(String(entries).utf8)
  }

  /// Whether the member `key` is the next step.
  func isOnPath(_ key: String) -> Bool {
    switch step {
    case .key(let name): return name == key
    case .index(let index): return String(index) == key
    default: return false
    }
  }

  /// A member with `key` taken by a keyed container.
  func member(_ key: String) -> Bool {
    guard !search.isDone else { return false }
    if key == "count" { hasCountMember = true }
    entries += 1
    guard isOnPath(key) else { return false }
    if !keysOnPath.insert(key).inserted { search.isUnsupported = true }
    return !search.isDone
  }

  /// The element at `position` taken by an unkeyed container: whether the next step is it.
  func element(at position: Int) -> Bool {
    guard !search.isDone, case .index(let index) = step else { return false }
    return index == position
  }
}

/// An object on the path: only the member the next step names is followed.
private struct ProjectingKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let encoder: ProjectingEncoder
  var codingPath: [any CodingKey] { [] }

  mutating func encodeNil(forKey key: Key) throws {
    // `null` has no members or elements: only a path that ends here finds it.
    if encoder.member(key.stringValue), encoder.rest.isEmpty {
      encoder.search.found = Array("null".utf8)
    }
  }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    if encoder.member(key.stringValue) { encoder.search.follow(value, encoder.rest) }
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    nested(key.stringValue).container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    nested(key.stringValue).unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder { nested("super") }

  mutating func superEncoder(forKey key: Key) -> any Encoder { nested(key.stringValue) }

  /// The encoder of a member written through a nested container: followed when it is on the
  /// path and more steps follow (the container has no end at which to write it whole, or to
  /// count its entries).
  private func nested(_ key: String) -> ProjectingEncoder {
    guard encoder.member(key) else { return ProjectingEncoder.discarding() }
    return encoder.nestedEncoder()
  }
}

/// An array on the path: only the element the next step names is followed.
private struct ProjectingUnkeyedContainer: UnkeyedEncodingContainer {
  let encoder: ProjectingEncoder
  var codingPath: [any CodingKey] { [] }
  var count = 0

  init(encoder: ProjectingEncoder) {
    self.encoder = encoder
  }

  mutating func encodeNil() throws {
    let position = count
    count += 1
    encoder.entries += 1
    if encoder.element(at: position), encoder.rest.isEmpty {
      encoder.search.found = Array("null".utf8)
    }
  }

  mutating func encode<T: Encodable>(_ value: T) throws {
    let position = count
    count += 1
    encoder.entries += 1
    if case .matching(let key, let test) = encoder.step {
      guard !encoder.hasMatched, !encoder.search.isDone,
        encoder.search.element(value, matches: key, test)
      else { return }
      encoder.hasMatched = true
      encoder.search.follow(value, encoder.rest)
      return
    }
    if encoder.element(at: position) { encoder.search.follow(value, encoder.rest) }
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
    -> KeyedEncodingContainer<NestedKey>
  {
    nested().container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    nested().unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder { nested() }

  /// The encoder of an element written through a nested container (see the keyed container's).
  private mutating func nested() -> ProjectingEncoder {
    let position = count
    count += 1
    encoder.entries += 1
    if case .matching = encoder.step, !encoder.search.isDone {
      // Its members cannot be read before the next step is taken.
      encoder.search.isUnsupported = true
    }
    guard encoder.element(at: position) else { return ProjectingEncoder.discarding() }
    return encoder.nestedEncoder()
  }
}

/// A value written as one value (a wrapper's): the path goes on into it.
private struct ProjectingSingleValueContainer: SingleValueEncodingContainer {
  let encoder: ProjectingEncoder
  var codingPath: [any CodingKey] { [] }

  mutating func encodeNil() throws {
    // `null` has no members and no elements: the path leads nowhere.
  }

  mutating func encode<T: Encodable>(_ value: T) throws {
    // A discarding encoder (no steps) follows nothing.
    if !encoder.steps.isEmpty { encoder.search.follow(value, encoder.steps) }
  }
}

extension ProjectingEncoder {
  /// An encoder whose containers take everything and follow nothing: a member off the path.
  static func discarding() -> ProjectingEncoder {
    ProjectingEncoder(search: Search(), steps: [])
  }

  /// The encoder of the member or element on the path written through a nested container: it
  /// has no end at which to write it whole or count its entries, so a path that ends there, or
  /// ends with `count` there, is left to the full encoding.
  func nestedEncoder() -> ProjectingEncoder {
    let rest = self.rest
    var endsThere = rest.isEmpty
    if rest.count == 1, case .key("count") = rest.first { endsThere = true }
    guard !endsThere else {
      search.isUnsupported = true
      return .discarding()
    }
    return ProjectingEncoder(search: search, steps: rest)
  }
}
