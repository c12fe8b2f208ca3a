/// What ``JSONStreamValueEncoder`` keeps in its buffered mode, where a value may write to its
/// containers in any order: each container's member values in a segment of its own, put together
/// in order at the end.
///
/// The stream runs in this mode for what a single pass cannot write: a container written to after
/// a later sibling, a key encoded again, super encoders, a single value written twice (the whole
/// value is encoded again this way) and dictionaries and sets, whose entries are sorted. Writing a
/// member again, in any of these, adds a member with the same key: the member keeps its first
/// place and its last value, as a tree of values would.
final class JSONStreamBuffer {
  /// One member (or element) of a container, as written.
  struct Member {
    /// The key; for array elements, the element's index as text.
    var key: String
    /// Where the value's bytes start in the container's segment; they end where the next
    /// member's start (or the segment ends).
    var start: Int
    /// The container opened as its value, if one was.
    var child: Int?
  }

  /// One container.
  struct Segment {
    var isObject: Bool
    /// The bytes of the scalar values written in it.
    var bytes: [UInt8] = []
    var members: [Member] = []
  }

  /// How the entries of a container are sorted, for dictionaries and sets.
  enum Order {
    /// In the order written.
    case written
    /// A dictionary's entries: an object's members by key (numerically for `Int` keys), or the
    /// key-value array of other key types by the JSON text of each key.
    case dictionary(hasIntKeys: Bool)
    /// A set's elements, by their JSON text.
    case set
  }

  /// The pseudo-container holding the top-level value as its one member, keyed `""`.
  static let rootID = -1

  var segments: [Int: Segment] = [rootID: Segment(isObject: false)]
  /// The position of each frame in the encoder's frame list.
  var positions: [Int: Int] = [:]
  /// The container whose segment is the encoder's output now.
  var active = rootID
  /// The order of the top-level value's own container.
  var rootOrder = Order.written

  /// Makes `id`'s segment the one `output` holds, keeping the one it held.
  @inline(__always)
  func activate(_ id: Int, output: inout [UInt8]) {
    guard id != active else { return }
    swap(&segments[active, default: Segment(isObject: true)].bytes, &output)
    swap(&segments[id, default: Segment(isObject: true)].bytes, &output)
    active = id
  }

  /// Starts a member of the active container at `key`; its value is what is written next.
  func beginMember(_ key: String, outputCount: Int) {
    segments[active, default: Segment(isObject: true)].members.append(
      Member(key: key, start: outputCount))
  }

  /// The container already written as the member `key` of `parent`, when it is one of this
  /// kind: a nested container asked for again at the same key goes on filling it.
  func existingChild(of parent: Int, key: String, isObject: Bool) -> Int? {
    guard let members = segments[parent]?.members,
      let member = members.last(where: { $0.key == key }),
      let child = member.child, segments[child]?.isObject == isObject
    else { return nil }
    return child
  }

  /// Opens the container `id` as the value of the member just begun in the active one.
  func open(_ id: Int, isObject: Bool, output: inout [UInt8]) {
    let parent = active
    segments[id] = Segment(isObject: isObject)
    if let last = segments[parent]?.members.indices.last {
      segments[parent]?.members[last].child = id
    }
    activate(id, output: &output)
  }

  /// The JSON text of the top-level value, with `output` (the active segment) taken back; `nil`
  /// when nothing was written for it.
  func assemble(output: inout [UInt8]) -> [UInt8]? {
    activate(Self.rootID, output: &output)
    segments[Self.rootID]?.bytes = output
    guard let root = segments[Self.rootID], !root.members.isEmpty else { return nil }
    var text: [UInt8] = []
    let values = resolvedValues(of: root)
    appendValue(
      values[values.count - 1].member, end: values[values.count - 1].end, of: root,
      order: rootOrder, to: &text)
    return text
  }

  /// The members of `segment` as a tree of values has them: each key once, in the place it was
  /// first written, with the value written last; with where each value's bytes end.
  private func resolvedValues(of segment: Segment) -> [(member: Member, end: Int)] {
    var ends: [Int] = []
    ends.reserveCapacity(segment.members.count)
    for index in segment.members.indices {
      ends.append(
        index + 1 < segment.members.count
          ? segment.members[index + 1].start : segment.bytes.count)
    }
    var places: [String: Int] = [:]
    var resolved: [(member: Member, end: Int)] = []
    for (index, member) in segment.members.enumerated() {
      if let place = places[member.key] {
        // The first spelling of the key stays (keys compare as Swift strings).
        var replacement = member
        replacement.key = resolved[place].member.key
        resolved[place] = (replacement, ends[index])
      } else {
        places[member.key] = resolved.count
        resolved.append((member, ends[index]))
      }
    }
    return resolved
  }

  /// Appends one member's value: its container, its bytes, or `{}` when nothing was written.
  private func appendValue(
    _ member: Member, end: Int, of segment: Segment, order: Order, to text: inout [UInt8]
  ) {
    if let child = member.child, let container = segments[child] {
      appendContainer(container, order: order, to: &text)
    } else if end > member.start {
      text.append(contentsOf: segment.bytes[member.start..<end])
    } else {
      text.append(contentsOf: [.openBrace, .closeBrace])
    }
  }

  private func appendContainer(_ segment: Segment, order: Order, to text: inout [UInt8]) {
    var entries = resolvedValues(of: segment).map { value -> (key: String, text: [UInt8]) in
      var bytes: [UInt8] = []
      appendValue(value.member, end: value.end, of: segment, order: .written, to: &bytes)
      return (value.member.key, bytes)
    }
    switch order {
    case .written: break
    case .dictionary(let hasIntKeys) where segment.isObject:
      entries.sort { Self.keyPrecedes($0.key, $1.key, numerically: hasIntKeys) }
    case .dictionary:
      // Other keys: the flat key-value array, sorted by the text of each key.
      guard entries.count % 2 == 0 else { break }
      let pairs = stride(from: 0, to: entries.count, by: 2).map { (entries[$0], entries[$0 + 1]) }
      entries = pairs.sorted { $0.0.text.lexicographicallyPrecedes($1.0.text) }
        .flatMap { [$0.0, $0.1] }
    case .set:
      entries.sort { $0.text.lexicographicallyPrecedes($1.text) }
    }
    text.append(segment.isObject ? .openBrace : .openBracket)
    for (index, entry) in entries.enumerated() {
      if index > 0 { text.append(.comma) }
      if segment.isObject {
        JSONWriter.appendString(entry.key, to: &text)
        text.append(.colon)
      }
      text.append(contentsOf: entry.text)
    }
    text.append(segment.isObject ? .closeBrace : .closeBracket)
  }

  /// Dictionary order: `Int` keys numerically (any other key after them), other keys by their
  /// UTF-8 bytes.
  private static func keyPrecedes(_ left: String, _ right: String, numerically: Bool) -> Bool {
    if numerically {
      switch (Int(left), Int(right)) {
      case (let a?, let b?): return a < b
      case (nil, _?): return false
      case (_?, nil): return true
      case (nil, nil): break
      }
    }
    return left.utf8.lexicographicallyPrecedes(right.utf8)
  }
}
