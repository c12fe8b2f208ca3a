import Foundation
import Rewind

// Codable types of the shapes the generator reads; each gets a generated direct path.

/// A struct with members of every kind of type the generated code writes differently.
public struct SampleProfile: Codable, Equatable, Sendable {
  /// The name.
  public var name: String
  /// Left out of the JSON when `nil`, as `encodeIfPresent` leaves it out.
  public var nickname: String?
  /// The age, in years.
  public var age: Int8
  /// A score.
  public var score: Double
  /// A ratio, when there is one.
  public var ratio: Float?
  /// Tags, in order.
  public var tags: [String]
  /// Counts by name.
  public var counts: [String: Int]
  /// Todos shared with friends.
  public var friends: [SampleTodo]
  /// The best todo, when there is one.
  public var best: SampleTodo?
  /// When the profile was made.
  public var joined: Date
  /// A member named after a keyword.
  public var `default`: Bool
  /// Decoded: a `var` with a value.
  public var level: SampleLevel = .low
  var observed: Int = 0 {
    didSet { changes += 1 }
  }
  var changes = 0
  /// Twice the age: computed, not coded.
  public var twice: Int { Int(age) * 2 }
  /// A static member: not coded.
  public static let shared = 0

  /// A profile.
  public init(
    name: String, nickname: String?, age: Int8, score: Double, ratio: Float?, tags: [String],
    counts: [String: Int], friends: [SampleTodo], best: SampleTodo?, joined: Date,
    default: Bool, level: SampleLevel
  ) {
    self.name = name
    self.nickname = nickname
    self.age = age
    self.score = score
    self.ratio = ratio
    self.tags = tags
    self.counts = counts
    self.friends = friends
    self.best = best
    self.joined = joined
    self.default = `default`
    self.level = level
  }
}

/// An enum with an `Int` raw value: coded as the number.
public enum SampleLevel: Int, Codable, Equatable, Sendable {
  case low = 1
  case high = 2
}

/// An enum with every kind of case.
public indirect enum SampleShape: Codable, Equatable, Sendable {
  case point
  case circle(Double)
  case rect(width: Double, height: Double)
  case labeled(String, count: Int, _ note: String?)
  case group([SampleShape])
  case framed(SampleShape, margin: Int?)
  case `default`
}

/// An enum without associated values or a raw type: `{"on":{}}`.
public enum SampleSwitch: Codable, Equatable, Sendable, CaseIterable {
  case on, off
}

/// A type around nested `Codable` types.
public struct SampleOuter: Sendable {
  /// A nested struct.
  public struct Inner: Codable, Equatable, Sendable {
    var value: Int
    var text: String?

    /// An inner value.
    public init(value: Int, text: String?) {
      self.value = value
      self.text = text
    }
  }
}

extension SampleOuter {
  /// A nested enum declared in an extension.
  public enum Kind: String, Codable, Equatable, Sendable {
    case first = "1st"
    case second
  }
}

/// A struct whose setter is hidden: its encoding is generated, its decoding is not.
public struct SampleReadOnly: Codable, Equatable, Sendable {
  /// The count.
  public private(set) var count: Int

  /// A value.
  public init(count: Int) { self.count = count }
}

/// A struct made `Codable` in an extension.
public struct SampleLater: Equatable, Sendable {
  var a: Int
  var b: [Int]?
}

extension SampleLater: Codable {}
