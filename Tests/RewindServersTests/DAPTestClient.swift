import Foundation
import RewindExamples
import RewindJSON
import RewindReplay
import RewindReplayService
import RewindTestSupport
import Testing

@testable import RewindServers

/// A scripted Debug Adapter Protocol client over a ``DAPSession`` in this process: it sends
/// requests, keeps every message the session sends back, and checks each against the official
/// schema as it arrives (a message that does not conform is a test failure).
final class DAPTestClient {
  /// The apps of the bundled `replay` binary (the todo app without its migrations).
  static let apps = [
    ReplayApp(name: "counter", reducer: counterReducer, initialState: CounterState()),
    ReplayApp(name: "todo", reducer: todoReducer, initialState: TodoState()),
    ReplayApp(name: "journal", reducer: journalReducer),
  ]

  /// The session driven.
  let session: DAPSession
  /// Every message received, in order.
  private(set) var received: [JSONValue] = []
  /// The next request's `seq`.
  private var nextSeq = 1

  /// A client of a new session that looks for call sites under the repository and replays in
  /// this process unless `launch` says `"isolate": true`.
  init() {
    session = DAPSession(
      configuration: DAPSession.Configuration(
        apps: Self.apps, isolatesByDefault: false, sourceRoot: Repository.root.path))
  }

  /// Points crash-isolated replays at the built `replay` binary (the test runner cannot be a
  /// worker).
  static func useReplayBinaryAsWorker() throws {
    let binary = try replayExecutable()
    WorkerProcess.executableOverride.withLock { $0 = binary }
  }

  /// The built `replay` executable, next to the test bundle or in its parents.
  static func replayExecutable() throws -> URL {
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 {
      let candidate = directory.appendingPathComponent("replay")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      directory.deleteLastPathComponent()
    }
    throw MissingBinary()
  }

  /// No `replay` binary was found.
  struct MissingBinary: Error, CustomStringConvertible {
    var description: String {
      "no 'replay' executable next to \(CommandLine.arguments[0]): build it with "
        + "'swift build --build-tests' (RewindServersTests depends on it)"
    }
  }

  /// Sends `command` and returns what came back: its response and the events after it.
  @discardableResult
  func send(
    _ command: String, _ arguments: [JSONMember] = [],
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> (response: JSONValue, events: [JSONValue]) {
    let seq = nextSeq
    nextSeq += 1
    let messages = session.handle(
      .object([
        JSONMember("seq", .integer(seq)), JSONMember("type", .string("request")),
        JSONMember("command", .string(command)), JSONMember("arguments", .object(arguments)),
      ]))
    for message in messages { Self.validate(message, sourceLocation: sourceLocation) }
    received += messages
    guard let response = messages.first else {
      Issue.record("no response to '\(command)'", sourceLocation: sourceLocation)
      return (.null, [])
    }
    #expect(response["request_seq"]?.intValue == seq, sourceLocation: sourceLocation)
    #expect(response["command"]?.stringValue == command, sourceLocation: sourceLocation)
    return (response, Array(messages.dropFirst()))
  }

  /// The body of `command`'s response, which must succeed.
  func body(
    _ command: String, _ arguments: [JSONMember] = [],
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> JSONValue {
    let (response, _) = send(command, arguments, sourceLocation: sourceLocation)
    #expect(
      response["success"]?.boolValue == true, "\(command) failed: \(response.jsonText)",
      sourceLocation: sourceLocation)
    return response["body"] ?? .null
  }

  /// The `stopped` event `command` caused (its response must succeed).
  func stop(
    _ command: String, _ arguments: [JSONMember] = [],
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> JSONValue {
    let (response, events) = send(command, arguments, sourceLocation: sourceLocation)
    #expect(
      response["success"]?.boolValue == true, "\(command) failed: \(response.jsonText)",
      sourceLocation: sourceLocation)
    guard let stopped = events.first(where: { $0["event"]?.stringValue == "stopped" }) else {
      Issue.record("'\(command)' caused no stopped event", sourceLocation: sourceLocation)
      return .null
    }
    return stopped["body"] ?? .null
  }

  /// Initializes, launches `fixture` (with `arguments`) and finishes configuration, returning
  /// the first stop.
  func start(_ fixture: String, _ arguments: [JSONMember] = []) -> JSONValue {
    _ = body("initialize", [JSONMember("adapterID", .string("rewind"))])
    _ = body("launch", [JSONMember("log", .string(Repository.fixture(fixture)))] + arguments)
    return stop("configurationDone")
  }

  /// The names of the frames of the stack trace (`startFrame`, `levels`).
  func frameNames(startFrame: Int = 0, levels: Int = 0) -> [String] {
    let body = body(
      "stackTrace",
      [
        JSONMember("threadId", .integer(1)), JSONMember("startFrame", .integer(startFrame)),
        JSONMember("levels", .integer(levels)),
      ])
    return body["stackFrames"]?.elements.compactMap { $0["name"]?.stringValue } ?? []
  }

  /// The variables of `reference` (with `start`, `count` and `filter` when given).
  func variables(_ reference: Int, start: Int? = nil, count: Int? = nil, filter: String? = nil)
    -> [JSONValue]
  {
    var arguments = [JSONMember("variablesReference", .integer(reference))]
    if let start { arguments.append(JSONMember("start", .integer(start))) }
    if let count { arguments.append(JSONMember("count", .integer(count))) }
    if let filter { arguments.append(JSONMember("filter", .string(filter))) }
    return body("variables", arguments)["variables"]?.elements ?? []
  }

  /// The reference of the scope `name` of the frame of `position`.
  func scope(_ name: String, position: Int) -> Int {
    let scopes = body("scopes", [JSONMember("frameId", .integer(position + 1))])["scopes"]
    return scopes?.elements.first { $0["name"]?.stringValue == name }?["variablesReference"]?
      .intValue ?? 0
  }

  /// Checks `message` against the official schema's definition for it.
  static func validate(_ message: JSONValue, sourceLocation: SourceLocation = #_sourceLocation) {
    guard let validator = DAPSchemaValidator.official else { return }
    let name = validator.definitionName(of: message)
    let problems = validator.problems(of: message, against: name)
    #expect(
      problems.isEmpty, "\(name) does not conform: \(problems) in \(message.jsonText)",
      sourceLocation: sourceLocation)
  }
}

extension JSONValue {
  /// The elements of an array (empty for anything else).
  var elements: [JSONValue] {
    if case .array(let elements) = self { return elements }
    return []
  }
}

/// `name: value` as a string member.
func string(_ name: String, _ value: String) -> JSONMember { JSONMember(name, .string(value)) }
/// `name: value` as an integer member.
func integer(_ name: String, _ value: Int) -> JSONMember { JSONMember(name, .integer(value)) }
