/// The encoder `superEncoder()` returns in ``JSONStreamValueEncoder``'s buffered mode: it writes
/// one member of a container, at any time the caller likes. Each use writes the member again,
/// replacing what was written for it; a member never written is `{}`.
final class JSONStreamSlotEncoder: Encoder {
  let encoder: JSONStreamValueEncoder
  private let parentID: Int
  private let memberKey: String
  private let path: JSONLazyPath

  init(encoder: JSONStreamValueEncoder, parentID: Int, memberKey: String, path: JSONLazyPath) {
    self.encoder = encoder
    self.parentID = parentID
    self.memberKey = memberKey
    self.path = path
  }

  var codingPath: [any CodingKey] { path.path.keys }
  var userInfo: [CodingUserInfoKey: Any] { encoder.userInfo }

  /// Runs `body` with the encoder's slot at this member, begun again; restores the slot it had.
  func withSlot<T>(_ body: () throws -> T) rethrows -> T {
    let saved = encoder.state.pointee.slot
    defer { encoder.state.pointee.slot = saved }
    encoder.state.pointee.slot = JSONStreamValueEncoder.Slot(
      isFilled: true, frameID: 0, path: path, parentID: parentID, memberKey: memberKey)
    encoder.restartSlot()
    return try body()
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    withSlot { encoder.container(keyedBy: type) }
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    withSlot { encoder.unkeyedContainer() }
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    JSONStreamSlotValueContainer(slot: self)
  }
}

/// The single-value container of a ``JSONStreamSlotEncoder``: each value replaces the member's.
/// The integer widths take the protocol's default route, through `encode<T>`.
struct JSONStreamSlotValueContainer: SingleValueEncodingContainer {
  let slot: JSONStreamSlotEncoder

  var codingPath: [any CodingKey] { slot.codingPath }

  mutating func encodeNil() throws { try slot.withSlot { try slot.encoder.encodeNil() } }
  mutating func encode(_ value: Bool) throws {
    try slot.withSlot { try slot.encoder.encode(value) }
  }
  mutating func encode(_ value: String) throws {
    try slot.withSlot { try slot.encoder.encode(value) }
  }
  mutating func encode(_ value: Double) throws {
    try slot.withSlot { try slot.encoder.encode(value) }
  }
  mutating func encode(_ value: Float) throws {
    try slot.withSlot { try slot.encoder.encode(value) }
  }
  mutating func encode<T: Encodable>(_ value: T) throws {
    try slot.withSlot { try slot.encoder.encode(value) }
  }
}
