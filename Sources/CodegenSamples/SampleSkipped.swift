import Foundation

// Codable types the generator leaves to their synthesized conformance, each for one reason
// (RewindCodegenTests checks the reasons it gives).

/// Custom keys.
struct SkippedCustomKeys: Codable {
  var a: Int
  enum CodingKeys: String, CodingKey { case a = "A" }
}

/// A hand-written `encode(to:)`.
struct SkippedHandWritten: Codable {
  var a: Int
}

extension SkippedHandWritten {
  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(a)
  }
}

/// Generic.
struct SkippedGeneric<Value: Codable>: Codable {
  var value: Value
}

/// A class.
final class SkippedClass: Codable {
  var a = 1
}

// rewind-codegen: skip
/// Kept out by the comment above.
struct SkippedByComment: Codable {
  var a: Int
}

/// A private property.
struct SkippedPrivate: Codable {
  private var a: Int
}

/// A property wrapper, which codes the property its own way.
struct SkippedWrapped: Codable {
  @SampleClamped var a: Int
}

/// A property wrapper for ``SkippedWrapped``.
@propertyWrapper struct SampleClamped: Codable {
  var wrappedValue: Int
}

#if DEBUG || !DEBUG
  /// Declared inside `#if`.
  struct SkippedConditional: Codable {
    var a: Int
  }
#endif

/// A protocol an enum may inherit first.
protocol SampleMarker {}

/// Its first inherited name could be a raw type.
enum SkippedUnknownFirst: SampleMarker, Codable {
  case a
}

/// A namespace of property wrappers.
enum SampleWrappers {
  /// A property wrapper named through its namespace.
  @propertyWrapper struct Doubled: Codable {
    var wrappedValue: Int
  }
}

/// A property wrapper named with a dot.
struct SkippedDottedWrapper: Codable {
  @SampleWrappers.Doubled var a: Int
}

/// Its case's own keys (`<Case>CodingKeys`).
enum SkippedCaseKeys: Codable {
  case circle(radius: Double)
  enum CircleCodingKeys: String, CodingKey { case radius = "r" }
}

/// `#if` among its members.
struct SkippedMemberIf: Codable {
  #if DEBUG
    var level = 3
  #else
    var level = 0
  #endif
}
