/// A value that a container handed out before it was filled: a nested container or a super
/// encoder. Its final value is read when the enclosing value is finished.
enum PendingJSONValue {
  case object(JSONObjectBuilder)
  case array(JSONArrayBuilder)
  case encoder(JSONEncoderImpl)

  func finish() -> JSONValue {
    switch self {
    case .object(let object): return object.finish()
    case .array(let array): return array.finish()
    case .encoder(let encoder): return encoder.storage.finish() ?? .object([])
    }
  }
}

/// An object being encoded. Members keep the order of their first encoding; encoding a key again
/// replaces its value in place, as Foundation's encoder does.
final class JSONObjectBuilder {
  private var members: [JSONMember] = []
  private var pending: [(position: Int, value: PendingJSONValue)] = []
  /// Key positions, built once the object outgrows a linear search.
  private var positions: [String: Int]?

  private static let linearSearchLimit = 8

  /// Sets the value for `key`.
  @discardableResult
  func set(_ value: JSONValue, forKey key: String) -> Int {
    if let position = position(of: key) {
      members[position].value = value
      if !pending.isEmpty {
        pending.removeAll { $0.position == position }
      }
      return position
    }
    let position = members.count
    if position == 0 {
      members.reserveCapacity(8)
    }
    members.append(JSONMember(key, value))
    if positions != nil {
      positions?[key] = position
    } else if members.count > Self.linearSearchLimit {
      var index = [String: Int](minimumCapacity: members.count * 2)
      for (position, member) in members.enumerated() {
        index[member.key] = position
      }
      positions = index
    }
    return position
  }

  /// Reserves `key` for a value that is filled in later.
  func setPending(_ value: PendingJSONValue, forKey key: String) {
    let position = set(.null, forKey: key)
    pending.append((position, value))
  }

  /// The nested object at `key`, reusing the one already there.
  func nestedObject(forKey key: String) -> JSONObjectBuilder {
    if let position = position(of: key),
      case .object(let existing)? = pending.last(where: { $0.position == position })?.value
    {
      return existing
    }
    let object = JSONObjectBuilder()
    setPending(.object(object), forKey: key)
    return object
  }

  /// The nested array at `key`, reusing the one already there.
  func nestedArray(forKey key: String) -> JSONArrayBuilder {
    if let position = position(of: key),
      case .array(let existing)? = pending.last(where: { $0.position == position })?.value
    {
      return existing
    }
    let array = JSONArrayBuilder()
    setPending(.array(array), forKey: key)
    return array
  }

  private func position(of key: String) -> Int? {
    if let positions {
      return positions[key]
    }
    for position in members.indices where members[position].key == key {
      return position
    }
    return nil
  }

  func finish() -> JSONValue {
    guard !pending.isEmpty else { return .object(members) }
    var result = members
    for (position, value) in pending {
      result[position].value = value.finish()
    }
    return .object(result)
  }
}

/// An array being encoded.
final class JSONArrayBuilder {
  private var elements: [JSONValue] = []
  private var pending: [(position: Int, value: PendingJSONValue)] = []

  var count: Int { elements.count }

  func append(_ value: JSONValue) {
    elements.append(value)
  }

  /// Reserves the next position for a value that is filled in later.
  func appendPending(_ value: PendingJSONValue) {
    pending.append((elements.count, value))
    elements.append(.null)
  }

  func finish() -> JSONValue {
    guard !pending.isEmpty else { return .array(elements) }
    var result = elements
    for (position, value) in pending {
      result[position] = value.finish()
    }
    return .array(result)
  }
}

/// What an encoder has been given so far.
enum JSONEncoderStorage {
  case empty
  case value(JSONValue)
  case object(JSONObjectBuilder)
  case array(JSONArrayBuilder)

  /// The finished value, or `nil` when nothing was encoded.
  func finish() -> JSONValue? {
    switch self {
    case .empty: return nil
    case .value(let value): return value
    case .object(let object): return object.finish()
    case .array(let array): return array.finish()
    }
  }
}
