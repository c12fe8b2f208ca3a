/// The members of a lazy object (``JSONTapeEntry/isLazy``), found by key in its text: what a
/// keyed container reads instead of the tape, whose entries for the object's members were
/// dropped as they were read.
///
/// Each lookup goes through the members from the last one found (itself first), so that reading
/// them in order (a dictionary decoded key by key) costs one pass, and asking for the same member
/// again (`contains` or `decodeNil` before `decode`) costs one step; a lookup in another order
/// costs at most one pass over the object's text.
final class JSONLazyObject {
  private let bytes: UnsafeRawBufferPointer
  private let start: Int
  /// Where the next lookup starts: the key of the last member found.
  private var cursor: Int
  /// How many members the lookups have read so far (for tests of their cost).
  private(set) var membersRead = 0
  private let options: [CodingUserInfoKey: any Sendable]
  private let lazyContainerEntries: Int
  /// Reads the values found (made when first needed: a lookup by name alone reads none).
  private(set) lazy var values = JSONLazyValues(
    options: options, lazyContainerEntries: lazyContainerEntries)

  /// The object whose text starts at `start` of `bytes`.
  /// - Parameter lazyContainerEntries: The reading document's setting, for the values read.
  init(
    bytes: UnsafeRawBufferPointer, start: Int, options: [CodingUserInfoKey: any Sendable],
    lazyContainerEntries: Int
  ) {
    self.bytes = bytes
    self.start = start
    cursor = JSONLazyValues.elementStart(in: bytes, after: start + 1)
    self.options = options
    self.lazyContainerEntries = lazyContainerEntries
  }

  /// The member whose key equals `name` as a Swift string, or `nil`.
  func member(named name: String) -> JSONTextMember? {
    var name = name
    return name.withUTF8 { name -> JSONTextMember? in
      var found: JSONTextMember?
      let from = cursor
      var read = 0
      JSONTextMember.forEach(in: bytes, object: start, from: from) { member in
        read += 1
        guard matches(member.key, name) else { return true }
        found = member
        return false
      }
      if found == nil {
        JSONTextMember.forEach(in: bytes, object: start, before: from) { member in
          read += 1
          guard matches(member.key, name) else { return true }
          found = member
          return false
        }
      }
      membersRead += read
      if let found { cursor = found.key.start }
      return found
    }
  }

  /// Every key, in order.
  func keys() -> [String] {
    var keys: [String] = []
    JSONTextMember.forEach(in: bytes, object: start) { member in
      keys.append(JSONTape.string(member.key, in: bytes))
      return true
    }
    return keys
  }

  /// Whether `key` equals `name` (UTF-8) as a Swift string.
  private func matches(_ key: JSONTapeEntry, _ name: UnsafeBufferPointer<UInt8>) -> Bool {
    if key.isASCII && !key.isEscaped && !name.contains(where: { $0 >= 0x80 }) {
      let length = key.end - key.start - 2
      return length == name.count && JSONReader.memcmpEqual(bytes, key.start + 1, name, length)
    }
    return JSONTape.string(key, in: bytes) == String(decoding: name, as: UTF8.self)
  }
}

/// One member of an object, found in its text (read and checked before).
struct JSONTextMember {
  /// The key, as a string entry over its text (with its quotes).
  var key: JSONTapeEntry
  /// The offset of the value's first byte.
  var valueStart: Int
  /// The offset after the member, its whitespace and its comma: the next member's key, or the
  /// object's closing brace.
  var next: Int

  /// The members of the object whose opening brace is at `start` of `bytes`, in order: from the
  /// one whose key starts at `from` (the first by default), up to the one whose key starts at or
  /// after `limit`. `body` returns `false` to stop.
  static func forEach(
    in bytes: UnsafeRawBufferPointer, object start: Int, from: Int? = nil,
    before limit: Int = .max, _ body: (JSONTextMember) -> Bool
  ) {
    var position = from ?? JSONLazyValues.elementStart(in: bytes, after: start + 1)
    while position < min(limit, bytes.count), bytes[position] == .quote {
      let member = at(position, in: bytes)
      guard body(member) else { return }
      position = member.next
    }
  }

  /// The member whose key's opening quote is at `position`.
  static func at(_ position: Int, in bytes: UnsafeRawBufferPointer) -> JSONTextMember {
    let key = key(at: position, in: bytes)
    let valueStart = valueStart(after: key, in: bytes)
    let next = JSONLazyValues.nextElement(in: bytes, after: valueStart)
    return JSONTextMember(key: key, valueStart: valueStart, next: next)
  }

  /// The key whose opening quote is at `position`, as a string entry over its text: read without
  /// reading the member's value.
  static func key(at position: Int, in bytes: UnsafeRawBufferPointer) -> JSONTapeEntry {
    var i = position + 1
    var isEscaped = false
    var isASCII = true
    while i < bytes.count, bytes[i] != .quote {
      if bytes[i] >= 0x80 { isASCII = false }
      if bytes[i] == .backslash {
        isEscaped = true
        i += 1
      }
      i += 1
    }
    let keyEnd = min(i + 1, bytes.count)
    var key = JSONTapeEntry(kind: .string, start: position, end: keyEnd, next: 0)
    key.isEscaped = isEscaped
    key.isASCII = isASCII && !isEscaped
    return key
  }

  /// Where the value of the member whose key is `key` starts: past the colon.
  static func valueStart(after key: JSONTapeEntry, in bytes: UnsafeRawBufferPointer) -> Int {
    var valueStart = JSONLazyValues.elementStart(in: bytes, after: key.end)
    if valueStart < bytes.count, bytes[valueStart] == .colon {
      valueStart = JSONLazyValues.elementStart(in: bytes, after: valueStart + 1)
    }
    return valueStart
  }
}
