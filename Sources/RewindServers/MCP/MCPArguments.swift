import RewindJSON
import RewindReplay
import RewindReplayService

/// A tool call's `arguments`, read by name and kind, each mistake said with the argument's name
/// and what it takes: an agent reads the message and corrects its call.
package struct MCPArguments {
  /// Why an argument is wrong: the message an agent reads (a tool error, not a protocol error).
  package struct Failure: Error, Sendable, Equatable {
    /// What is wrong and how to call the tool instead.
    package var message: String
  }

  /// The members given.
  private let members: [JSONMember]

  /// The arguments of `value` (an object, or absent), checked against the names the tool
  /// takes.
  /// - Throws: ``Failure`` for arguments that are not an object, or a name the tool does not
  ///   take (with the closest one it does).
  package init(_ value: JSONValue?, accepted names: [String], tool: String) throws(Failure) {
    switch value {
    case nil, .null?: members = []
    case .object(let members)?: self.members = members
    case let other?:
      throw Failure(message: "the arguments of '\(tool)' must be an object, not \(other.kindName)")
    }
    for member in members where !names.contains(member.key) {
      let suggestion = closestMatch(to: member.key, in: names)
      throw Failure(
        message: "'\(tool)' takes no argument '\(member.key)'"
          + (suggestion.map { " — did you mean '\($0)'?" } ?? "")
          + " (it takes: \(names.joined(separator: ", ")))")
    }
  }

  /// The value of `name`, `nil` when absent or `null`.
  private func value(_ name: String) -> JSONValue? {
    guard let value = members.last(where: { $0.key == name })?.value, value != .null else {
      return nil
    }
    return value
  }

  /// The string `name`, or `nil`.
  /// - Throws: ``Failure`` when it is not a string, or is longer than `maxLength`.
  package func string(_ name: String, maxLength: Int = 4096) throws(Failure) -> String? {
    guard let value = value(name) else { return nil }
    guard case .string(let text) = value else {
      throw Failure(message: "'\(name)' must be a string, not \(value.kindName)")
    }
    guard text.utf8.count <= maxLength else {
      throw Failure(message: "'\(name)' is longer than \(maxLength) bytes")
    }
    return text
  }

  /// The integer `name` within `range`, or `nil`.
  /// - Throws: ``Failure`` when it is not an integer in `range`.
  package func integer(_ name: String, in range: ClosedRange<Int>) throws(Failure) -> Int? {
    guard let value = value(name) else { return nil }
    guard case .number(let text) = value, let number = Int(text) else {
      throw Failure(message: "'\(name)' must be an integer, not \(value.jsonText)")
    }
    guard range.contains(number) else {
      let upper = range.upperBound == .max ? "" : " to \(range.upperBound)"
      throw Failure(message: "'\(name)' must be \(range.lowerBound)\(upper), not \(number)")
    }
    return number
  }

  /// The position `name` names in `service`'s log — an integer (0 is the initial state, N the
  /// state after action N), `"first"` or `"last"` — or `nil`.
  /// - Throws: ``Failure`` when it names no position of the log (saying which are valid).
  package func position(_ name: String, in service: ReplayService) throws(Failure) -> Int? {
    guard let value = value(name) else { return nil }
    let word: String
    switch value {
    case .number(let text): word = text
    case .string(let text): word = text
    default:
      throw Failure(
        message: "'\(name)' must be a position (an integer, \"first\" or \"last\"), not "
          + value.kindName)
    }
    do throws(DebuggerError) {
      return try Debugger.position(word, in: service.log)
    } catch {
      throw Failure(message: "'\(name)': \(error.message)")
    }
  }

  /// The state path `name` (`todos[id=3].title`), or `nil`.
  /// - Throws: ``Failure`` with the path's syntax error.
  package func path(_ name: String) throws(Failure) -> JSONPath? {
    guard let text = try string(name) else { return nil }
    do throws(StatePathError) { return try JSONPath.parse(text) } catch {
      throw Failure(message: "'\(name)': \(error.description)")
    }
  }

  /// The string `name`, which must be one of `choices`, or `nil`.
  /// - Throws: ``Failure`` naming the choices.
  package func choice(_ name: String, of choices: [String]) throws(Failure) -> String? {
    guard let text = try string(name) else { return nil }
    guard choices.contains(text) else {
      throw Failure(
        message: "'\(name)' must be one of \(choices.map { "\"\($0)\"" }.joined(separator: ", ")), "
          + "not \"\(text)\"")
    }
    return text
  }

  /// The string `name`, which the tool requires.
  /// - Throws: ``Failure`` when it is absent.
  package func required(_ name: String) throws(Failure) -> String {
    guard let text = try string(name) else {
      throw Failure(message: "'\(name)' is required")
    }
    return text
  }
}
