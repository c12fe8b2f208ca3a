import RewindJSON

/// Renders a timeline's actions and states as Swift expressions of the app's own types, for
/// `replay gen-test`, in a form that compiles in the app's test target — another module than
/// the app's types.
///
/// A value made only of enum cases, strings, numbers, Booleans, arrays, dictionaries, sets and
/// optionals is written as `String(reflecting:)` writes it, which is Swift source:
/// `RewindExamples.TodoAction.add(title: "Buy milk")` (an enum's cases are as visible as the
/// enum). A value that holds a struct or a class anywhere is decoded from its JSON with the app's
/// own `Codable` instead — `try JSONDecoder().decode(Shop.Cart.self, from: Data(#"{…}"#.utf8))`:
/// a struct's memberwise initialiser is internal to the app's module (and gone once the struct
/// declares an `init` of its own), and whether the app made another one public cannot be seen
/// from here, while every state and action of a log is `Codable`.
public protocol SwiftLiteralSource: AnyObject {
  /// The module-qualified names of the app's state and action types.
  var swiftTypeNames: (state: String, action: String) { get }
  /// Writes the state at `position` as a Swift expression to `target`, a piece at a time (a
  /// large state's expression is never held whole).
  func writeSwiftExpression<Target: TextOutputStream>(
    ofStateAt position: Int, to target: inout Target
  ) throws(ReplayError)
  /// The action `seq` as a Swift expression, or `nil` when it was not recorded.
  func swiftExpression(ofActionAt seq: Int) throws(ReplayError) -> String?
}

extension Timeline: SwiftLiteralSource {
  /// `String(reflecting:)` of `State` and `Action`: `RewindExamples.TodoState`.
  public var swiftTypeNames: (state: String, action: String) {
    (String(reflecting: State.self), String(reflecting: Action.self))
  }

  /// The state at `position` as a literal, or decoded from its JSON; written to `target` a piece
  /// at a time.
  public func writeSwiftExpression<Target: TextOutputStream>(
    ofStateAt position: Int, to target: inout Target
  ) throws(ReplayError) {
    let state = try state(at: position)
    if SwiftExpression.isLiteral(state) {
      ReflectingWriter.write(state, to: &target)
    } else {
      SwiftExpression.writeDecoding(
        swiftTypeNames.state, json: try SwiftExpression.json(of: state), to: &target)
    }
  }

  /// The action `seq` as a literal, or decoded from its JSON; `nil` when it was not recorded.
  public func swiftExpression(ofActionAt seq: Int) throws(ReplayError) -> String? {
    guard let action = try action(at: seq) else { return nil }
    if SwiftExpression.isLiteral(action) { return String(reflecting: action) }
    var text = ""
    SwiftExpression.writeDecoding(
      swiftTypeNames.action, json: try SwiftExpression.json(of: action), to: &text)
    return text
  }
}

/// How ``SwiftLiteralSource`` chooses and writes an expression.
package enum SwiftExpression {
  /// Whether `String(reflecting: value)` is Swift source that compiles in another module: the
  /// value holds only enum cases (without a description of their own), strings, characters,
  /// numbers, Booleans, and arrays, dictionaries, sets, tuples and optionals of them. A struct
  /// or class anywhere (whose text calls an initialiser) makes it `false`.
  package static func isLiteral(_ value: Any) -> Bool {
    switch value {
    case is String, is Character, is Bool, is Int, is Int8, is Int16, is Int32, is Int64,
      is UInt, is UInt8, is UInt16, is UInt32, is UInt64:
      return true
    case let number as Double: return number.isFinite
    case let number as Float: return number.isFinite
    default: break
    }
    let mirror = Mirror(reflecting: value)
    switch mirror.displayStyle {
    case .enum:
      if value is any CustomDebugStringConvertible || value is any CustomStringConvertible
        || value is any TextOutputStreamable
      {
        return false
      }
      return mirror.children.allSatisfy { isLiteral($0.value) }
    case .optional, .collection, .dictionary, .set, .tuple:
      return mirror.children.allSatisfy { isLiteral($0.value) }
    default:
      return false
    }
  }

  /// The JSON text the app's `Encodable` writes for `value`, as replay records it.
  package static func json<Value: Encodable>(of value: Value) throws(ReplayError) -> [UInt8] {
    do { return try RewindJSONEncoder().encode(value) } catch {
      throw .encodingFailed(what: "\(Value.self)", reason: String(describing: error))
    }
  }

  /// Writes `try JSONDecoder().decode(TYPE.self, from: Data(#"JSON"#.utf8))` to `target`, the
  /// JSON in a raw string literal with as many `#` as it needs, a piece at a time.
  package static func writeDecoding<Target: TextOutputStream>(
    _ typeName: String, json: [UInt8], to target: inout Target
  ) {
    let hashes = String(repeating: "#", count: rawStringHashes(json))
    target.write("try JSONDecoder().decode(\(typeName).self, from: Data(\(hashes)\"")
    let piece = 1 << 16
    var start = 0
    while start < json.count {
      let end = min(start + piece, json.count)
      // A piece ends at a character's first byte, so each is whole UTF-8.
      var cut = end
      while cut < json.count, cut > start + 1, json[cut] & 0xC0 == 0x80 { cut -= 1 }
      target.write(String(decoding: json[start..<cut], as: UTF8.self))
      start = cut
    }
    target.write("\"\(hashes).utf8))")
  }

  /// The fewest `#` around a raw string that holds `text` as it is: one more than the longest
  /// run of `#` after a `"` (which would end the string) or a `\` (which would start an
  /// escape).
  package static func rawStringHashes(_ text: [UInt8]) -> Int {
    var longest = 0
    var index = 0
    while index < text.count {
      if text[index] == UInt8(ascii: "\"") || text[index] == UInt8(ascii: "\\") {
        var run = 0
        while index + 1 + run < text.count, text[index + 1 + run] == UInt8(ascii: "#") {
          run += 1
        }
        longest = max(longest, run)
      }
      index += 1
    }
    return longest + 1
  }
}
