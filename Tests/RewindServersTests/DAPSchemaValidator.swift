import Foundation
import RewindJSON

/// A JSON Schema validator for the subset the official Debug Adapter Protocol schema uses:
/// `$ref` to `#/definitions/…`, `allOf`, `oneOf`, `type` (one or several), `properties`,
/// `required`, `enum`, `items`, `additionalProperties` (a Boolean or a schema), `minimum` and
/// `maximum`. (`_enum` lists suggestions only, and is not checked.)
struct DAPSchemaValidator {
  /// The schema's `definitions`.
  let definitions: [String: JSONValue]

  /// Where the official schema is: `../shared/dap/debugAdapterProtocol.json` beside the
  /// repository.
  static let schemaPath = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
    .appendingPathComponent("shared/dap/debugAdapterProtocol.json").path

  /// The validator of the official schema, or `nil` when the file is not there.
  static let official: DAPSchemaValidator? = {
    guard let data = FileManager.default.contents(atPath: schemaPath),
      let schema = try? JSONParser.parse(Array(data)),
      case .object(let members)? = schema["definitions"]
    else { return nil }
    return DAPSchemaValidator(
      definitions: Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a }))
  }()

  /// The problems of `value` against the definition `name`; empty when it conforms.
  func problems(of value: JSONValue, against name: String) -> [String] {
    guard let schema = definitions[name] else { return ["no definition '\(name)' in the schema"] }
    var problems: [String] = []
    check(value, schema, at: "$", into: &problems)
    return problems
  }

  /// The definition a message of the adapter must conform to: `<Command>Response` (or
  /// `ErrorResponse` when it failed), `<Event>Event`.
  func definitionName(of message: JSONValue) -> String {
    func capitalized(_ text: String) -> String { text.prefix(1).uppercased() + text.dropFirst() }
    switch message["type"]?.stringValue {
    case "response":
      if message["success"]?.boolValue == false { return "ErrorResponse" }
      return capitalized(message["command"]?.stringValue ?? "") + "Response"
    case "event":
      return capitalized(message["event"]?.stringValue ?? "") + "Event"
    default:
      return "ProtocolMessage"
    }
  }

  /// Checks `value` against `schema`, adding what does not conform to `problems`.
  private func check(
    _ value: JSONValue, _ schema: JSONValue, at path: String, into problems: inout [String]
  ) {
    if let reference = schema["$ref"]?.stringValue {
      let prefix = "#/definitions/"
      guard reference.hasPrefix(prefix),
        let target = definitions[String(reference.dropFirst(prefix.count))]
      else {
        problems.append("\(path): unresolvable $ref \(reference)")
        return
      }
      check(value, target, at: path, into: &problems)
    }
    if case .array(let parts)? = schema["allOf"] {
      for part in parts { check(value, part, at: path, into: &problems) }
    }
    if case .array(let options)? = schema["oneOf"] {
      let matching = options.filter { option in
        var found: [String] = []
        check(value, option, at: path, into: &found)
        return found.isEmpty
      }
      if matching.count != 1 {
        problems.append("\(path): matches \(matching.count) of the oneOf schemas, not 1")
      }
    }
    if let type = schema["type"] {
      let allowed: [String]
      switch type {
      case .string(let one): allowed = [one]
      case .array(let several): allowed = several.compactMap(\.stringValue)
      default: allowed = []
      }
      if !allowed.isEmpty && !allowed.contains(where: { Self.value(value, isOfType: $0) }) {
        problems.append(
          "\(path): a \(value.kindName), expected \(allowed.joined(separator: " or "))")
        return
      }
    }
    if case .array(let choices)? = schema["enum"], !choices.contains(value) {
      problems.append(
        "\(path): \(value.jsonText) is not one of \(JSONValue.array(choices).jsonText)")
    }
    if case .number = value, let number = value.doubleValue {
      if let minimum = schema["minimum"]?.doubleValue, number < minimum {
        problems.append("\(path): \(number) is below the minimum \(minimum)")
      }
      if let maximum = schema["maximum"]?.doubleValue, number > maximum {
        problems.append("\(path): \(number) is above the maximum \(maximum)")
      }
    }
    if case .object(let members) = value {
      let properties = schema["properties"]
      if case .array(let required)? = schema["required"] {
        for case .string(let name) in required where !members.contains(where: { $0.key == name }) {
          problems.append("\(path): the required property '\(name)' is missing")
        }
      }
      for member in members {
        if let property = properties?[member.key] {
          check(member.value, property, at: "\(path).\(member.key)", into: &problems)
        } else if let additional = schema["additionalProperties"] {
          if additional == .bool(false) {
            problems.append("\(path): the property '\(member.key)' is not allowed")
          } else if case .object = additional {
            check(member.value, additional, at: "\(path).\(member.key)", into: &problems)
          }
        }
      }
    }
    if case .array(let elements) = value, let items = schema["items"] {
      for (index, element) in elements.enumerated() {
        check(element, items, at: "\(path)[\(index)]", into: &problems)
      }
    }
  }

  /// Whether `value` is of the JSON Schema `type`.
  private static func value(_ value: JSONValue, isOfType type: String) -> Bool {
    switch (type, value) {
    case ("null", .null), ("boolean", .bool), ("string", .string), ("array", .array),
      ("object", .object), ("number", .number):
      return true
    case ("integer", .number(let text)): return Int(text) != nil
    default: return false
    }
  }
}
