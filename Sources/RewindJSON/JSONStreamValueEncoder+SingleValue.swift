/// The single-value container of ``JSONStreamValueEncoder``: scalars are written in place; any
/// other value fills the current slot through its own `encode(to:)`.
extension JSONStreamValueEncoder: SingleValueEncodingContainer {
  /// Starts writing the single value of the current slot.
  @inline(__always)
  fileprivate func beginSingleValue() throws {
    guard !state.pointee.slot.isFilled else { throw giveUp() }
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
    guard !state.pointee.slot.isFilled else { throw giveUp() }
    let path = state.pointee.slot.path
    let isTop = isTopLevelSlot
    // The value fills this same slot, as `encodeChild` with no key does in the tree.
    if T.self == String.self || T.self == Int.self || T.self == Bool.self || isShortcut(T.self) {
      state.pointee.slot.isFilled = true
      try writeValue(value, path: path, isTopLevel: isTop)
      return
    }
    let depth = state.pointee.frames.count
    try value.encode(to: self)
    if !state.pointee.slot.isFilled {
      closeFrames(downTo: depth)
      appendLiteral("{}")
      state.pointee.slot.isFilled = true
    }
  }

  /// Whether the current slot is the top-level value.
  fileprivate var isTopLevelSlot: Bool {
    state.pointee.frames.isEmpty && state.pointee.slot.path.key == nil
      && state.pointee.slot.path.parent.isRoot
  }
}
