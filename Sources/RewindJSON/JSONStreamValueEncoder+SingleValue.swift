/// The single-value container of ``JSONStreamValueEncoder``: scalars are written in place; any
/// other value fills the current slot through its own `encode(to:)`.
extension JSONStreamValueEncoder: SingleValueEncodingContainer {
  /// Starts writing the single value of the current slot; writing it again replaces it (in the
  /// buffered mode: a single pass gives up).
  @inline(__always)
  fileprivate func beginSingleValue() throws {
    if state.pointee.slot.isFilled {
      guard state.pointee.buffer != nil else { throw giveUp() }
      restartSlot()
    } else if let buffer = state.pointee.buffer {
      buffer.activate(state.pointee.slot.parentID, output: &state.pointee.output)
    }
    state.pointee.slot.isFilled = true
  }

  func encodeNil() throws {
    try beginSingleValue()
    appendLiteral("null")
  }
  func encode(_ value: Bool) throws {
    try beginSingleValue()
    appendLiteral(value ? "true" : "false")
  }
  func encode(_ value: String) throws {
    try beginSingleValue()
    if isTopLevelSlot { state.pointee.topString = value }
    JSONWriter.appendString(value, to: &state.pointee.output)
  }
  func encode(_ value: Double) throws {
    try beginSingleValue()
    try appendFloatingPoint(value) { state.pointee.slot.path }
  }
  func encode(_ value: Float) throws {
    try beginSingleValue()
    try appendFloatingPoint(value) { state.pointee.slot.path }
  }
  func encode(_ value: Int) throws {
    try beginSingleValue()
    appendInteger(value)
  }
  func encode(_ value: Int8) throws {
    try beginSingleValue()
    appendInteger(value)
  }
  func encode(_ value: Int16) throws {
    try beginSingleValue()
    appendInteger(value)
  }
  func encode(_ value: Int32) throws {
    try beginSingleValue()
    appendInteger(value)
  }
  func encode(_ value: Int64) throws {
    try beginSingleValue()
    appendInteger(value)
  }
  func encode(_ value: UInt) throws {
    try beginSingleValue()
    appendInteger(value)
  }
  func encode(_ value: UInt8) throws {
    try beginSingleValue()
    appendInteger(value)
  }
  func encode(_ value: UInt16) throws {
    try beginSingleValue()
    appendInteger(value)
  }
  func encode(_ value: UInt32) throws {
    try beginSingleValue()
    appendInteger(value)
  }
  func encode(_ value: UInt64) throws {
    try beginSingleValue()
    appendInteger(value)
  }

  func encode<T: Encodable>(_ value: T) throws {
    if state.pointee.slot.isFilled {
      guard state.pointee.buffer != nil else { throw giveUp() }
      restartSlot()
    }
    let path = state.pointee.slot.path
    let isTop = isTopLevelSlot
    // The value fills this same slot, as `encodeChild` with no key does in the tree.
    if T.self == String.self || T.self == Int.self || T.self == Bool.self || isSpecial(T.self) {
      state.pointee.slot.isFilled = true
      try writeValue(value, path: path, isTopLevel: isTop)
      return
    }
    let depth = state.pointee.frames.count
    try value.encode(to: self)
    if !state.pointee.slot.isFilled {
      // Nothing written is `{}` (the buffered mode writes it so at the end).
      if state.pointee.buffer == nil {
        closeFrames(downTo: depth)
        appendLiteral("{}")
      }
      state.pointee.slot.isFilled = true
    }
  }

  /// Whether the current slot is the top-level value.
  fileprivate var isTopLevelSlot: Bool {
    state.pointee.frames.isEmpty && state.pointee.slot.path.key == nil
      && state.pointee.slot.path.parent.isRoot
  }
}
