import Foundation

// A state with a bit of everything Codable can hold, for checking the generated path against
// Codable on many random values (RewindCodegenTests).

/// Every integer width.
public struct SampleWidths: Codable, Equatable, Sendable {
  /// An `Int`.
  public var int: Int
  /// An `Int8`.
  public var int8: Int8
  /// An `Int16`.
  public var int16: Int16
  /// An `Int32`.
  public var int32: Int32
  /// An `Int64`.
  public var int64: Int64
  /// A `UInt`.
  public var uint: UInt
  /// A `UInt8`.
  public var uint8: UInt8
  /// A `UInt16`.
  public var uint16: UInt16
  /// A `UInt32`.
  public var uint32: UInt32
  /// A `UInt64`.
  public var uint64: UInt64
}

/// Foundation's types, which Rewind's coder writes its own way.
public struct SampleFoundations: Codable, Equatable, Sendable {
  /// A date.
  public var date: Date
  /// Bytes.
  public var data: Data
  /// A URL.
  public var url: URL
  /// A decimal.
  public var decimal: Decimal
  /// A UUID.
  public var uuid: UUID
}

/// A color, also a dictionary key.
public enum SampleColor: String, Codable, CodingKeyRepresentable, Hashable, Sendable, CaseIterable {
  case red, green, blue
}

/// A snapshot with a bit of everything.
public struct SampleSnapshot: Codable, Equatable, Sendable {
  /// The todos, in order.
  public var todos: [SampleTodo]
  /// Numbers by title.
  public var byTitle: [String: Int]
  /// Titles by number.
  public var byNumber: [Int: String]
  /// Flags by color.
  public var byColor: [SampleColor: Bool]
  /// A set of colors.
  public var colors: Set<SampleColor>
  /// Every integer width.
  public var widths: SampleWidths
  /// Foundation's types.
  public var foundations: SampleFoundations
  /// A ratio, when there is one.
  public var ratio: Double
  /// A `Float`.
  public var small: Float
  /// Rows of optional numbers.
  public var grid: [[Int?]]
  /// An optional optional.
  public var maybe: Int??
  /// Shapes.
  public var shapes: [SampleShape]
  /// Actions, when there are some.
  public var actions: [SampleTodoAction]?
  /// Text.
  public var text: String
}
