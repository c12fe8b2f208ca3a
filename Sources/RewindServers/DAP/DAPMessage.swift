import RewindJSON

/// One request of a Debug Adapter Protocol client, as read from a message: its `seq`, its
/// `command` and its `arguments` (an empty object when it sent none).
package struct DAPRequest: Sendable {
  /// The client's sequence number of the request (the `request_seq` of its response).
  package var seq: Int
  /// The command, like `"initialize"` or `"stackTrace"`.
  package var command: String
  /// The arguments, an object.
  package var arguments: JSONValue

  /// The request `message` is, or why it is none.
  ///
  /// - Throws: ``DAPError`` when `message` is not an object with `"type": "request"`, an integer
  ///   `seq` and a string `command` (the error keeps whatever `seq` and `command` it found).
  package init(_ message: JSONValue) throws(DAPError) {
    let seq = message["seq"]?.intValue
    let command = message["command"]?.stringValue
    guard case .object = message, message["type"]?.stringValue == "request", let seq, seq >= 1,
      let command
    else {
      throw DAPError(
        .protocolError,
        "the message is not a request: a request is an object with \"type\": \"request\", an "
          + "integer \"seq\" of 1 or more and a string \"command\"",
        seq: max(0, seq ?? 0), command: command ?? "")
    }
    self.seq = seq
    self.command = command
    self.arguments = message["arguments"] ?? .object([])
  }

  /// The argument `name` when it is a string.
  package func string(_ name: String) -> String? { arguments[name]?.stringValue }

  /// The argument `name` when it is an integer.
  package func integer(_ name: String) -> Int? { arguments[name]?.intValue }

  /// The argument `name` when it is a Boolean.
  package func bool(_ name: String) -> Bool? { arguments[name]?.boolValue }

  /// The integer argument `name`, which the request must have.
  /// - Throws: ``DAPError`` naming the argument when it is missing or not an integer.
  package func requiredInteger(_ name: String) throws(DAPError) -> Int {
    guard let value = integer(name) else {
      throw DAPError(
        .badArguments, "'\(command)' needs the integer argument '\(name)'", request: self)
    }
    return value
  }
}

/// Builders of the messages an adapter sends: responses and events, as JSON values (their
/// `seq` is given by ``DAPSession`` as it sends them).
package enum DAPMessage {
  /// A successful response to `request`, with `body` when there is one.
  package static func response(to request: DAPRequest, body: JSONValue?) -> JSONValue {
    var members = [
      JSONMember("type", .string("response")),
      JSONMember("request_seq", .number(String(request.seq))),
      JSONMember("success", .bool(true)),
      JSONMember("command", .string(request.command)),
    ]
    if let body { members.append(JSONMember("body", body)) }
    return .object(members)
  }

  /// The failed response `error` describes: `success: false`, its message, and in
  /// `body.error` the message with its id (``DAPError/Kind``), shown to the user.
  package static func errorResponse(_ error: DAPError) -> JSONValue {
    .object([
      JSONMember("type", .string("response")),
      JSONMember("request_seq", .number(String(error.seq))),
      JSONMember("success", .bool(false)),
      JSONMember("command", .string(error.command)),
      JSONMember("message", .string(error.message)),
      JSONMember(
        "body",
        .object([
          JSONMember(
            "error",
            .object([
              JSONMember("id", .number(String(error.kind.rawValue))),
              JSONMember("format", .string(error.message)),
              JSONMember("showUser", .bool(true)),
            ]))
        ])),
    ])
  }

  /// The event `name`, with `body` when there is one.
  package static func event(_ name: String, body: JSONValue? = nil) -> JSONValue {
    var members = [JSONMember("type", .string("event")), JSONMember("event", .string(name))]
    if let body { members.append(JSONMember("body", body)) }
    return .object(members)
  }

  /// An `output` event: `text` (a newline added) in the debug console, under `category`
  /// (`"console"`, `"stderr"`, `"important"`).
  package static func output(_ text: String, category: String = "console") -> JSONValue {
    event(
      "output",
      body: .object([
        JSONMember("category", .string(category)), JSONMember("output", .string(text + "\n")),
      ]))
  }

  /// `message` with `"seq": seq` first.
  package static func numbered(_ message: JSONValue, seq: Int) -> JSONValue {
    guard case .object(let members) = message else { return message }
    return .object([JSONMember("seq", .number(String(seq)))] + members)
  }
}

extension JSONValue {
  /// An integer as a JSON number.
  package static func integer(_ value: Int) -> JSONValue { .number(String(value)) }
}
