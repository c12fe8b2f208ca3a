import RewindJSON

/// The lines of a live connection besides the log's own (docs/live.md, The connection): the
/// app's greeting, the viewer's answer, and the mark of actions dropped on the way. Each is one
/// JSON object on one line, like the log's records, with a `kind` that starts with `live-`.
///
/// ```text
/// app → viewer   {"kind":"live-hello","protocol":1,"token":"…","app":"todo","session":"…","host":"mac","pid":812}
/// viewer → app   {"kind":"live-accepted","protocol":1}      or {"kind":"live-refused","reason":"…"}
/// app → viewer   the header (the current state), then the log's lines as they are written
/// app → viewer   {"kind":"live-dropped","from":1201,"to":1480}   actions the viewer will not get
/// viewer → app   {"kind":"live-dispatch","id":1,"action":{"add":{"title":"Milk"}}}   (an app that accepts actions)
/// app → viewer   {"kind":"live-dispatched","id":1,"seq":1481}   or {"kind":"live-dispatch-refused","id":1,"reason":"…"}
/// ```
package enum LiveProtocol {
  /// The version of the connection's own lines.
  package static let version = 1
  /// The longest greeting or answer a side reads (the first line of a connection).
  package static let greetingLimit = 4096
  /// The longest line an app reads from its viewer (an action to dispatch): a longer one ends
  /// the connection.
  package static let viewerLineLimit = 1 << 20
  /// How many of the viewer's actions an app holds, decoded and waiting for its dispatch queue;
  /// more are refused until those ran.
  package static let dispatchesWaitingLimit = 32

  /// The app's greeting.
  package struct Hello: Sendable, Equatable {
    /// The token the viewer printed (empty: none).
    package var token: String
    /// The app's name (the header's `app`).
    package var app: String
    /// The recording's session id.
    package var session: String
    /// The app's machine.
    package var host: String
    /// The app's process id.
    package var pid: Int
    /// The app's build, as `replay info` shows it (`1.4.2 (87)`), or empty.
    package var build: String
    /// Whether the app dispatches actions the viewer sends (``LiveViewer/acceptsActions``).
    package var acceptsActions: Bool

    /// A greeting.
    package init(
      token: String, app: String, session: String, host: String, pid: Int, build: String,
      acceptsActions: Bool = false
    ) {
      self.token = token
      self.app = app
      self.session = session
      self.host = host
      self.pid = pid
      self.build = build
      self.acceptsActions = acceptsActions
    }

    /// The greeting's line.
    package var line: [UInt8] {
      LiveProtocol.line(
        [
          JSONMember("kind", .string("live-hello")),
          JSONMember("protocol", .number(String(LiveProtocol.version))),
          JSONMember("token", .string(token)), JSONMember("app", .string(app)),
          JSONMember("session", .string(session)), JSONMember("host", .string(host)),
          JSONMember("pid", .number(String(pid))), JSONMember("build", .string(build)),
        ] + (acceptsActions ? [JSONMember("dispatch", .bool(true))] : []))
    }

    /// Reads a greeting line (without its `\n`); the reason when it is not one.
    package static func parse(_ bytes: [UInt8]) -> Result<Hello, LiveRefusal> {
      guard let value = try? JSONParser.parse(bytes), case .object = value else {
        return .failure(.notAGreeting)
      }
      guard value["kind"]?.stringValue == "live-hello" else { return .failure(.notAGreeting) }
      guard let version = value["protocol"]?.intValue, version == LiveProtocol.version else {
        return .failure(.protocolVersion(value["protocol"]?.intValue ?? 0))
      }
      return .success(
        Hello(
          token: value["token"]?.stringValue ?? "", app: value["app"]?.stringValue ?? "",
          session: value["session"]?.stringValue ?? "", host: value["host"]?.stringValue ?? "",
          pid: value["pid"]?.intValue ?? 0, build: value["build"]?.stringValue ?? "",
          acceptsActions: value["dispatch"]?.boolValue ?? false))
    }
  }

  /// The viewer's answer accepting a connection.
  package static var accepted: [UInt8] {
    line([
      JSONMember("kind", .string("live-accepted")),
      JSONMember("protocol", .number(String(version))),
    ])
  }

  /// The viewer's answer refusing a connection, before it closes it.
  package static func refused(_ refusal: LiveRefusal) -> [UInt8] {
    line([
      JSONMember("kind", .string("live-refused")),
      JSONMember("reason", .string(refusal.description)),
    ])
  }

  /// Reads the viewer's answer: `nil` when accepted, else why it refused.
  package static func parseAnswer(_ bytes: [UInt8]) -> String? {
    guard let value = try? JSONParser.parse(bytes) else { return "the viewer's answer is not JSON" }
    switch value["kind"]?.stringValue {
    case "live-accepted": return nil
    case "live-refused": return value["reason"]?.stringValue ?? "refused"
    default: return "the viewer's answer is not one of this protocol's"
    }
  }

  /// The mark that actions `from`…`to` were dropped on the way to the viewer.
  package static func dropped(from: Int, to: Int) -> [UInt8] {
    line([
      JSONMember("kind", .string("live-dropped")), JSONMember("from", .number(String(from))),
      JSONMember("to", .number(String(to))),
    ])
  }

  /// The viewer's request that the app dispatch `action` (one of the app's actions, as the log
  /// writes them); `id` numbers the requests of a connection.
  package static func dispatch(id: Int, action: JSONValue) -> [UInt8] {
    line([
      JSONMember("kind", .string("live-dispatch")), JSONMember("id", .number(String(id))),
      JSONMember("action", action),
    ])
  }

  /// A request of the viewer's, as the app reads it.
  package struct DispatchRequest: Sendable, Equatable {
    /// The request's number.
    package var id: Int
    /// The action's JSON, as the app's coder decodes it.
    package var action: [UInt8]
  }

  /// Reads a line from the viewer: a dispatch request, or why it is not one (the request's
  /// `id` when it has one, for the answer).
  package static func parseDispatch(_ bytes: [UInt8]) -> Result<DispatchRequest, DispatchRefusal> {
    guard let value = try? JSONParser.parse(bytes), value["kind"]?.stringValue == "live-dispatch"
    else {
      return .failure(DispatchRefusal(id: 0, reason: "not a live-dispatch request"))
    }
    let id = value["id"]?.intValue ?? 0
    guard let action = value["action"] else {
      return .failure(DispatchRefusal(id: id, reason: "the request has no action"))
    }
    var json: [UInt8] = []
    action.write(into: &json)
    return .success(DispatchRequest(id: id, action: json))
  }

  /// The app's answer: the viewer's action `id` was recorded as `seq`.
  package static func dispatched(id: Int, seq: Int) -> [UInt8] {
    line([
      JSONMember("kind", .string("live-dispatched")), JSONMember("id", .number(String(id))),
      JSONMember("seq", .number(String(seq))),
    ])
  }

  /// The app's answer: the viewer's action `id` was not dispatched, and why.
  package static func dispatchRefused(_ refusal: DispatchRefusal) -> [UInt8] {
    line([
      JSONMember("kind", .string("live-dispatch-refused")),
      JSONMember("id", .number(String(refusal.id))), JSONMember("reason", .string(refusal.reason)),
    ])
  }

  /// Why an app did not dispatch a viewer's action.
  package struct DispatchRefusal: Error, Sendable, Equatable {
    /// The request's number.
    package var id: Int
    /// Why, with what to do.
    package var reason: String

    /// A refusal of request `id`.
    package init(id: Int, reason: String) {
      self.id = id
      self.reason = reason
    }
  }

  /// The app's answer to a dispatch request, as the viewer reads it.
  package enum DispatchAnswer: Sendable, Equatable {
    /// Recorded as `seq`.
    case dispatched(id: Int, seq: Int)
    /// Not dispatched.
    case refused(DispatchRefusal)

    /// The request's number.
    package var id: Int {
      switch self {
      case .dispatched(let id, _): return id
      case .refused(let refusal): return refusal.id
      }
    }
  }

  /// Reads an app's line that answers a dispatch request; `nil` for any other line.
  package static func parseDispatchAnswer(_ bytes: [UInt8]) -> DispatchAnswer? {
    guard bytes.starts(with: Array(#"{"kind":"live-dispatch"#.utf8)),
      let value = try? JSONParser.parse(bytes)
    else { return nil }
    let id = value["id"]?.intValue ?? 0
    switch value["kind"]?.stringValue {
    case "live-dispatched": return .dispatched(id: id, seq: value["seq"]?.intValue ?? 0)
    case "live-dispatch-refused":
      return .refused(DispatchRefusal(id: id, reason: value["reason"]?.stringValue ?? "refused"))
    default: return nil
    }
  }

  /// One line of JSON: the members, then `\n`.
  private static func line(_ members: [JSONMember]) -> [UInt8] {
    var bytes: [UInt8] = []
    JSONValue.object(members).write(into: &bytes)
    bytes.append(UInt8(ascii: "\n"))
    return bytes
  }

  /// Compares two tokens in time that depends on their lengths only, not on where they differ.
  package static func tokensMatch(_ given: String, _ expected: String) -> Bool {
    let a = Array(given.utf8)
    let b = Array(expected.utf8)
    var difference = UInt8(truncatingIfNeeded: a.count ^ b.count)
    if a.count != b.count { difference |= 1 }
    for index in 0..<max(a.count, b.count) {
      let x = index < a.count ? a[index] : 0
      let y = index < b.count ? b[index] : 0
      difference |= x ^ y
    }
    return difference == 0
  }
}

/// Why a viewer refused a connection (the `reason` of its answer).
package enum LiveRefusal: Error, Sendable, Equatable, CustomStringConvertible {
  /// The first line was not a greeting.
  case notAGreeting
  /// The greeting spoke another version of the protocol.
  case protocolVersion(Int)
  /// The token was missing or wrong.
  case badToken
  /// The greeting did not come in time.
  case greetingTimedOut
  /// Too many connections at once.
  case tooManyConnections(Int)
  /// A line was longer than the limit.
  case lineTooLong(limit: Int)
  /// A line was not one of a Rewind log's.
  case badLine(String)

  package var description: String {
    switch self {
    case .notAGreeting:
      return
        "the first line is not a Rewind live greeting: connect with a Rewind recorder (LiveViewer)"
    case .protocolVersion(let version):
      return
        "the greeting speaks live protocol \(version); this replay speaks \(LiveProtocol.version): use the same version of Rewind on both sides"
    case .badToken:
      return
        "wrong or missing token: give the recorder the token replay listen printed (LiveViewer token, or REWIND_LIVE_TOKEN)"
    case .greetingTimedOut:
      return "no greeting within the time limit"
    case .tooManyConnections(let limit):
      return
        "too many connections (at most \(limit) at once): close another app's connection and retry"
    case .lineTooLong(let limit):
      return
        "a line longer than \(limit) bytes: raise replay listen --max-line if the app's state is that large"
    case .badLine(let reason):
      return reason
    }
  }
}
