import RewindJSON
import RewindReplay
import RewindReplayService

extension DAPSession {
  /// The longest text a console command's answer holds (1 MiB); a longer one is cut, saying
  /// how to page.
  static let maxResultBytes = 1 << 20

  /// `evaluate`: in the debug console (`context` `"repl"` or none), any session command
  /// (`print todos[0]`, `history todos.count`, `watch filter`), answered with the text the
  /// session shows (a command that moves the cursor stops there, as a step does); in a watch,
  /// a hover or a copy, a state path's value at the frame's position (the cursor's without a
  /// frame): a scalar's JSON, or a container's preview to expand a level at a time.
  func evaluate(_ request: DAPRequest) throws(DAPError) -> JSONValue? {
    let service = try service(request)
    guard let expression = request.string("expression") else {
      throw DAPError(
        .badArguments,
        "'evaluate' needs an 'expression': a session command in the debug "
          + "console, a state path in a watch", request: request)
    }
    let context = request.string("context") ?? "repl"
    if context == "repl" {
      return try runCommand(expression, service: service, request)
    }
    let position =
      request.integer("frameId") != nil
      ? try framePosition(request, service: service) : service.position
    let path: JSONPath
    do throws(StatePathError) { path = try JSONPath.parse(expression) } catch {
      throw DAPError(.badArguments, error.messageWithSuggestion, request: request)
    }
    let response: ChildrenResponse
    do throws(ReplayFailure) {
      response = try service.perform(ChildrenRequest(path, at: position, offset: 0, limit: 1))
    } catch {
      // A path that names no value of the text (`todos.count`) is computed by the debugger.
      if case .usage = error,
        let value = try? service.debugger.value(at: path, position: position)
      {
        return .object([
          JSONMember("result", .string(scalarText(value))),
          JSONMember("type", .string(value.kindName)),
          JSONMember("variablesReference", .integer(0)),
        ])
      }
      throw DAPError(.replayFailure, error.message, request: request)
    }
    let facts = response.facts
    var members = [
      JSONMember("result", .string(facts.value.map(scalarText) ?? facts.preview)),
      JSONMember("type", .string(facts.kind)),
    ]
    var reference = 0
    if let count = facts.count, count > 0 {
      reference = references.reference(to: .state(position: position, path: path))
      members.append(
        JSONMember(facts.kind == "array" ? "indexedVariables" : "namedVariables", .integer(count)))
    }
    members.append(JSONMember("variablesReference", .integer(reference)))
    return .object(members)
  }

  /// Runs the session command `line` (words split at spaces and tabs, as the session splits
  /// them) and answers with its text.
  private func runCommand(_ line: String, service: ReplayService, _ request: DAPRequest)
    throws(DAPError) -> JSONValue?
  {
    let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
    let response: any ReplayResponse
    do throws(ReplayFailure) {
      let parsed = try service.request(words)
      response = try service.perform(parsed)
    } catch {
      throw DAPError(
        .replayFailure, configuration.renderFailure(service, error), request: request)
    }
    if response is QuitResponse {
      throw DAPError(
        .unsupported,
        "'quit' does not end a debug session: stop it from the editor "
          + "(disconnect)", request: request)
    }
    var text = configuration.renderResponse(service, response)
    if text.utf8.count > Self.maxResultBytes {
      text =
        String(decoding: text.utf8.prefix(Self.maxResultBytes), as: UTF8.self)
        + "\n… (cut at \(Self.maxResultBytes) bytes: page a large value with 'members PATH "
        + "--offset N', or expand it in the Variables pane)"
    }
    // The cursor moved: the client refreshes its frames and variables at the new stop.
    if let motion = response as? MotionResponse {
      stop(after: motion, reason: "goto")
    } else if let run = response as? StopResponse {
      if let crash = run.crash {
        stopAtCrash(crash, position: run.landing.position)
      } else {
        stop(
          reason: run.stop.hitIDs.isEmpty ? "pause" : breakpoints.reason(for: run.stop.hitIDs),
          description: "at position \(run.landing.position)" + actionText(run.landing),
          hitBreakpointIDs: run.stop.hitIDs)
      }
    }
    return .object([
      JSONMember("result", .string(text)), JSONMember("variablesReference", .integer(0)),
    ])
  }
}

extension Debugger.Stop {
  /// The ids of the watchpoints and breakpoints that triggered.
  fileprivate var hitIDs: [Int] {
    if case .breakpoints(_, let reasons) = self { return reasons.map(\.id) }
    return []
  }
}
