import RewindJSON

/// A JSON value as ``JSONDiff`` walks it: one level at a time, built only where it differs.
///
/// Two kinds of node: a ``JSONValue`` tree, and a value's text (``JSONTextNode``), whose equal
/// parts are skipped by comparing bytes and whose differing parts are read one level at a time,
/// so that diffing two large states needs no tree of either.
protocol JSONDiffNode {
  /// The node's members or elements, or `.scalar`.
  var shape: JSONDiffShape<Self> { get }
  /// Whether the two values are equal as ``JSONValue``s are (objects by key, whatever their
  /// member order; numbers by their literal text).
  func isEqual(to other: Self) -> Bool
  /// Whether the two are equal by a quick test that may miss equal values, tried before
  /// anything is read: the same bytes, for text; for a tree, members equal in order.
  func isQuicklyEqual(to other: Self) -> Bool
  /// The node as a tree: the value a change carries.
  var value: JSONValue { get }
  /// A hash consistent with ``isEqual(to:)`` (``JSONFingerprint``), for array alignment.
  var fingerprint: Int { get }
  /// For two objects or two arrays, only the members or elements that may differ, and how many
  /// equal elements come before them: what can be told without reading the rest (for text, the
  /// children within the bytes the two share at their start and end); `nil` when nothing can be
  /// left out this way, or the two are not containers of one kind.
  static func narrowed(_ old: Self, _ new: Self) -> JSONDiffNarrowing<Self>?
}

extension JSONDiffNode {
  /// ``JSONFingerprint/of(_:)``, read through ``shape`` and ``value``.
  var fingerprint: Int { JSONFingerprint.of(self) }
}

/// The parts of two containers that may differ (``JSONDiffNode/narrowed(_:_:)``).
struct JSONDiffNarrowing<Node> {
  /// How many equal elements (or members) come before the ones given.
  var skipped: Int
  /// The old container's members or elements that may differ.
  var old: JSONDiffShape<Node>
  /// The new container's.
  var new: JSONDiffShape<Node>
}

/// One level of a ``JSONDiffNode``.
enum JSONDiffShape<Node> {
  /// An object's members, in order.
  case object([(key: String, value: Node)])
  /// An array's elements.
  case array([Node])
  /// A string, number, boolean or null.
  case scalar
}

extension JSONValue: JSONDiffNode {
  var shape: JSONDiffShape<JSONValue> {
    switch self {
    case .object(let members): .object(members.map { ($0.key, $0.value) })
    case .array(let elements): .array(elements)
    default: .scalar
    }
  }

  func isEqual(to other: JSONValue) -> Bool { self == other }

  /// Objects whose members are equal in order, or equal scalars: one linear pass that stops at
  /// the first difference. Arrays are compared element by element by the diff itself, and
  /// objects in another member order member by member (`==` would look each key up in turn:
  /// quadratic in a large object).
  func isQuicklyEqual(to other: JSONValue) -> Bool {
    switch (self, other) {
    case (.object(let mine), .object(let theirs)): mine.elementsEqual(theirs)
    case (.array, .array): false
    default: self == other
    }
  }

  var value: JSONValue { self }

  /// Nothing: a tree is walked level by level (``isQuicklyEqual(to:)`` skips equal objects).
  static func narrowed(_ old: JSONValue, _ new: JSONValue) -> JSONDiffNarrowing<JSONValue>? {
    nil
  }
}
