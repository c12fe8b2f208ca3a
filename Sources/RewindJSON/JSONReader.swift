/// The parser's state: a cursor over the input bytes and the explicit stack of open containers.
///
/// Reading is a loop with two phases. In the first, a value starts at the cursor: scalars are read
/// whole, containers are pushed on the stack. In the second, a finished value is added to the
/// innermost open container, which is then either continued after a `,` (back to the first phase)
/// or closed, its value finishing in turn. Nothing recurses.
struct JSONReader {
  let bytes: UnsafeRawBufferPointer
  let limits: JSONLimits
  /// The cursor: the offset of the next byte to read.
  var offset = 0
  /// Array elements and object members read so far, against ``JSONLimits/maxElements``.
  var elementCount = 0
  /// Reused buffer for strings with escapes.
  var scratch: [UInt8] = []
  /// ``readTape(into:)``: the most entries an array's elements or an object's members may take
  /// before it is read lazily (``JSONTapeEntry/isLazy``).
  var lazyContainerEntries = JSONTape.lazyContainerEntries

  init(bytes: UnsafeRawBufferPointer, limits: JSONLimits) {
    self.bytes = bytes
    self.limits = limits
  }

  /// An open array or object.
  private struct Frame {
    var isObject: Bool
    /// Where this container's elements or members start on the shared stacks.
    var start: Int
    /// The key of the member whose value is being read, for objects.
    var key = ""
    /// The keys read so far, once an object has too many members for a linear duplicate check.
    var keyIndex: Set<String>?
  }

  /// Objects with at most this many members check for duplicate keys by linear search.
  private static let linearKeySearchLimit = 8

  /// Reads the whole input as one JSON text.
  ///
  /// - Parameter keepingValues: `false` to check the text without keeping what it holds: the
  ///   same reading and the same errors, but arrays keep no elements and objects only their keys
  ///   (for the duplicate check), and the value returned is `null`. Memory then grows with the
  ///   keys of the open objects, not with the document.
  mutating func readDocument(keepingValues: Bool = true) throws(JSONParseError) -> JSONValue {
    if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF {
      throw JSONParseError(offset: 0, reason: .byteOrderMark)
    }
    if bytes.count > JSONLimits.byteCeiling {
      throw JSONParseError(offset: 0, reason: .documentTooLarge(limit: JSONLimits.byteCeiling))
    }
    let elementLimit = limits.elementLimit
    var frames: [Frame] = []
    var elements: [JSONValue] = []
    var members: [JSONMember] = []
    var expected = "a JSON value"

    while true {
      // Phase 1: a value starts here.
      skipWhitespace()
      guard offset < bytes.count else {
        throw JSONParseError(offset: offset, reason: .unexpectedEnd(expected: expected))
      }
      if !frames.isEmpty {
        elementCount += 1
        if elementCount > elementLimit {
          throw JSONParseError(offset: offset, reason: .tooManyElements(limit: elementLimit))
        }
      }
      var value: JSONValue
      let byte = bytes[offset]
      switch byte {
      case .openBracket, .openBrace:
        guard frames.count < limits.maxDepth else {
          throw JSONParseError(offset: offset, reason: .tooDeep(limit: limits.maxDepth))
        }
        let isObject = byte == .openBrace
        offset += 1
        // Room for typical documents up front, instead of growing from one element.
        if frames.isEmpty {
          frames.reserveCapacity(16)
        }
        if isObject && members.capacity == 0 {
          members.reserveCapacity(16)
        } else if !isObject && elements.capacity == 0 {
          elements.reserveCapacity(16)
        }
        skipWhitespace()
        if offset < bytes.count && bytes[offset] == (isObject ? .closeBrace : .closeBracket) {
          offset += 1
          value = isObject ? .object([]) : .array([])
        } else if isObject {
          var frame = Frame(isObject: true, start: members.count)
          try readKey(into: &frame, members: members, expected: "a string key or '}'")
          frames.append(frame)
          expected = "a value after ':'"
          continue
        } else {
          frames.append(Frame(isObject: false, start: elements.count))
          expected = "a value or ']'"
          continue
        }
      case .quote:
        value = .string(try readString())
      case .lowercaseT:
        try readLiteral("true")
        value = .bool(true)
      case .lowercaseF:
        try readLiteral("false")
        value = .bool(false)
      case .lowercaseN:
        try readLiteral("null")
        value = .null
      case .minus, .digitZero ... .digitNine:
        value = .number(try readNumber())
      default:
        throw unexpected(byte, expected: expected)
      }

      // Phase 2: add finished values to their containers, closing containers as they end.
      while true {
        guard let top = frames.indices.last else {
          skipWhitespace()
          if offset < bytes.count {
            throw JSONParseError(offset: offset, reason: .trailingContent(bytes[offset]))
          }
          return keepingValues ? value : .null
        }
        let isObject = frames[top].isObject
        if isObject {
          members.append(JSONMember(frames[top].key, keepingValues ? value : .null))
        } else if keepingValues {
          elements.append(value)
        }
        skipWhitespace()
        let after = isObject ? "',' or '}' after object member" : "',' or ']' after array element"
        guard offset < bytes.count else {
          throw JSONParseError(offset: offset, reason: .unexpectedEnd(expected: after))
        }
        let next = bytes[offset]
        if next == .comma {
          let commaOffset = offset
          offset += 1
          skipWhitespace()
          if offset < bytes.count && bytes[offset] == (isObject ? .closeBrace : .closeBracket) {
            throw JSONParseError(offset: commaOffset, reason: .trailingComma)
          }
          if isObject {
            try readKey(into: &frames[top], members: members, expected: "a string key after ','")
            expected = "a value after ':'"
          } else {
            expected = "a value after ','"
          }
          break
        }
        guard next == (isObject ? .closeBrace : .closeBracket) else {
          throw unexpected(next, expected: after)
        }
        offset += 1
        let frame = frames.removeLast()
        if !keepingValues {
          value = .null
          if isObject { members.removeSubrange(frame.start...) }
        } else if isObject {
          value = .object(Self.exactCopy(members[frame.start...]))
          members.removeSubrange(frame.start...)
        } else {
          value = .array(Self.exactCopy(elements[frame.start...]))
          elements.removeSubrange(frame.start...)
        }
      }
    }
  }

  /// A container's values in an array of their own size. (`Array(slice)` of a slice that spans
  /// the whole working array shares its storage, with the capacity reserved up front: 16 members
  /// for a small top-level object, four times what it holds.)
  private static func exactCopy<Element>(_ values: ArraySlice<Element>) -> [Element] {
    var copy: [Element] = []
    copy.reserveCapacity(values.count)
    copy.append(contentsOf: values)
    return copy
  }

  /// Reads `"key"` and the `:` after it into `frame`, rejecting a key the object already has.
  private mutating func readKey(
    into frame: inout Frame,
    members: [JSONMember],
    expected: String
  ) throws(JSONParseError) {
    skipWhitespace()
    guard offset < bytes.count else {
      throw JSONParseError(offset: offset, reason: .unexpectedEnd(expected: expected))
    }
    guard bytes[offset] == .quote else {
      throw unexpected(bytes[offset], expected: expected)
    }
    let keyOffset = offset
    let key = try readString()
    let memberCount = members.count - frame.start
    if frame.keyIndex != nil {
      if frame.keyIndex?.insert(key).inserted == false {
        throw JSONParseError(offset: keyOffset, reason: .duplicateKey(key))
      }
    } else {
      for index in frame.start..<members.count where members[index].key == key {
        throw JSONParseError(offset: keyOffset, reason: .duplicateKey(key))
      }
      if memberCount >= Self.linearKeySearchLimit {
        var keys = Set(members[frame.start...].lazy.map(\.key))
        keys.insert(key)
        frame.keyIndex = keys
      }
    }
    frame.key = key
    skipWhitespace()
    guard offset < bytes.count else {
      throw JSONParseError(offset: offset, reason: .unexpectedEnd(expected: "':' after object key"))
    }
    guard bytes[offset] == .colon else {
      throw unexpected(bytes[offset], expected: "':' after object key")
    }
    offset += 1
  }

  /// Skips JSON whitespace: space, tab, line feed and carriage return.
  @inline(__always)
  mutating func skipWhitespace() {
    while offset < bytes.count {
      switch bytes[offset] {
      case .space, .tab, .lineFeed, .carriageReturn: offset += 1
      default: return
      }
    }
  }

  /// The error for `byte` at the cursor where `expected` should be: malformed UTF-8 is reported
  /// as such, anything else as an unexpected byte.
  func unexpected(_ byte: UInt8, expected: String) -> JSONParseError {
    if byte >= 0x80 && utf8SequenceLength(at: offset) == nil {
      return JSONParseError(offset: offset, reason: .invalidUTF8)
    }
    return JSONParseError(offset: offset, reason: .unexpectedByte(byte, expected: expected))
  }
}

extension UInt8 {
  static let tab: UInt8 = 0x09
  static let lineFeed: UInt8 = 0x0A
  static let carriageReturn: UInt8 = 0x0D
  static let space: UInt8 = 0x20
  static let quote: UInt8 = 0x22
  static let plus: UInt8 = 0x2B
  static let comma: UInt8 = 0x2C
  static let minus: UInt8 = 0x2D
  static let period: UInt8 = 0x2E
  static let slash: UInt8 = 0x2F
  static let digitZero: UInt8 = 0x30
  static let digitNine: UInt8 = 0x39
  static let colon: UInt8 = 0x3A
  static let uppercaseE: UInt8 = 0x45
  static let openBracket: UInt8 = 0x5B
  static let backslash: UInt8 = 0x5C
  static let closeBracket: UInt8 = 0x5D
  static let lowercaseE: UInt8 = 0x65
  static let lowercaseF: UInt8 = 0x66
  static let lowercaseN: UInt8 = 0x6E
  static let lowercaseT: UInt8 = 0x74
  static let lowercaseU: UInt8 = 0x75
  static let openBrace: UInt8 = 0x7B
  static let closeBrace: UInt8 = 0x7D
}
