import Foundation
import RewindJSON
import RewindReplay
import RewindReplayService

/// One Debug Adapter Protocol session over one log: it answers each request a client sends
/// (``handle(_:)``) with the messages to send back — the response first, then any events — and
/// does every piece of work through the replay service's typed requests.
///
/// The log is a timeline with one thread (id 1, `"timeline"`): the cursor is where it is
/// stopped, each action is a frame (the one at the cursor first, then the ones before it), and
/// stepping moves the cursor one action forward or back. The session is used from one thread.
package final class DAPSession {
  /// What the session needs from the program that runs it.
  package struct Configuration {
    /// The apps whose logs can be replayed.
    package var apps: [ReplayApp]
    /// Whether the app's reducer runs in a child process when `launch` does not say
    /// (`"isolate"`), as the command line's default.
    package var isolatesByDefault: Bool
    /// The folder call sites (`Module/File.swift`) are looked for under when `launch` gives no
    /// `"sourceRoot"`: the adapter's working folder.
    package var sourceRoot: String
    /// The text of a response of a command typed in the debug console, as the session shows it.
    package var renderResponse: (ReplayService, any ReplayResponse) -> String
    /// The text of a failed command typed in the debug console.
    package var renderFailure: (ReplayService, ReplayFailure) -> String

    /// A configuration; the renderings default to the responses' JSON and the failures'
    /// messages.
    package init(
      apps: [ReplayApp], isolatesByDefault: Bool, sourceRoot: String = ".",
      renderResponse: @escaping (ReplayService, any ReplayResponse) -> String = { _, response in
        response.jsonValue.jsonText
      },
      renderFailure: @escaping (ReplayService, ReplayFailure) -> String = { _, failure in
        failure.message
      }
    ) {
      self.apps = apps
      self.isolatesByDefault = isolatesByDefault
      self.sourceRoot = sourceRoot
      self.renderResponse = renderResponse
      self.renderFailure = renderFailure
    }
  }

  /// The one thread's id.
  package static let threadID = 1

  /// What the session needs from the program.
  let configuration: Configuration
  /// The service of the launched log.
  var service: ReplayService?
  /// The log's path, as `launch` gave it.
  var logPath = ""
  /// Where call sites are looked for.
  var sourceRoot: String
  /// Whether `launch` asked to stop at the first position.
  var stopsOnEntry = true
  /// Whether `configurationDone` came.
  var isConfigured = false
  /// Whether the first stop (or run) after launch and configuration was made.
  var hasStarted = false
  /// The crash of the last stop, for `exceptionInfo`.
  var lastCrash: CrashReport?
  /// The containers the client may ask for by `variablesReference`, reset at every stop.
  var references = DAPVariableTable()
  /// Which DAP breakpoints the debugger's watchpoints and breakpoints are.
  var breakpoints = DAPBreakpointSet()
  /// The files call sites were found in (absolute paths), by the site's file.
  var locatedSources: [String: String?] = [:]
  /// Events to send after the response being made.
  private var pendingEvents: [JSONValue] = []
  /// The next outgoing `seq`.
  private var nextSeq = 1
  /// Whether the client disconnected: the server's loop ends.
  package private(set) var isFinished = false

  /// A session with `configuration`, before `initialize`.
  package init(configuration: Configuration) {
    self.configuration = configuration
    sourceRoot = configuration.sourceRoot
  }

  /// The messages answering `message`: its response (a failed one when it is no request or
  /// cannot be done), then the events it caused, each with its `seq`.
  package func handle(_ message: JSONValue) -> [JSONValue] {
    let response: JSONValue
    do throws(DAPError) {
      let request = try DAPRequest(message)
      response = DAPMessage.response(to: request, body: try answer(request))
    } catch {
      // A message without a `seq` cannot be answered by a response (`request_seq` is 1 or more).
      guard error.seq >= 1 else {
        pendingEvents.removeAll()
        return [unreadable(error.message)]
      }
      response = DAPMessage.errorResponse(error)
    }
    let events = pendingEvents
    pendingEvents.removeAll()
    return ([response] + events).map(numbered)
  }

  /// The message telling the client that a message could not be read (bad framing, a body
  /// over the limit, JSON that does not parse): an `output` event in the debug console (the
  /// protocol has no failed response to a request whose `seq` was never read).
  package func unreadable(_ reason: String) -> JSONValue {
    numbered(
      DAPMessage.output(
        "error: a message could not be read: \(reason). Each message is 'Content-Length: N', "
          + "an empty line, then N bytes of one JSON request.", category: "important"))
  }

  /// `message` with the next `seq`.
  private func numbered(_ message: JSONValue) -> JSONValue {
    defer { nextSeq += 1 }
    return DAPMessage.numbered(message, seq: nextSeq)
  }

  /// Sends `event` after the response being made.
  func send(_ event: JSONValue) { pendingEvents.append(event) }

  /// The body of the response to `request`.
  /// - Throws: ``DAPError`` when it cannot be done.
  private func answer(_ request: DAPRequest) throws(DAPError) -> JSONValue? {
    switch request.command {
    case "initialize":
      return DAPCapabilities.jsonValue
    case "launch": return try launch(request)
    case "attach":
      throw DAPError(
        .unsupported,
        "'attach' has nothing to attach to: a log is read, not a running app; "
          + "use 'launch' with a 'log' path", request: request)
    case "configurationDone":
      isConfigured = true
      startIfReady()
      return nil
    case "threads":
      return .object([
        JSONMember(
          "threads",
          .array([
            .object([
              JSONMember("id", .integer(Self.threadID)), JSONMember("name", .string("timeline")),
            ])
          ]))
      ])
    case "disconnect", "terminate":
      isFinished = request.command == "disconnect"
      if request.command == "terminate" { send(DAPMessage.event("terminated")) }
      return nil
    case "pause":
      try requireService(request)
      stop(reason: "pause", description: "paused at position \(try service(request).position)")
      return nil
    case "next", "stepIn": return try move(.steps(1), reason: "step", request)
    case "stepBack": return try move(.steps(-1), reason: "step", request)
    case "stepOut", "continue": return try run(.forward, request)
    case "reverseContinue": return try run(.backward, request)
    case "goto": return try goto(request)
    case "gotoTargets": return try gotoTargets(request)
    case "stackTrace": return try stackTrace(request)
    case "scopes": return try scopes(request)
    case "variables": return try variables(request)
    case "setFunctionBreakpoints": return try setFunctionBreakpoints(request)
    case "setBreakpoints": return try setBreakpoints(request)
    case "setExceptionBreakpoints": return .object([JSONMember("breakpoints", .array([]))])
    case "dataBreakpointInfo": return try dataBreakpointInfo(request)
    case "setDataBreakpoints": return try setDataBreakpoints(request)
    case "evaluate": return try evaluate(request)
    case "exceptionInfo": return try exceptionInfo(request)
    case "setVariable", "setExpression":
      throw DAPError(
        .unsupported,
        "a log is history: its states cannot be changed. To try another value, "
          + "record a new session (or use 'skip N' in the debug console to replay without an "
          + "action)", request: request)
    default:
      throw DAPError(
        .unsupported,
        "unknown command '\(request.command)': this adapter answers "
          + DAPCapabilities.commands.joined(separator: ", "), request: request)
    }
  }

  /// The launched log's service.
  /// - Throws: ``DAPError`` saying to launch first.
  func service(_ request: DAPRequest) throws(DAPError) -> ReplayService {
    guard let service else {
      throw DAPError(
        .notLaunched, "no log is open: send 'launch' with a 'log' path first", request: request)
    }
    return service
  }

  /// Checks a log is open.
  func requireService(_ request: DAPRequest) throws(DAPError) {
    _ = try service(request)
  }

  /// Opens the log `launch` names.
  private func launch(_ request: DAPRequest) throws(DAPError) -> JSONValue? {
    guard service == nil else {
      throw DAPError(
        .badArguments,
        "a log is open already: one session debugs one log; disconnect and "
          + "launch again", request: request)
    }
    guard let path = request.string("log"), !path.isEmpty else {
      throw DAPError(
        .badArguments,
        "'launch' needs the log to replay: add \"log\": \"path/to/session.jsonl\" "
          + "to the launch configuration", request: request)
    }
    var recovery = RecoveryMode.tail
    if let name = request.string("recovery") {
      guard let mode = RecoveryMode(rawValue: name) else {
        throw DAPError(
          .badArguments,
          "unknown recovery mode '\(name)': use one of "
            + RecoveryMode.allCases.map(\.rawValue).joined(separator: ", "), request: request)
      }
      recovery = mode
    }
    let isolates = request.bool("isolate") ?? configuration.isolatesByDefault
    stopsOnEntry = request.bool("stopOnEntry") ?? true
    if let root = request.string("sourceRoot") { sourceRoot = root }
    do throws(ReplayError) {
      let opened = try OpenedLog(
        path: path, recovery: recovery, apps: configuration.apps,
        isolation: isolates ? .worker(interactive: true) : .inProcess)
      service = ReplayService(opened: opened)
      logPath = path
      if let reason = opened.noTimelineReason {
        send(DAPMessage.output("note: " + reason.description, category: "important"))
      }
    } catch {
      throw DAPError(
        .replayFailure, "cannot open the log '\(path)': \(error.description)", request: request)
    }
    // Ready for the breakpoints: they need the open log, so `initialized` comes only now.
    send(DAPMessage.event("initialized"))
    startIfReady()
    return nil
  }

  /// After `launch` and `configurationDone` (in either order): stops at the first position, or
  /// with `stopOnEntry: false` runs forward as `continue` does.
  private func startIfReady() {
    guard let service, isConfigured, !hasStarted else { return }
    hasStarted = true
    if stopsOnEntry {
      stop(
        reason: "entry",
        description: "at position \(service.position), the "
          + (service.position == service.log.positions.lowerBound
            ? "initial state" : "first state known"))
    } else {
      runForward(service)
    }
  }

  /// `path` from the root: as it is when absolute, else under the working folder.
  static func absolutePath(_ path: String) -> String {
    path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
  }
}
