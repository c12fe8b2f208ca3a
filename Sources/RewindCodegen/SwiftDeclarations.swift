/// What ``SwiftDeclarationScanner`` finds in a target's sources: its types with what their
/// `Codable` conformances are made of, the extensions that add to them, and the imports.
struct SwiftDeclarations: Sendable {
  /// The struct, enum, class, actor and protocol declarations, in source order.
  var types: [DeclaredType] = []
  /// The extensions, in source order.
  var extensions: [TypeExtension] = []
  /// The `import` lines outside any `#if`, as written.
  var imports: [String] = []
  /// File-scope `typealias A = B.C` whose right side is a plain name: `["A": ["B", "C"]]`.
  var typealiases: [String: [String]?] = [:]
  /// File-scope `typealias P = A & B`: `["P": ["A", "B"]]`, a protocol that inherits both.
  var compositions: [String: [String]] = [:]
  /// Files whose braces the scanner could not match: it cannot know what it missed in them,
  /// so nothing is generated.
  var unreadableFiles: [UnreadableFile] = []
}

/// A file whose braces the scanner could not match.
struct UnreadableFile: Sendable {
  /// Where: `file:line`, or the file alone.
  var location: String
  /// What: `a '}' that closes nothing`.
  var problem: String
}

/// An access level, in increasing order.
enum AccessLevel: Int, Comparable, Sendable {
  case `private`, `fileprivate`, `internal`, `package`, `public`

  /// The level a modifier names, `open` as `public`; `nil` for any other word.
  init?(modifier: String) {
    switch modifier {
    case "private": self = .private
    case "fileprivate": self = .fileprivate
    case "internal": self = .internal
    case "package": self = .package
    case "public", "open": self = .public
    default: return nil
    }
  }

  static func < (lhs: AccessLevel, rhs: AccessLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A type declaration.
struct DeclaredType: Sendable {
  /// What kind of type.
  enum Kind: String, Sendable {
    case `struct`, `enum`, `class`, `actor`, `protocol`
  }

  /// Its name and the names of the types around it: `["TodoState", "Item"]`.
  var path: [String]
  var kind: Kind
  /// The access of its members by default, the enclosing types' taken into account.
  var access: AccessLevel
  /// Its `@available` attributes and those of the types and extensions around it, as written.
  var availability: [String]
  /// The names in its inheritance clause, in order, without module qualifiers.
  var inheritance: [String]
  /// Where it is declared: the file and line.
  var file: String
  var line: Int
  /// Its stored instance properties, in declaration order (a struct's).
  var properties: [StoredProperty] = []
  /// Its cases, in declaration order (an enum's).
  var cases: [EnumCase] = []
  /// Why its `Codable` conformance cannot be generated, as found in its own declaration.
  var problems: [String] = []
  /// Why its `Decodable` half alone cannot be generated.
  var decodingProblems: [String] = []
  /// It is declared `nonisolated`.
  var isNonisolated = false

  /// The name as Swift code writes it from the file scope: `TodoState.Item`.
  var qualifiedName: String { path.joined(separator: ".") }
}

/// An extension of a type.
struct TypeExtension: Sendable {
  /// The extended type's name as written: `["TodoState", "Item"]`.
  var path: [String]
  /// The names in its inheritance clause.
  var inheritance: [String]
  /// What in it stops a generated conformance (`encode(to:)`, `init(from:)`, `CodingKeys`).
  var problems: [String] = []
  /// Its `@available` attributes, as written.
  var availability: [String] = []
  /// It extends a type written otherwise than by name (`[String: Int]`, `String?`,
  /// `Array<String>`): no type declared in it can be named from outside.
  var isUnnameable = false
}

/// A stored instance property of a struct.
struct StoredProperty: Equatable, Sendable {
  /// Its name, without backticks.
  var name: String
  /// It is a `let` with an initial value: encoded, but not decoded (as Codable does).
  var isConstantWithValue: Bool
}

/// A case of an enum.
struct EnumCase: Equatable, Sendable {
  /// Its name, without backticks.
  var name: String
  /// The keys of its associated values: each label, or `_0`, `_1`, … for one without a label.
  var keys: [String]
  /// The labels of its associated values, `nil` for one without.
  var labels: [String?]
  /// It is written with parentheses, `case none()`.
  var hasParentheses: Bool
}
