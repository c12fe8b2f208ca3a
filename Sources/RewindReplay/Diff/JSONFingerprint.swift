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
