/// Writes compact JSON for ``JSONDirectEncodable``, in the form Rewind's encoder gives: strings
/// escaped as it escapes them, integers as `String(value)` spells them, floating-point numbers
/// as their shortest round-tripping text.
///
/// Separators are written for you: open a container, write a `key` before each member's value,
/// close it. The writer checks the sequence as it goes: a value where a key belongs, a key in an
/// array, a container closed twice or left open, or two top-level values make the result
/// incomplete, and the caller encodes the value with `encode(to:)` instead.
public struct JSONDirectWriter {
  /// Where the bytes go.
  @usableFromInline package let output: ByteBuffer
  /// How many containers are open.
  @usableFromInline var depth = 0
  /// Bit `d` is set when the container at depth `d + 1` is an object.
  @usableFromInline var objects: UInt64 = 0
  /// A key was written and its value not yet.
  @usableFromInline var afterKey = false
  /// The next member or element needs a comma before it.
  @usableFromInline var needsComma = false
  @usableFromInline var topValues = 0
  @usableFromInline var isBroken = false
  /// How many keys the top-level object has.
  @usableFromInline var topKeyCount = 0
  /// Where the top-level name — the first key of the top-level object, or the top-level string —
  /// lies in ``output``, between its quotes and escaped as written; `nameEnd` is -1 before one.
  @usableFromInline var nameStart = 0
  @usableFromInline var nameEnd = -1
  /// The top-level value is a string.
  @usableFromInline var topIsString = false
  /// The top-level name's text, when it was given as a `String` (``key(named:)``, ``string(_:)``
  /// at the top level, a literal key that needed escapes); else its bytes are its text.
  @usableFromInline var nameText: String?
  /// The top level, when ``encode(_:)`` wrote all of it.
  private var encodedTopLevel: JSONStreamEncoder.TopLevel? {
    didSet { hasEncodedTopLevel = encodedTopLevel != nil }
  }
  /// Whether ``encodedTopLevel`` is set (read by inlinable code, which cannot see it).
  @usableFromInline var hasEncodedTopLevel = false
  private var streamEncoder: JSONStreamEncoder?
  /// Containers to open before ``pause`` is called (never reached without one).
  @usableFromInline var untilPause = Int.max
  /// Called after every ``pauseEvery`` containers opened (``pausing(every:_:)``).
  private var pause: (() -> Void)?
  private var pauseEvery = Int.max

  /// A writer that appends to `output`.
  package init(output: ByteBuffer = ByteBuffer()) {
    self.output = output
  }

  /// Makes the writer as new, writing from the start of an emptied ``output``: for a writer kept
  /// from one value to the next, which costs neither an allocation nor a reference count.
  /// Inlinable, as ``isComplete`` and ``topLevelName`` are: the recorder calls all three for
  /// every action.
  @inlinable
  package mutating func reset() {
    output.removeAll()
    depth = 0
    objects = 0
    afterKey = false
    needsComma = false
    topValues = 0
    isBroken = false
    topKeyCount = 0
    nameStart = 0
    nameEnd = -1
    topIsString = false
    if nameText != nil { nameText = nil }
    if hasEncodedTopLevel { forgetEncodedTopLevel() }
  }

  /// Clears ``encodedTopLevel`` (``reset()``).
  @usableFromInline mutating func forgetEncodedTopLevel() {
    encodedTopLevel = nil
  }

  /// Calls `pause` after every `count` containers opened, from now on (across ``reset()``), and
  /// has values written through ``encode(_:)`` pause the same way: how an encoding on a
  /// background thread gives its core back now and then (the recorder's checkpoint encoder).
  /// `pause` runs on the writing thread, between two values. Containers, not every value, are
  /// counted, so that a writer without a pause pays one decrement a container.
  package mutating func pausing(every count: Int, _ pause: @escaping () -> Void) {
    pauseEvery = max(1, count)
    untilPause = pauseEvery
    self.pause = pause
  }

  /// Calls the pause and starts the next count (``pausing(every:_:)``).
  @usableFromInline @inline(never)
  mutating func pauseNow() {
    untilPause = pauseEvery
    pause?()
  }

  /// The bytes written so far.
  package var bytes: [UInt8] { output.array }

  /// Whether exactly one whole JSON value was written, every container closed.
  @inlinable package var isComplete: Bool { !isBroken && depth == 0 && topValues == 1 && !afterKey }

  /// What the top level is, for naming an action (valid when ``isComplete``).
  package var topLevel: JSONStreamEncoder.TopLevel {
    if let encodedTopLevel { return encodedTopLevel }
    guard let name = topLevelName else { return .other }
    let text =
      nameText
      ?? String(decoding: UnsafeRawBufferPointer(rebasing: output.bytes[name]), as: UTF8.self)
    return topIsString ? .string(text) : .singleKeyObject(text)
  }

  /// Where the top-level name lies in ``output`` — the key of a top-level object with exactly
  /// one member, or a top-level string — escaped as a JSON string's content, without its quotes
  /// (valid when ``isComplete``): the action's name, which the recorder copies into the line as
  /// it is. `nil` for any other top level, or one written by ``encode(_:)``.
  @inlinable package var topLevelName: Range<Int>? {
    guard !hasEncodedTopLevel, nameEnd >= 0, topIsString || topKeyCount == 1 else { return nil }
    return nameStart..<nameEnd
  }

  @inlinable @inline(__always) var isInObject: Bool {
    depth > 0 && objects & (1 << UInt64(depth - 1)) != 0
  }

  // MARK: Containers

  /// Opens an object.
  @inlinable @inline(__always)
  public mutating func beginObject() {
    beginValue()
    open(isObject: true, bracket: 0x7B)
  }

  /// Closes the innermost container, which must be an object.
  @inlinable @inline(__always)
  public mutating func endObject() {
    close(isObject: true, bracket: 0x7D)
  }

  /// Opens an array.
  @inlinable @inline(__always)
  public mutating func beginArray() {
    beginValue()
    open(isObject: false, bracket: 0x5B)
  }

  /// Closes the innermost container, which must be an array.
  @inlinable @inline(__always)
  public mutating func endArray() {
    close(isObject: false, bracket: 0x5D)
  }

  /// Writes the key of the next member of the innermost object (a `CodingKey`'s `stringValue`).
  ///
  /// Always inlined into the caller (`@_transparent`: `@inline(__always)` alone is declined in a
  /// large `encodeJSON(to:)`, one case per action), where `name` is a literal: its length and
  /// bytes are then known to the compiler, which folds the check for characters to escape away
  /// (a call cost about 110 instructions a key: the todo action's whole JSON now takes about 420
  /// instead of 550).
  @_transparent
  public mutating func key(_ name: StaticString) {
    guard beginKey() else { return }
    if name.hasPointerRepresentation {
      let start = output.count &+ 1
      if output.appendQuotedIfPlain(name.utf8Start, count: name.utf8CodeUnitCount) {
        endKey(start: start, text: nil)
        return
      }
    }
    writeKey(name.description)
  }

  /// Writes the key of the next member of the innermost object, a key known only at run time
  /// (a dictionary's); ``key(_:)`` is faster for literal keys.
  public mutating func key(named name: String) {
    guard beginKey() else { return }
    writeKey(name)
  }

  @usableFromInline mutating func writeKey(_ name: String) {
    let start = output.count &+ 1
    output.appendJSONString(name)
    endKey(start: start, text: name)
  }

  // MARK: Scalars

  /// Writes a string.
  @inlinable
  public mutating func string(_ value: String) {
    beginValue()
    let start = output.count &+ 1
    output.appendJSONString(value)
    if depth == 0 { nameTopString(start: start, text: value) }
    endValue()
  }

  /// Writes an `Int`.
  @inlinable
  public mutating func integer(_ value: Int) {
    writeInteger(isNegative: value < 0, magnitude: UInt64(value.magnitude))
  }

  /// Writes an integer of any width.
  public mutating func integer<T: FixedWidthInteger>(_ value: T) {
    guard let magnitude = UInt64(exactly: value.magnitude) else {
      // Wider than 64 bits (`Int128`): as `String(value)` spells it. Rewind's encoder refuses
      // `Int128` in `encode(to:)` (as Foundation's does), so a direct path that writes one
      // disagrees with Codable; `JSONDirectCoding.verify` says so.
      beginValue()
      var text = String(value)
      text.withUTF8 { output.append(UnsafeRawBufferPointer($0)) }
      endValue()
      return
    }
    writeInteger(isNegative: T.isSigned && value < 0, magnitude: magnitude)
  }

  /// Writes a floating-point number.
  /// - Throws: ``JSONDirectWriterError`` for NaN and infinities, which JSON cannot hold (the
  ///   caller's `encode(to:)` then gives Codable's error).
  public mutating func number<F: BinaryFloatingPoint & LosslessStringConvertible>(_ value: F)
    throws
  {
    guard value.isFinite else { throw JSONDirectWriterError(reason: "\(value) is not finite") }
    beginValue()
    var text = JSONNumberText.text(value)
    text.withUTF8 { output.append(UnsafeRawBufferPointer($0)) }
    endValue()
  }

  /// Writes `true` or `false`.
  @inlinable
  public mutating func bool(_ value: Bool) {
    beginValue()
    appendLiteral(value ? "true" : "false")
    endValue()
  }

  /// Writes `null`.
  @inlinable
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
    try encodeThroughCodable(value)
  }

  /// Writes an `Encodable` value through its `encode(to:)`, as Rewind's encoder writes it (one
  /// pass into a buffer the writer keeps), without asking whether it has a direct path: for a
  /// caller that asked once per type.
  /// - Throws: The value's error.
  package mutating func encodeThroughCodable<T: Encodable>(_ value: T) throws {
    let isTop = depth == 0
    beginValue()
    let encoder = streamEncoder ?? JSONStreamEncoder()
    if streamEncoder == nil, let pause { encoder.pausing(every: pauseEvery, pause) }
    streamEncoder = encoder
    let topLevel = try encoder.encode(value, appendingTo: output)
    if isTop { encodedTopLevel = topLevel }
    endValue()
  }

  // MARK: The sequence

  @inlinable @inline(__always)
  mutating func beginValue() {
    if depth == 0 {
      topValues += 1
      if topValues > 1 { isBroken = true }
    } else if isInObject {
      if !afterKey { isBroken = true }
      afterKey = false
    } else if needsComma {
      output.append(0x2C)
    }
  }

  /// Writes an integer's sign and digits.
  @inlinable @inline(__always)
  mutating func writeInteger(isNegative: Bool, magnitude: UInt64) {
    beginValue()
    if isNegative { output.append(0x2D) }
    output.appendDecimal(magnitude)
    endValue()
  }

  @inlinable @inline(__always)
  mutating func endValue() {
    needsComma = true
  }

  @inlinable @inline(__always)
  mutating func open(isObject: Bool, bracket: UInt8) {
    guard depth < 64 else {
      isBroken = true
      return
    }
    if isObject { objects |= 1 << UInt64(depth) } else { objects &= ~(1 << UInt64(depth)) }
    depth += 1
    needsComma = false
    output.append(bracket)
    untilPause &-= 1
    if untilPause == 0 { pauseNow() }
  }

  @inlinable @inline(__always)
  mutating func close(isObject: Bool, bracket: UInt8) {
    guard depth > 0, isInObject == isObject, !afterKey else {
      isBroken = true
      return
    }
    depth -= 1
    output.append(bracket)
    endValue()
  }

  /// Starts a key: the comma before it, or `false` when no key belongs here.
  @inlinable @inline(__always)
  mutating func beginKey() -> Bool {
    guard isInObject, !afterKey else {
      isBroken = true
      return false
    }
    if needsComma { output.append(0x2C) }
    return true
  }
  /// Ends a key whose text starts at `start` in ``output``: the colon, and the count of the
  /// top-level object's keys.
  @inlinable @inline(__always)
  mutating func endKey(start: Int, text: String?) {
    if depth == 1 {
      topKeyCount &+= 1
      if topKeyCount == 1 {
        nameStart = start
        nameEnd = output.count &- 1
        if let text { nameText = text }
      }
    }
    output.append(0x3A)
    afterKey = true
  }

  /// Notes the top-level string whose text starts at `start` in ``output``.
  @usableFromInline mutating func nameTopString(start: Int, text: String) {
    topIsString = true
    nameStart = start
    nameEnd = output.count &- 1
    nameText = text
  }

  @inlinable @inline(__always)
  mutating func appendLiteral(_ literal: StaticString) {
    output.append(literal)
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
