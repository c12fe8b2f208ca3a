import RewindJSON

/// A hash of a JSON value (a tree or its text) consistent with `==`: equal values have equal
/// fingerprints, whatever their text.
///
/// Object members are combined in an order-independent way, because `JSONValue` compares objects
/// by key whatever their member order. Fingerprints let array alignment compare elements with
/// one integer comparison, confirming matches with `==`. They are seeded per process (like
/// `Hasher`) and must not be stored.
enum JSONFingerprint {
  /// The fingerprint of `node`.
  ///
  /// - Complexity: O(*n*) for a value with *n* nodes.
  static func of<Node: JSONDiffNode>(_ node: Node) -> Int {
    var hasher = Hasher()
    combine(node, into: &hasher)
    return hasher.finalize()
  }

  private static func combine<Node: JSONDiffNode>(_ node: Node, into hasher: inout Hasher) {
    switch node.shape {
    case .scalar:
      switch node.value {
      case .null:
        hasher.combine(0 as UInt8)
      case .bool(let flag):
        hasher.combine(1 as UInt8)
        hasher.combine(flag)
      case .number(let literal):
        hasher.combine(2 as UInt8)
        hasher.combine(literal)
      case .string(let text):
        hasher.combine(3 as UInt8)
        hasher.combine(text)
      case .array, .object:
        break
      }
    case .array(let elements):
      hasher.combine(4 as UInt8)
      hasher.combine(elements.count)
      for element in elements { combine(element, into: &hasher) }
    case .object(let members):
      hasher.combine(5 as UInt8)
      hasher.combine(members.count)
      var sum = 0
      for member in members {
        var memberHasher = Hasher()
        memberHasher.combine(member.key)
        combine(member.value, into: &memberHasher)
        sum &+= memberHasher.finalize()
      }
      hasher.combine(sum)
    }
  }
}

extension JSONFingerprint {
  /// The fingerprint of the value whose text starts at `start` of `bytes`, a text checked
  /// before: computed from the text without building anything (no key or string is made, no
  /// member list), consistent with ``JSONTextNode/isEqual(to:)`` — a string or a key hashes
  /// the UTF-8 of its unescaped content (its raw bytes when it has no escape), a number its
  /// literal, an object's members combined whatever their order.
  ///
  /// Only fingerprints made this way are compared with each other (both sides of a text diff);
  /// they differ from ``of(_:)``'s.
  /// - Complexity: O(*n*) in the value's text.
  static func of(textAt start: Int, in bytes: UnsafeRawBufferPointer) -> Int {
    var hasher = Hasher()
    combine(textAt: start, in: bytes, into: &hasher)
    return hasher.finalize()
  }

  private static func combine(
    textAt start: Int, in bytes: UnsafeRawBufferPointer, into hasher: inout Hasher
  ) {
    switch bytes[start] {
    case UInt8(ascii: "{"):
      hasher.combine(5 as UInt8)
      var count = 0
      var sum = 0
      JSONScan.forEachChild(ofContainerAt: start, in: bytes) { key, value in
        var memberHasher = Hasher()
        if let key { combineString(key, in: bytes, into: &memberHasher) }
        combine(textAt: value.lowerBound, in: bytes, into: &memberHasher)
        sum &+= memberHasher.finalize()
        count += 1
        return true
      }
      hasher.combine(count)
      hasher.combine(sum)
    case UInt8(ascii: "["):
      hasher.combine(4 as UInt8)
      var count = 0
      JSONScan.forEachChild(ofContainerAt: start, in: bytes) { _, value in
        combine(textAt: value.lowerBound, in: bytes, into: &hasher)
        count += 1
        return true
      }
      hasher.combine(count)
    case UInt8(ascii: "\""):
      hasher.combine(3 as UInt8)
      combineString(start..<JSONScan.valueEnd(in: bytes, at: start), in: bytes, into: &hasher)
    case UInt8(ascii: "t"):
      hasher.combine(1 as UInt8)
      hasher.combine(true)
    case UInt8(ascii: "f"):
      hasher.combine(1 as UInt8)
      hasher.combine(false)
    case UInt8(ascii: "n"):
      hasher.combine(0 as UInt8)
    default:
      hasher.combine(2 as UInt8)
      hasher.combine(
        bytes: UnsafeRawBufferPointer(
          rebasing: bytes[start..<JSONScan.valueEnd(in: bytes, at: start)]))
    }
  }

  /// Combines the UTF-8 of the unescaped content of the string whose text (quotes included) is
  /// at `range`: its raw bytes, unless it has an escape.
  private static func combineString(
    _ range: Range<Int>, in bytes: UnsafeRawBufferPointer, into hasher: inout Hasher
  ) {
    let content = UnsafeRawBufferPointer(
      rebasing: bytes[(range.lowerBound + 1)..<(range.upperBound - 1)])
    if !content.contains(UInt8(ascii: "\\")) {
      hasher.combine(bytes: content)
    } else {
      var text = JSONScan.key(range, in: bytes)
      text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
  }
}
