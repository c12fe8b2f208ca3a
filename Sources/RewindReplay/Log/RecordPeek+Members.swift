import RewindJSON

/// Reading a record's `kind`, `seq`, `reason`, `type` and whether it has an `action` from a line in no known layout without building
/// its whole value: a line of a hand-written log, or a checkpoint with a large state, would
/// otherwise cost a `JSONValue` for every value in it when the log is opened (tens of bytes each,
/// 500 MB for a line of ten million numbers).
extension RecordPeek {
  /// The record members of `line` when it is valid JSON within `limits` with no duplicate key
  /// anywhere — exactly the lines ``JSONParser`` accepts — read by the validator and one pass
  /// that keeps only each object's key hashes; `nil` when the line is not such a text or a key
  /// may repeat, for the parser to give its exact verdict.
  static func shallow(
    _ line: UnsafeRawBufferPointer, limits: JSONLimits
  ) -> Swift.Result<RecordPeek, LogFault.Reason>? {
    var validator = JSONValidator(limits: limits)
    guard validator.isValid(line) else { return nil }
    var scan = MemberScan(line: line, limits: limits)
    guard let members = scan.topLevelMembers() else { return nil }
    guard let top = members.topLevel else { return nil }
    guard top == "object" else {
      return .failure(.invalidRecord("the line is a JSON \(top), not an object"))
    }
    guard let kindText = members.kind, let kind = Self.scalar(kindText)?.stringValue else {
      return .failure(.invalidRecord("no string \"kind\""))
    }
    var seq: Int?
    if let seqText = members.seq {
      guard let number = Self.scalar(seqText)?.intValue, number >= 0 else {
        return .failure(.invalidRecord("\"seq\" is not a non-negative integer"))
      }
      seq = number
    }
    let reason = members.reason.flatMap { Self.scalar($0)?.stringValue }
    let type = members.type.flatMap { Self.scalar($0)?.stringValue }
    return .success(
      RecordPeek(
        kind: kind, seq: seq, reason: reason, type: type, hasAction: members.action != nil))
  }

  /// The value of a member's text when it is a scalar (a container is never a string or a
  /// number, and is not built).
  private static func scalar(_ text: UnsafeRawBufferPointer) -> JSONValue? {
    guard let first = text.first, first != UInt8(ascii: "["), first != UInt8(ascii: "{") else {
      return nil
    }
    return try? JSONParser.parse(text)
  }
}

/// One pass over a valid JSON text: what its top level is, the texts of the top-level members
/// `kind`, `seq`, `reason`, `type` and `action`, and whether any object may repeat a key (by hash: a repeat of a
/// hash sends the line to the parser, which tells a real duplicate from a collision).
private struct MemberScan {
  /// What ``topLevelMembers()`` finds.
  struct Members {
    /// The top-level value's kind, as `JSONValue.kindName` names it.
    var topLevel: String?
    /// The text of the top-level member `kind`'s value, if there is one.
    var kind: UnsafeRawBufferPointer?
    /// The text of `seq`'s value.
    var seq: UnsafeRawBufferPointer?
    /// The text of `reason`'s value.
    var reason: UnsafeRawBufferPointer?
    /// The text of `type`'s value.
    var type: UnsafeRawBufferPointer?
    /// The text of `action`'s value.
    var action: UnsafeRawBufferPointer?
  }

  /// An open container.
  private struct Frame {
    /// An object, else an array.
    var isObject: Bool
    /// In an object: whether the next string is a key.
    var expectsKey: Bool
    /// In an object: the hashes of its keys so far.
    var keys: Set<Int>
  }

  /// The text, valid JSON.
  let line: UnsafeRawBufferPointer
  /// The limits it was validated with (for reading its strings).
  let limits: JSONLimits

  /// The members, or `nil` when a key may repeat (or a key's text cannot be read).
  mutating func topLevelMembers() -> Members? {
    var members = Members()
    var frames: [Frame] = []
    /// At depth 1, the member whose value is being read, and where that value starts.
    var wanted: WritableKeyPath<Members, UnsafeRawBufferPointer?>?
    var valueStart = 0
    var i = 0
    func finishValue(at end: Int) {
      guard let path = wanted else { return }
      var last = end
      while last > valueStart, Self.isWhitespace(line[last - 1]) { last -= 1 }
      members[keyPath: path] = UnsafeRawBufferPointer(rebasing: line[valueStart..<last])
      wanted = nil
    }
    while i < line.count {
      let byte = line[i]
      switch byte {
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        if frames.isEmpty { members.topLevel = byte == UInt8(ascii: "{") ? "object" : "array" }
        frames.append(Frame(isObject: byte == UInt8(ascii: "{"), expectsKey: true, keys: []))
        i += 1
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        if frames.count == 1 { finishValue(at: i) }
        frames.removeLast()
        i += 1
      case UInt8(ascii: ","):
        if frames.count == 1 { finishValue(at: i) }
        if let last = frames.indices.last, frames[last].isObject { frames[last].expectsKey = true }
        i += 1
      case UInt8(ascii: "\""):
        guard let (end, isEscaped) = JSONScan.string(in: line, at: i, limits: limits) else {
          return nil
        }
        if frames.isEmpty { members.topLevel = "string" }
        if let last = frames.indices.last, frames[last].isObject, frames[last].expectsKey {
          frames[last].expectsKey = false
          guard let name = keyText(i..<end, isEscaped: isEscaped) else { return nil }
          // Keys compare as Swift strings (canonically equivalent ones are equal), as the
          // parser compares them; so do their hashes.
          guard frames[last].keys.insert(name.hashValue).inserted else { return nil }
          if frames.count == 1 {
            switch name {
            case "kind": wanted = \.kind
            case "seq": wanted = \.seq
            case "reason": wanted = \.reason
            case "type": wanted = \.type
            case "action": wanted = \.action
            default: wanted = nil
            }
            // The value starts after the colon and any whitespace.
            var next = end
            while next < line.count, line[next] != UInt8(ascii: ":") { next += 1 }
            next += 1
            while next < line.count, Self.isWhitespace(line[next]) { next += 1 }
            valueStart = next
            i = next
            continue
          }
        }
        i = end
      default:
        if frames.isEmpty, members.topLevel == nil, !Self.isWhitespace(byte) {
          switch byte {
          case UInt8(ascii: "t"), UInt8(ascii: "f"): members.topLevel = "boolean"
          case UInt8(ascii: "n"): members.topLevel = "null"
          default: members.topLevel = "number"
          }
        }
        i += 1
      }
    }
    return members
  }

  /// A key (`range` is its quoted text), unescaped.
  private func keyText(_ range: Range<Int>, isEscaped: Bool) -> String? {
    guard isEscaped else {
      return String(
        decoding: UnsafeRawBufferPointer(
          rebasing: line[(range.lowerBound + 1)..<(range.upperBound - 1)]),
        as: UTF8.self)
    }
    return (try? JSONParser.parse(UnsafeRawBufferPointer(rebasing: line[range])))?.stringValue
  }

  private static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }
}
