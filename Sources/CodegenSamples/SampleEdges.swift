import Foundation

// Declarations that once misled the generator (its reviews found them): each must still get a
// generated path that compiles and agrees with Codable (RewindCodegenTests).

/// Cases whose associated values have default values with `..<`, `>` and `<<` in them.
public enum SampleQuery: Codable, Equatable, Sendable {
  case page(range: Range<Int> = 0..<20, sort: String)
  case flags(on: Bool = 3 > 2, mask: Int = 1 << 3)
  case at(Array<Int>.Index)
}

/// Slashes that are operators, and regular expressions with braces in them.
public struct SampleCalc: Codable, Equatable, Sendable {
  /// The operands.
  public var numbers: [Double]
  /// A binary operator as a value: not coded.
  public var divide: (Double, Double) -> Double { (/) }  // a/b
  /// The last result.
  public var total: Double

  /// The product of the inverses.
  public func inverse() -> Double { numbers.reduce(1.0, /) }  // 1/x

  /// Whether a text has a brace, through a regular expression.
  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
  public func hasBrace(_ text: String, strict: Bool) -> Bool {
    text.contains(strict ? #/\{/# : #/\}/#)
  }

  /// A calculation.
  public init(numbers: [Double], total: Double) {
    self.numbers = numbers
    self.total = total
  }
}

/// An outer type with availability.
@available(macOS 10.15, iOS 13, tvOS 13, watchOS 6, *)
public struct SampleFeature: Sendable {}

@available(macOS 10.15, iOS 13, tvOS 13, watchOS 6, *)
extension SampleFeature {
  /// A nested enum whose generated extension needs the outer type's availability.
  public enum Mode: String, Codable, Sendable {
    case fast, careful
  }
}

/// A struct made `Codable` by an extension with availability.
public struct SampleLaterAvailable: Equatable, Sendable {
  /// A value.
  public var a: Int
  /// A table, decoded (a `var` with a value).
  public var lookup: [String: Int] = ["one": 1]

  /// A value.
  public init(a: Int) { self.a = a }
}

@available(macOS 10.15, iOS 13, tvOS 13, watchOS 6, *)
extension SampleLaterAvailable: Codable {}

/// Only `Decodable`: its generated path reads and never writes.
public struct SampleResponse: Decodable, Equatable, Sendable {
  /// The items.
  public var items: [SampleTodo]
  /// The next page, when there is one.
  public var next: String?
}

/// Raw types other than `String` and `Int`.
public enum SampleRatio: Double, Codable, Sendable {
  case half = 0.5
  case whole = 1
}

/// A raw type of another width.
public enum SampleByte: UInt8, Codable, Sendable {
  case low = 1
  case high = 255
}
