/// Writes compact JSON for ``JSONDirectEncodable``, in the form Rewind's encoder gives: strings
/// escaped as it escapes them, integers as `String(value)` spells them, floating-point numbers
/// as their shortest round-tripping text.
///
/// Separators are written for you: open a container, write a `key` before each member's value,
/// close it. The writer checks the sequence as it goes: a value where a key belongs, a key in an
/// array, a container closed twice or left open, or two top-level values make the result
/// incomplete, and the caller encodes the value with `encode(to:)` instead.
public struct JSONDirectWriter {
  /// The bytes written so far.
  package var bytes: [UInt8]
  /// How many containers are open.
  private var depth = 0
  /// Bit `d` is set when the container at depth `d + 1` is an object.
  private var objects: UInt64 = 0
  /// A key was written and its value not yet.
  private var afterKey = false
  /// The next member or element needs a comma before it.
  private var needsComma = false
  private var topValues = 0
  private var isBroken = false
  /// The first key of the top-level object, and how many it has.
  private var firstTopKey: String?
  private var topKeyCount = 0
  /// The top-level value, when it is a string.
  private var topString: String?
  /// The top level, when ``encode(_:)`` wrote all of it.
  private var encodedTopLevel: JSONStreamEncoder.TopLevel?
  private var streamEncoder: JSONStreamEncoder?

  /// A writer that appends to `bytes`.
  package init(bytes: [UInt8] = []) {
    self.bytes = bytes
  }

  /// Whether exactly one whole JSON value was written, every container closed.
  package var isComplete: Bool { !isBroken && depth == 0 && topValues == 1 && !afterKey }

  /// What the top level is, for naming an action (valid when ``isComplete``).
  package var topLevel: JSONStreamEncoder.TopLevel {
    if let encodedTopLevel { return encodedTopLevel }
    if let topString { return .string(topString) }
    if topKeyCount == 1, let firstTopKey { return .singleKeyObject(firstTopKey) }
    return .other
  }

  private var isInObject: Bool { depth > 0 && objects & (1 << UInt64(depth - 1)) != 0 }

  // MARK: Containers

  /// Opens an object.
  public mutating func beginObject() {
    beginValue()
    open(isObject: true, bracket: .openBrace)
  }

  /// Closes the innermost container, which must be an object.
  public mutating func endObject() {
    close(isObject: true, bracket: .closeBrace)
  }

  /// Opens an array.
  public mutating func beginArray() {
    beginValue()
    open(isObject: false, bracket: .openBracket)
  }

  /// Closes the innermost container, which must be an array.
  public mutating func endArray() {
    close(isObject: false, bracket: .closeBracket)
  }

  /// Writes the key of the next member of the innermost object (a `CodingKey`'s `stringValue`).
  public mutating func key(_ name: StaticString) {
    guard beginKey() else { return }
    if name.hasPointerRepresentation {
      let plain = name.withUTF8Buffer { utf8 -> Bool in
        for byte in utf8 where byte < 0x20 || byte == .quote || byte == .backslash {
          return false
        }
        bytes.append(.quote)
        bytes.append(contentsOf: utf8)
        bytes.append(.quote)
        return true
      }
      if !plain { JSONWriter.appendString(name.description, to: &bytes) }
    } else {
      JSONWriter.appendString(name.description, to: &bytes)
    }
    endKey { name.description }
  }

  /// Writes the key of the next member of the innermost object.
  public mutating func key(_ name: String) {
    guard beginKey() else { return }
    JSONWriter.appendString(name, to: &bytes)
    endKey { name }
  }

  // MARK: Scalars

  /// Writes a string.
  public mutating func string(_ value: String) {
    if depth == 0 { topString = value }
    beginValue()
    JSONWriter.appendString(value, to: &bytes)
    endValue()
  }

  /// Writes an integer of any width.
  public mutating func integer<T: FixedWidthInteger>(_ value: T) {
    beginValue()
    if T.isSigned, value < 0 {
      bytes.append(.minus)
      appendDigits(UInt64(value.magnitude))
    } else {
      appendDigits(UInt64(value))
    }
    endValue()
  }

  /// Writes a floating-point number.
  /// - Throws: ``JSONDirectWriterError`` for NaN and infinities, which JSON cannot hold (the
  ///   caller's `encode(to:)` then gives Codable's error).
  public mutating func number<F: BinaryFloatingPoint & LosslessStringConvertible>(_ value: F)
    throws
  {
    guard value.isFinite else { throw JSONDirectWriterError(reason: "\(value) is not finite") }
    beginValue()
    bytes.append(contentsOf: JSONNumberText.text(value).utf8)
    endValue()
  }

  /// Writes `true` or `false`.
  public mutating func bool(_ value: Bool) {
    beginValue()
    appendLiteral(value ? "true" : "false")
    endValue()
  }

  /// Writes `null`.
  public mutating func null() {
    beginValue()
    appendLiteral("null")
    endValue()
  }

  /// Writes any `Encodable` value as Rewind's encoder writes it: through its own
  /// ``JSONDirectEncodable/encodeJSON(to:)`` when it has one, else through `encode(to:)`.
  /// - Throws: The value's error.
  public mutating func encode<T: Encodable>(_ value: T) throws {
    if let direct = value as? any JSONDirectEncodable {
      try direct.encodeJSON(to: &self)
      return
    }
    let isTop = depth == 0
    beginValue()
    let encoder = streamEncoder ?? JSONStreamEncoder()
    streamEncoder = encoder
    let topLevel = try encoder.encode(value, into: &bytes)
    if isTop { encodedTopLevel = topLevel }
    endValue()
  }

  // MARK: The sequence

  private mutating func beginValue() {
    if depth == 0 {
      topValues += 1
      if topValues > 1 { isBroken = true }
    } else if isInObject {
      if !afterKey { isBroken = true }
      afterKey = false
    } else if needsComma {
      bytes.append(.comma)
    }
  }

  private mutating func endValue() {
    needsComma = true
  }

  private mutating func open(isObject: Bool, bracket: UInt8) {
    guard depth < 64 else {
      isBroken = true
      return
    }
    if isObject { objects |= 1 << UInt64(depth) } else { objects &= ~(1 << UInt64(depth)) }
    depth += 1
    needsComma = false
    bytes.append(bracket)
  }

  private mutating func close(isObject: Bool, bracket: UInt8) {
    guard depth > 0, isInObject == isObject, !afterKey else {
      isBroken = true
      return
    }
    depth -= 1
    bytes.append(bracket)
    endValue()
  }

  /// Starts a key: the comma before it, or `false` when no key belongs here.
  private mutating func beginKey() -> Bool {
    guard isInObject, !afterKey else {
      isBroken = true
      return false
    }
    if needsComma { bytes.append(.comma) }
    return true
  }

  private mutating func endKey(_ name: () -> String) {
    bytes.append(.colon)
    afterKey = true
    if depth == 1 {
      topKeyCount += 1
      if topKeyCount == 1 { firstTopKey = name() }
    }
  }

  private mutating func appendLiteral(_ literal: StaticString) {
    literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }

  /// Appends the decimal digits of `value`.
  private mutating func appendDigits(_ value: UInt64) {
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
    var count = 0
    var rest = value
    withUnsafeMutableBytes(of: &digits) { buffer in
      repeat {
        buffer[23 &- count] = UInt8(truncatingIfNeeded: rest % 10) &+ .digitZero
        count &+= 1
        rest /= 10
      } while rest > 0
      bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[(24 &- count)...]))
    }
  }
}

/// Why ``JSONDirectWriter`` could not write a value.
public struct JSONDirectWriterError: Error, CustomStringConvertible {
  /// What went wrong.
  public var reason: String

  /// An error saying `reason`.
  public init(reason: String) {
    self.reason = reason
  }

  /// The reason.
  public var description: String { reason }
}
