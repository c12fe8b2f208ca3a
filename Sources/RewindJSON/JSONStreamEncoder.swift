import Foundation

/// Encodes `Encodable` values straight into compact JSON bytes: the one `Encoder` behind
/// ``RewindJSONEncoder`` (bytes, and ``JSONValue``s parsed from them) and the recorder.
///
/// Values are written as they are encoded, in one pass. A super encoder stays in the pass when it
/// writes its member before anything else is written to its container (as
/// `try value.encode(to: container.superEncoder(forKey: key))` does); a member it never writes is
/// `{}`. What one pass cannot write — a container written to after a later sibling, a key encoded
/// twice, a super encoder used after its container moved on, a single value written twice —
/// makes the stream encode the value again in its buffered mode (``JSONStreamBuffer``), which
/// keeps each container apart and puts them together at the end (``JSONStreamFallbackCounter``
/// counts these, for tests and the benchmarks); dictionaries and sets are always encoded that
/// way, so that their entries can be sorted.
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
  let encoder: JSONStreamValueEncoder
  /// What ``encode(_:appendingTo:)`` encodes into, kept from one value to the next.
  private var scratch: [UInt8] = []

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
    do {
      return try encoder.encodeTopLevel(value, into: &output)
    } catch {
      output.removeSubrange(start...)
      throw error
    }
  }

  /// Encodes `value` as compact JSON appended to `output`, through a buffer of its own kept from
  /// one value to the next (no allocation once it is large enough).
  ///
  /// - Returns: What the value's top level is.
  /// - Throws: As ``encode(_:into:)``; `output` is unchanged then.
  package func encode<T: Encodable>(_ value: T, appendingTo output: ByteBuffer) throws -> TopLevel {
    scratch.removeAll(keepingCapacity: true)
    let topLevel = try encode(value, into: &scratch)
    output.append(scratch)
    return topLevel
  }
}

/// Why a single pass stopped: it cannot write this in order; the buffered mode can.
struct JSONStreamFallback: Error {}

/// The `Encoder` behind ``JSONStreamEncoder``: the frames of the open containers and the bytes
/// written so far. It is also its own single-value container
/// (`JSONStreamValueEncoder+SingleValue.swift`); the keyed and unkeyed containers are in
/// `JSONStreamContainers.swift`, a top-level value's encoding (one pass, else the buffered mode)
/// in `JSONStreamValueEncoder+TopLevel.swift`, numbers in `JSONStreamValueEncoder+Numbers.swift`.
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
    /// Buffered mode: the container it is a member of, and its key there, so that writing it
    /// again replaces it.
    var parentID = JSONStreamBuffer.rootID
    var memberKey = ""
  }

  struct State {
    var output: [UInt8] = []
    var frames: [Frame] = []
    var framePaths: [FramePath] = []
    var keys: [String] = []
    var nextFrameID = 1
    var slot = Slot(isFilled: false, frameID: 0, path: JSONLazyPath(parent: .root, key: nil))
    /// Set when a single pass cannot continue; a value that catches the fallback error does not
    /// hide it.
    var gaveUp = false
    /// A single pass: where the value of the member a super encoder was made for goes (its key is
    /// written, its value not yet); -1 when no member waits for one.
    var superValueStart = -1
    /// The super encoder whose member waits (``JSONStreamSlotEncoder/token``).
    var superToken = 0
    /// The token of the next super encoder.
    var nextSuperToken = 1
    var firstTopKey: String?
    var topString: String?
    /// Set when the top-level value was written whole by a ``JSONStreamSpecialEncoding`` type.
    var topIsSpecial = false
    /// Which types have a ``JSONStreamSpecialEncoding``, once asked.
    var specialTypes: [ObjectIdentifier: Bool] = [:]
    /// The buffered mode's containers; `nil` in a single pass.
    var buffer: JSONStreamBuffer?
    /// The encoder that writes dictionaries and sets, once one was.
    var sorter: JSONStreamValueEncoder?
    /// Containers and elements to write before ``JSONStreamValueEncoder/pause`` is called
    /// (never reached without one).
    var untilPause = Int.max
  }

  let state: UnsafeMutablePointer<State>
  let options: [CodingUserInfoKey: any Sendable]
  /// Called after about every ``pauseEvery`` containers and elements
  /// (``JSONStreamEncoder/pausing(every:_:)``).
  var pause: (() -> Void)?
  var pauseEvery = Int.max
  /// The types asked about last and the answers, ``recentSpecialCount`` slots picked by the
  /// type's address: each is the address with its low bit set when the type is special, or 0.
  /// Most values are of a few types asked about again and again (an app's action types, one
  /// value after another), which spares hashing them.
  private let recentSpecial: UnsafeMutablePointer<UInt>
  private static let recentSpecialCount = 8

  init(userInfo: [CodingUserInfoKey: any Sendable]) {
    options = userInfo
    state = .allocate(capacity: 1)
    state.initialize(to: State())
    recentSpecial = .allocate(capacity: Self.recentSpecialCount)
    recentSpecial.initialize(repeating: 0, count: Self.recentSpecialCount)
  }

  deinit {
    state.deinitialize(count: 1)
    state.deallocate()
    recentSpecial.deallocate()
  }

  var codingPath: [any CodingKey] { state.pointee.slot.path.path.keys }
  var userInfo: [CodingUserInfoKey: Any] { options }

  // MARK: Writing

  /// Gives up a single pass: the value is encoded again in the buffered mode.
  func giveUp() -> JSONStreamFallback {
    state.pointee.gaveUp = true
    return JSONStreamFallback()
  }

  /// Writes the closing brackets of the frames above `depth` (a single pass only: the buffered
  /// mode closes nothing until the end).
  @inline(__always)
  func closeFrames(downTo depth: Int) {
    guard state.pointee.buffer == nil else { return }
    if state.pointee.superValueStart >= 0 { settleSuperMember() }
    while state.pointee.frames.count > depth {
      let frame = state.pointee.frames.removeLast()
      state.pointee.framePaths.removeLast()
      // One at a time: `removeLast(_:)` goes through the generic `replaceSubrange`, which cost
      // more than the few keys an object has.
      while state.pointee.keys.count > frame.keyStart { state.pointee.keys.removeLast() }
      state.pointee.output.append(frame.isObject ? .closeBrace : .closeBracket)
    }
  }

  /// The position of the frame `id`, or `nil` when it was closed.
  func position(of id: Int) -> Int? {
    if let buffer = state.pointee.buffer { return buffer.positions[id] }
    var position = state.pointee.frames.count - 1
    while position >= 0 && state.pointee.frames[position].id != id { position -= 1 }
    return position >= 0 ? position : nil
  }

  /// Makes the frame `id` the one written to: in a single pass, the innermost open one, closing
  /// those opened after it.
  /// - Throws: ``JSONStreamFallback`` when a single pass closed it already.
  @inline(__always)
  func reopen(_ id: Int) throws -> Int {
    if let buffer = state.pointee.buffer {
      guard let position = buffer.positions[id] else { throw giveUp() }
      buffer.activate(id, output: &state.pointee.output)
      return position
    }
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
    if let buffer = state.pointee.buffer {
      buffer.beginMember(name, outputCount: state.pointee.output.count)
      state.pointee.frames[position].count += 1
      return position
    }
    if state.pointee.superValueStart >= 0 { settleSuperMember() }
    if state.pointee.frames[position].count > 0 {
      // Encoding a key again replaces its value; a single pass cannot.
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
    countTowardsPause()
    let position = try reopen(id)
    let index = state.pointee.frames[position].count
    if let buffer = state.pointee.buffer {
      buffer.beginMember(String(index), outputCount: state.pointee.output.count)
    } else {
      if state.pointee.superValueStart >= 0 { settleSuperMember() }
      if index > 0 { state.pointee.output.append(.comma) }
    }
    state.pointee.frames[position].count += 1
    return (position, index)
  }

  // MARK: Super encoders in a single pass

  /// A single pass: notes that the member just begun (its key or separator written) is a super
  /// encoder's, whose value comes when the super encoder is used.
  /// - Returns: The super encoder's token.
  func awaitSuperMember() -> Int {
    let token = state.pointee.nextSuperToken
    state.pointee.nextSuperToken += 1
    state.pointee.superToken = token
    state.pointee.superValueStart = state.pointee.output.count
    return token
  }

  /// A single pass: the super encoder `token` is about to write its member's value; whether it
  /// can, here and now — its member is the one waiting, and nothing was written since.
  func takeSuperMember(_ token: Int) -> Bool {
    guard state.pointee.superValueStart >= 0, state.pointee.superToken == token,
      state.pointee.output.count == state.pointee.superValueStart
    else { return false }
    state.pointee.superValueStart = -1
    return true
  }

  /// A single pass moves on from a super encoder's member that is still waiting for its value:
  /// it is `{}`, as the buffered mode writes a member never written. Using that super encoder
  /// later gives up the pass.
  @inline(never)
  func settleSuperMember() {
    if state.pointee.output.count == state.pointee.superValueStart {
      appendLiteral("{}")
    } else {
      // Something was written where the member's value goes, not by its super encoder.
      state.pointee.gaveUp = true
    }
    state.pointee.superValueStart = -1
  }

  /// Opens a container as the value being written: `{` or `[`.
  func openFrame(isObject: Bool, path: JSONLazyPath) -> Int {
    countTowardsPause()
    let id = state.pointee.nextFrameID
    state.pointee.nextFrameID += 1
    if let buffer = state.pointee.buffer {
      buffer.positions[id] = state.pointee.frames.count
      buffer.open(id, isObject: isObject, output: &state.pointee.output)
    } else {
      state.pointee.output.append(isObject ? .openBrace : .openBracket)
    }
    state.pointee.frames.append(
      Frame(id: id, isObject: isObject, count: 0, keyStart: state.pointee.keys.count))
    state.pointee.framePaths.append(FramePath(path: path, built: nil))
    return id
  }

  /// Buffered mode: writes the current slot again — a new member with its key in its container,
  /// which replaces what was written for it.
  func restartSlot() {
    guard let buffer = state.pointee.buffer else { return }
    buffer.activate(state.pointee.slot.parentID, output: &state.pointee.output)
    buffer.beginMember(state.pointee.slot.memberKey, outputCount: state.pointee.output.count)
    state.pointee.slot.isFilled = false
    state.pointee.slot.frameID = 0
  }

  /// Buffered mode: ties the slot just begun to its member, so that it can be written again.
  @inline(__always)
  func bindSlot() {
    guard let buffer = state.pointee.buffer,
      let key = buffer.segments[buffer.active]?.members.last?.key
    else { return }
    state.pointee.slot.parentID = buffer.active
    state.pointee.slot.memberKey = key
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
    if isSpecial(T.self) {
      try writeSpecial(value, path: path)
      if isTopLevel {
        state.pointee.slot.isFilled = true
        state.pointee.topIsSpecial = true
      }
      return
    }
    let saved = state.pointee.slot
    let depth = state.pointee.frames.count
    state.pointee.slot = Slot(isFilled: false, frameID: 0, path: path)
    if state.pointee.buffer != nil { bindSlot() }
    try value.encode(to: self)
    let wrote = state.pointee.slot.isFilled
    if !wrote && !isTopLevel && state.pointee.buffer == nil {
      // A child that encodes nothing is `{}` (the buffered mode writes it so at the end).
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
  func writeValue<T: Encodable>(_ value: T, isTopLevel: Bool) throws {
    try writeValue(value, path: JSONLazyPath(parent: .root, key: nil), isTopLevel: true)
  }

  /// Whether `T` has a ``JSONStreamSpecialEncoding`` (asked once per type).
  @inline(__always)
  func isSpecial<T>(_ type: T.Type) -> Bool {
    let id = ObjectIdentifier(T.self)
    // A type's metadata is word-aligned: its address's low bit is free for the answer.
    let address = UInt(bitPattern: id)
    let slot =
      Int(truncatingIfNeeded: (address >> 4) ^ (address >> 9)) & (Self.recentSpecialCount - 1)
    let recent = recentSpecial[slot]
    if recent & ~1 == address { return recent & 1 != 0 }
    let answer: Bool
    if let known = state.pointee.specialTypes[id] {
      answer = known
    } else {
      answer = T.self is any JSONStreamSpecialEncoding.Type
      state.pointee.specialTypes[id] = answer
    }
    recentSpecial[slot] = address | (answer ? 1 : 0)
    return answer
  }

  /// A type with its own way of being written. Out of line, so that its existential costs
  /// nothing on other paths.
  @inline(never)
  private func writeSpecial<T: Encodable>(_ value: T, path: JSONLazyPath) throws {
    guard let special = value as? any JSONStreamSpecialEncoding else { throw giveUp() }
    try special.writeJSON(to: self, path: path)
  }

  /// Writes `value` with its container's entries sorted (dictionaries and sets), through the
  /// buffered mode of a second encoder.
  func writeSorted<T: Encodable>(
    _ value: T, order: JSONStreamBuffer.Order, path: JSONLazyPath
  ) throws {
    let sorter: JSONStreamValueEncoder
    if let existing = state.pointee.sorter {
      sorter = existing
    } else {
      sorter = JSONStreamValueEncoder(userInfo: options)
      state.pointee.sorter = sorter
    }
    _ = try sorter.encodeBuffered(value, order: order, path: path, into: &state.pointee.output)
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
  /// (which it reuses); when the value is something else already, a new one that replaces it in
  /// the buffered mode, and `0` (no frame) in a single pass, which gives up.
  private func slotFrame(isObject: Bool) -> Int {
    let slot = state.pointee.slot
    if slot.isFilled, slot.frameID != 0, let position = position(of: slot.frameID),
      state.pointee.frames[position].isObject == isObject
    {
      if let buffer = state.pointee.buffer {
        buffer.activate(slot.frameID, output: &state.pointee.output)
      }
      return slot.frameID
    }
    if slot.isFilled && state.pointee.buffer != nil { restartSlot() }
    if !state.pointee.slot.isFilled {
      let id = openFrame(isObject: isObject, path: state.pointee.slot.path)
      state.pointee.slot.isFilled = true
      state.pointee.slot.frameID = id
      return id
    }
    state.pointee.gaveUp = true
    return 0
  }
}
