/// The encoder `superEncoder()` returns in ``JSONStreamValueEncoder``: it writes one member of a
/// container, whose key (or separator) was written when it was made.
///
/// In a single pass it writes the member where it stands, once, provided nothing else was
/// written to the container since — `try value.encode(to: container.superEncoder(forKey: key))`,
/// the way synthesized and hand-written `Codable` use it; the container moving on first makes
/// the member `{}`. Using it later than that, or again, gives up the pass: in the buffered mode it
/// may write at any time the caller likes, and each use writes the member again, replacing what
/// was written for it. A member never written is `{}`.
final class JSONStreamSlotEncoder: Encoder {
  let encoder: JSONStreamValueEncoder
  private let parentID: Int
  private let memberKey: String
  private let path: JSONLazyPath
  /// A single pass: which waiting member is this one's
  /// (``JSONStreamValueEncoder/awaitSuperMember()``); 0 in the buffered mode.
  private let token: Int

  init(encoder: JSONStreamValueEncoder, parentID: Int, memberKey: String, path: JSONLazyPath) {
    self.encoder = encoder
    self.parentID = parentID
    self.memberKey = memberKey
    self.path = path
    token = encoder.state.pointee.buffer == nil ? encoder.awaitSuperMember() : 0
  }

  var codingPath: [any CodingKey] { path.path.keys }
  var userInfo: [CodingUserInfoKey: Any] { encoder.userInfo }

  /// Runs `body` with the encoder's slot at this member, begun again; restores the slot it had.
  /// A single pass gives up (and `body` does not run) when the member cannot be written here.
  /// - Returns: `body`'s result, or `nil` when the pass gave up.
  /// - Throws: `body`'s error.
  func withSlot<T>(_ body: () throws -> T) rethrows -> T? {
    let saved = encoder.state.pointee.slot
    defer { encoder.state.pointee.slot = saved }
    guard encoder.state.pointee.buffer == nil else {
      encoder.state.pointee.slot = JSONStreamValueEncoder.Slot(
        isFilled: true, frameID: 0, path: path, parentID: parentID, memberKey: memberKey)
      encoder.restartSlot()
      return try body()
    }
    // A single pass: the first use writes where the member waits, if it still does.
    guard encoder.takeSuperMember(token) else {
      encoder.state.pointee.gaveUp = true
      return nil
    }
    encoder.state.pointee.slot = JSONStreamValueEncoder.Slot(
      isFilled: false, frameID: 0, path: path)
    return try body()
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    withSlot { encoder.container(keyedBy: type) }
      ?? KeyedEncodingContainer(JSONStreamKeyedContainer<Key>(encoder: encoder, frame: 0))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    withSlot { encoder.unkeyedContainer() }
      ?? JSONStreamUnkeyedContainer(encoder: encoder, frame: 0)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    JSONStreamSlotValueContainer(slot: self)
  }

  /// Writes a single value in this member.
  /// - Throws: ``JSONStreamFallback`` when a single pass cannot write it here; the value's error.
  func writeSingle(_ write: () throws -> Void) throws {
    guard (try withSlot(write)) != nil else { throw encoder.giveUp() }
  }
}

/// The single-value container of a ``JSONStreamSlotEncoder``: each value replaces the member's.
/// The integer widths take the protocol's default route, through `encode<T>`.
struct JSONStreamSlotValueContainer: SingleValueEncodingContainer {
  let slot: JSONStreamSlotEncoder

  var codingPath: [any CodingKey] { slot.codingPath }

  mutating func encodeNil() throws { try slot.writeSingle { try slot.encoder.encodeNil() } }
  mutating func encode(_ value: Bool) throws {
    try slot.writeSingle { try slot.encoder.encode(value) }
  }
  mutating func encode(_ value: String) throws {
    try slot.writeSingle { try slot.encoder.encode(value) }
  }
  mutating func encode(_ value: Double) throws {
    try slot.writeSingle { try slot.encoder.encode(value) }
  }
  mutating func encode(_ value: Float) throws {
    try slot.writeSingle { try slot.encoder.encode(value) }
  }
  mutating func encode<T: Encodable>(_ value: T) throws {
    try slot.writeSingle { try slot.encoder.encode(value) }
  }
}
