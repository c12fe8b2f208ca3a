import Foundation

/// Encodes `Encodable` values straight into compact JSON bytes, with exactly the output of
/// ``RewindJSONEncoder``'s ``JSONValue`` path but without building the tree: the fast path under
/// ``RewindJSONEncoder/encode(_:)`` and the recorder.
///
/// Values are written as they are encoded. What a stream cannot do — write to a container after
/// a later sibling was written, encode a key twice, super encoders, a value that encodes nothing
/// at the top level — makes it give up and encode the value again through the ``JSONValue``
/// path, which then gives the bytes or the error. Dictionaries, sets and the Foundation types
/// are encoded by that path and written in place, so their order and form are the same too.
///
/// Reusable: one instance encodes one value after another (not concurrently).
package final class JSONStreamEncoder {
  /// What the top level of the last encoded value was, for naming an action.
  package enum TopLevel: Equatable {
    /// An object with one member, with this key.
    case singleKeyObject(String)
    /// A string, with this text.
    case string(String)
    /// Anything else.
    case other
  }

  let userInfo: [CodingUserInfoKey: any Sendable]
  private let encoder: JSONStreamValueEncoder

  /// Creates an encoder.
  package init(userInfo: [CodingUserInfoKey: any Sendable] = [:]) {
    self.userInfo = userInfo
    encoder = JSONStreamValueEncoder(userInfo: userInfo)
  }

  /// Encodes `value` as compact JSON appended to `output`.
  ///
  /// - Returns: What the value's top level is.
  /// - Throws: The errors of ``RewindJSONEncoder/encode(_:)``; `output` is unchanged then.
  @discardableResult
  package func encode<T: Encodable>(_ value: T, into output: inout [UInt8]) throws -> TopLevel {
    let start = output.count
    if let topLevel = encoder.encodeTopLevel(value, into: &output) {
      return topLevel
    }
    // The stream gave up, or the value threw: the tree path decides, with the same bytes or the
    // same error.
    output.removeSubrange(start...)
    let tree = try RewindJSONEncoder(userInfo: userInfo).encodeValue(value)
    tree.write(into: &output)
    switch tree {
    case .object(let members) where members.count == 1: return .singleKeyObject(members[0].key)
    case .string(let text): return .string(text)
    default: return .other
    }
  }
}

/// Why the stream stopped: it cannot write this the way the ``JSONValue`` path would.
struct JSONStreamFallback: Error {}

/// The `Encoder` behind ``JSONStreamEncoder``: the frames of the open containers and the bytes
/// written so far. It is also its own single-value container
/// (`JSONStreamValueEncoder+SingleValue.swift`); the keyed and unkeyed containers are in
/// `JSONStreamContainers.swift`.
///
/// Its state lives behind a pointer held in a `let`, so that writing costs no exclusivity check.
final class JSONStreamValueEncoder: Encoder {
  /// An open array or object. Plain integers, so that reading one copies no references; its
  /// path is kept apart, in ``State/framePaths``.
  struct Frame {
    var id: Int
    var isObject: Bool
    var count: Int
    /// Where this object's keys start in ``State/keys``.
    var keyStart: Int
  }

  /// The path of an open container.
  struct FramePath {
    var path: JSONLazyPath
    /// ``path`` built, once something inside needs it.
    var built: CodingPath?
  }

  /// The value being written.
  struct Slot {
    /// Whether something (a scalar or a container) was written for it.
    var isFilled: Bool
    /// The frame opened for it, if a container was.
    var frameID: Int
    var path: JSONLazyPath
  }

  struct State {
    var output: [UInt8] = []
    var frames: [Frame] = []
    var framePaths: [FramePath] = []
    var keys: [String] = []
    var nextFrameID = 1
    var slot = Slot(isFilled: false, frameID: 0, path: JSONLazyPath(parent: .root, key: nil))
    /// Set when the stream cannot continue; a value that catches the fallback error does not
    /// hide it.
    var gaveUp = false
    var firstTopKey: String?
    var topString: String?
    /// The top level, when the tree encoded all of it.
    var treeTopLevel: JSONStreamEncoder.TopLevel?
    /// Which types have a ``JSONEncodingShortcut``, once asked.
    var shortcutTypes: [ObjectIdentifier: Bool] = [:]
  }

  let state: UnsafeMutablePointer<State>
  let options: [CodingUserInfoKey: any Sendable]

  init(userInfo: [CodingUserInfoKey: any Sendable]) {
    options = userInfo
    state = .allocate(capacity: 1)
    state.initialize(to: State())
  }

  deinit {
    state.deinitialize(count: 1)
    state.deallocate()
  }

  var codingPath: [any CodingKey] { state.pointee.slot.path.path.keys }
  var userInfo: [CodingUserInfoKey: Any] { options }

  /// Encodes a top-level value into `output`; `nil` when the stream gave up or the value threw.
  func encodeTopLevel<T: Encodable>(
    _ value: T, into output: inout [UInt8]
  ) -> JSONStreamEncoder.TopLevel? {
    swap(&state.pointee.output, &output)
    defer {
      swap(&state.pointee.output, &output)
      state.pointee.frames.removeAll(keepingCapacity: true)
      state.pointee.framePaths.removeAll(keepingCapacity: true)
      state.pointee.keys.removeAll(keepingCapacity: true)
    }
    state.pointee.gaveUp = false
    state.pointee.firstTopKey = nil
    state.pointee.topString = nil
    state.pointee.treeTopLevel = nil
    state.pointee.slot = Slot(
      isFilled: false, frameID: 0, path: JSONLazyPath(parent: .root, key: nil))
    do {
      try writeValue(value, isTopLevel: true)
    } catch {
      return nil
    }
    // A top-level value that wrote nothing is an error of the tree path.
    guard !state.pointee.gaveUp, state.pointee.slot.isFilled else { return nil }
    let topFrame = state.pointee.frames.first
    closeFrames(downTo: 0)
    if let topLevel = state.pointee.treeTopLevel { return topLevel }
    if let topFrame, topFrame.isObject, topFrame.count == 1, let key = state.pointee.firstTopKey {
      return .singleKeyObject(key)
    }
    if let text = state.pointee.topString { return .string(text) }
    return .other
  }

  // MARK: Writing

  /// Gives up: the tree path encodes the value instead.
  func giveUp() -> JSONStreamFallback {
    state.pointee.gaveUp = true
    return JSONStreamFallback()
  }

  /// Writes the closing brackets of the frames above `depth`.
  @inline(__always)
  func closeFrames(downTo depth: Int) {
    while state.pointee.frames.count > depth {
      let frame = state.pointee.frames.removeLast()
      state.pointee.framePaths.removeLast()
      let keyCount = state.pointee.keys.count
      if keyCount > frame.keyStart { state.pointee.keys.removeLast(keyCount - frame.keyStart) }
      state.pointee.output.append(frame.isObject ? .closeBrace : .closeBracket)
    }
  }

  /// The position of the open frame `id`, or `nil` when it was closed.
  func position(of id: Int) -> Int? {
    var position = state.pointee.frames.count - 1
    while position >= 0 && state.pointee.frames[position].id != id { position -= 1 }
    return position >= 0 ? position : nil
  }

  /// Makes the frame `id` the innermost open one, closing those opened after it.
  /// - Throws: ``JSONStreamFallback`` when it was closed already.
  @inline(__always)
  func reopen(_ id: Int) throws -> Int {
    var position = state.pointee.frames.count - 1
    while position >= 0 && state.pointee.frames[position].id != id { position -= 1 }
    guard position >= 0 else { throw giveUp() }
    closeFrames(downTo: position + 1)
    return position
  }

  /// The path of the frame at `position`, built once.
  func framePath(_ position: Int) -> CodingPath {
    if let built = state.pointee.framePaths[position].built { return built }
    let built = state.pointee.framePaths[position].path.path
    state.pointee.framePaths[position].built = built
    return built
  }

  /// Starts the next member of object frame `id` at `key`: its separator and key.
  /// - Returns: The frame's position.
  @inline(__always)
  @discardableResult
  func beginMember(of id: Int, key: some CodingKey) throws -> Int {
    let position = try reopen(id)
    let name = key.stringValue
    if state.pointee.frames[position].count > 0 {
      // Encoding a key again replaces its value in the tree; a stream cannot.
      for index in state.pointee.frames[position].keyStart..<state.pointee.keys.count
      where state.pointee.keys[index] == name {
        throw giveUp()
      }
      state.pointee.output.append(.comma)
    } else if position == 0 {
      state.pointee.firstTopKey = name
    }
    state.pointee.keys.append(name)
    state.pointee.frames[position].count += 1
    JSONWriter.appendString(name, to: &state.pointee.output)
    state.pointee.output.append(.colon)
    return position
  }

  /// Starts the next element of array frame `id`: its separator.
  /// - Returns: The frame's position and the element's index.
  @inline(__always)
  func beginElement(of id: Int) throws -> (position: Int, index: Int) {
    let position = try reopen(id)
    let index = state.pointee.frames[position].count
    if index > 0 { state.pointee.output.append(.comma) }
    state.pointee.frames[position].count += 1
    return (position, index)
  }

  /// Opens a container as the value being written: `{` or `[`.
  func openFrame(isObject: Bool, path: JSONLazyPath) -> Int {
    let id = state.pointee.nextFrameID
    state.pointee.nextFrameID += 1
    state.pointee.output.append(isObject ? .openBrace : .openBracket)
    state.pointee.frames.append(
      Frame(id: id, isObject: isObject, count: 0, keyStart: state.pointee.keys.count))
    state.pointee.framePaths.append(FramePath(path: path, built: nil))
    return id
  }

  /// Writes the value of a member or element just begun in the frame at `position`.
  @inline(__always)
  func writeValue<T: Encodable>(_ value: T, in position: Int, key: any CodingKey) throws {
    if T.self == String.self {
      JSONWriter.appendString(unsafeBitCast(value, to: String.self), to: &state.pointee.output)
    } else if T.self == Int.self {
      appendInteger(unsafeBitCast(value, to: Int.self))
    } else if T.self == Bool.self {
      appendLiteral(unsafeBitCast(value, to: Bool.self) ? "true" : "false")
    } else {
      try writeValue(value, path: JSONLazyPath(parent: framePath(position), key: key))
    }
  }

  /// Writes a value whose slot was just begun (after a key or separator).
  @inline(__always)
  func writeValue<T: Encodable>(
    _ value: T, path: JSONLazyPath, isTopLevel: Bool = false
  ) throws {
    if T.self == String.self {
      let text = unsafeBitCast(value, to: String.self)
      if isTopLevel { state.pointee.topString = text }
      JSONWriter.appendString(text, to: &state.pointee.output)
      if isTopLevel { state.pointee.slot.isFilled = true }
      return
    }
    if T.self == Int.self {
      appendInteger(unsafeBitCast(value, to: Int.self))
      if isTopLevel { state.pointee.slot.isFilled = true }
      return
    }
    if T.self == Bool.self {
      appendLiteral(unsafeBitCast(value, to: Bool.self) ? "true" : "false")
      if isTopLevel { state.pointee.slot.isFilled = true }
      return
    }
    if isShortcut(T.self) {
      try writeShortcut(value, path: path, isTopLevel: isTopLevel)
      return
    }
    let saved = state.pointee.slot
    let depth = state.pointee.frames.count
    state.pointee.slot = Slot(isFilled: false, frameID: 0, path: path)
    try value.encode(to: self)
    let wrote = state.pointee.slot.isFilled
    if !wrote && !isTopLevel {
      // A child that encodes nothing is `{}` in the tree.
      closeFrames(downTo: depth)
      appendLiteral("{}")
    }
    if isTopLevel {
      state.pointee.slot.isFilled = wrote
    } else {
      state.pointee.slot = saved
    }
  }

  /// Writes a top-level value.
  private func writeValue<T: Encodable>(_ value: T, isTopLevel: Bool) throws {
    try writeValue(value, path: JSONLazyPath(parent: .root, key: nil), isTopLevel: true)
  }

  /// Whether `T` has a ``JSONEncodingShortcut`` (asked once per type).
  @inline(__always)
  func isShortcut<T>(_ type: T.Type) -> Bool {
    let id = ObjectIdentifier(T.self)
    if let known = state.pointee.shortcutTypes[id] { return known }
    let answer = T.self is any JSONEncodingShortcut.Type
    state.pointee.shortcutTypes[id] = answer
    return answer
  }

  /// A shortcut type through the tree encoder, written in place. Out of line, so that its
  /// existential costs nothing on other paths.
  @inline(never)
  private func writeShortcut<T: Encodable>(
    _ value: T, path: JSONLazyPath, isTopLevel: Bool
  ) throws {
    guard let shortcut = value as? any JSONEncodingShortcut else { throw giveUp() }
    let tree = JSONEncoderImpl(options: options, path: path.path)
    let encoded = try shortcut.encodeJSON(with: tree, parent: path.parent, key: path.key)
    if isTopLevel {
      switch encoded {
      case .object(let members) where members.count == 1:
        state.pointee.treeTopLevel = .singleKeyObject(members[0].key)
      case .string(let text): state.pointee.treeTopLevel = .string(text)
      default: state.pointee.treeTopLevel = .other
      }
      state.pointee.slot.isFilled = true
    }
    encoded.write(into: &state.pointee.output)
  }

  @inline(__always)
  func appendLiteral(_ literal: StaticString) {
    literal.withUTF8Buffer { state.pointee.output.append(contentsOf: $0) }
  }

  /// Appends the decimal digits of `value`, as `String(value)` spells them.
  func appendInteger(_ value: Int64) {
    if value < 0 { state.pointee.output.append(.minus) }
    appendInteger(value.magnitude)
  }

  /// Appends the decimal digits of `value`, as `String(value)` spells them.
  func appendInteger(_ value: UInt64) {
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
    let count = DecimalDigits.count(value)
    withUnsafeMutableBytes(of: &digits) { buffer in
      guard let base = buffer.baseAddress else { return }
      DecimalDigits.write(value, count: count, to: base)
      state.pointee.output.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[..<count]))
    }
  }

  @inline(__always) func appendInteger(_ value: Int) { appendInteger(Int64(value)) }
  @inline(__always) func appendInteger(_ value: Int8) { appendInteger(Int64(value)) }
  @inline(__always) func appendInteger(_ value: Int16) { appendInteger(Int64(value)) }
  @inline(__always) func appendInteger(_ value: Int32) { appendInteger(Int64(value)) }
  @inline(__always) func appendInteger(_ value: UInt) { appendInteger(UInt64(value)) }
  @inline(__always) func appendInteger(_ value: UInt8) { appendInteger(UInt64(value)) }
  @inline(__always) func appendInteger(_ value: UInt16) { appendInteger(UInt64(value)) }
  @inline(__always) func appendInteger(_ value: UInt32) { appendInteger(UInt64(value)) }

  /// Appends a finite floating-point number as the tree writes it.
  /// - Throws: The tree's `EncodingError.invalidValue` for NaN and infinities, with the path
  ///   `path()` (built only then).
  func appendFloatingPoint<F: BinaryFloatingPoint & LosslessStringConvertible>(
    _ value: F, path: () -> JSONLazyPath
  ) throws {
    guard value.isFinite else {
      let path = path()
      _ = try JSONScalars.number(value, parent: path.parent, key: path.key)
      return
    }
    state.pointee.output.append(contentsOf: JSONNumberText.text(value).utf8)
  }

  // MARK: Encoder

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    KeyedEncodingContainer(
      JSONStreamKeyedContainer<Key>(encoder: self, frame: slotFrame(isObject: true)))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    JSONStreamUnkeyedContainer(encoder: self, frame: slotFrame(isObject: false))
  }

  func singleValueContainer() -> any SingleValueEncodingContainer { self }

  /// The frame of the current value's container: opened now, or the one opened for it before
  /// (the tree reuses it); `0`, which no frame has, when the value is something else already.
  private func slotFrame(isObject: Bool) -> Int {
    let slot = state.pointee.slot
    if !slot.isFilled {
      let id = openFrame(isObject: isObject, path: slot.path)
      state.pointee.slot.isFilled = true
      state.pointee.slot.frameID = id
      return id
    }
    if slot.frameID != 0,
      let position = position(of: slot.frameID),
      state.pointee.frames[position].isObject == isObject
    {
      return slot.frameID
    }
    state.pointee.gaveUp = true
    return 0
  }
}
