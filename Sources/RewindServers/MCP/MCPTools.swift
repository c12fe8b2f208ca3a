import RewindJSON
import RewindReplay
import RewindReplayService

/// The MCP server's tools: a small, read-only set that summarises first and lets an agent drill
/// down (a log's summary, its actions a page at a time, a state a level at a time), each
/// answering with one typed request of the replay service and that response's one JSON form.
package enum MCPTools {
  /// Every tool, in the order `tools/list` gives them.
  package static let all: [MCPTool] = [
    logs, info, actions, action, state, diff, history, search, crash, verify, whereTool, profile,
  ]

  /// The largest value of a scalar `state` sends whole with its page (16 KiB).
  static let maxInlineValueBytes = 16 << 10

  // MARK: Helpers

  /// The arguments of a call of `tool`, checked against the names it takes.
  static func arguments(_ value: JSONValue?, of tool: MCPTool) throws(MCPArguments.Failure)
    -> MCPArguments
  {
    try MCPArguments(value, accepted: tool.arguments.map(\.name), tool: tool.name)
  }

  /// The service of the log the `log` argument names.
  static func service(_ arguments: MCPArguments, _ catalog: MCPLogCatalog)
    throws(MCPArguments.Failure) -> ReplayService
  {
    let name = try arguments.string("log")
    do throws(MCPLogCatalog.Failure) {
      return try catalog.service(for: try catalog.entry(named: name))
    } catch {
      throw MCPArguments.Failure(message: error.message)
    }
  }

  /// Runs `request` on `service`; its failure becomes the tool's error.
  static func perform<Request: ReplayRequest>(_ request: Request, on service: ReplayService)
    throws(MCPArguments.Failure) -> Request.Response
  {
    do { return try service.perform(request) } catch {
      throw MCPArguments.Failure(message: error.message)
    }
  }

  /// Moves the cursor of `service` to `position`, when one is given.
  static func move(_ service: ReplayService, to position: Int?) throws(MCPArguments.Failure) {
    guard let position, position != service.position else { return }
    _ = try perform(MoveRequest(.position(position)), on: service)
  }

  /// `value` as an object: itself, or `{"result": value}`.
  static func object(_ value: JSONValue) -> JSONValue {
    if case .object = value { return value }
    return .object([JSONMember("result", value)])
  }

  /// A JSON Schema of one type.
  static func type(_ name: String) -> JSONValue { .object([JSONMember("type", .string(name))]) }

  // MARK: The tools

  /// `logs`: the logs the server sees, a page at a time.
  static let logs = MCPTool(
    name: "logs", title: "List the logs",
    description: "Lists the Rewind logs this server can read (newest first): each one's name "
      + "(what the other tools take as 'log'), file:// URI, size and modification time. Start "
      + "here when the server serves a folder.",
    arguments: [
      .integer("offset", 0...Int(Int32.max), "The first log listed (default 0)."),
      .integer("limit", 1...500, "How many logs at most (default 100)."),
    ],
    resultProperties: [("count", type("integer")), ("logs", type("array"))]
  ) { arguments, catalog throws(MCPArguments.Failure) in
    let offset = try arguments.integer("offset", in: 0...Int(Int32.max)) ?? 0
    let limit = try arguments.integer("limit", in: 1...500) ?? 100
    let page = catalog.entries.dropFirst(offset).prefix(limit)
    var members = [
      JSONMember("count", .number(String(catalog.entries.count))),
      JSONMember(
        "logs",
        .array(
          page.map { entry in
            var members = [
              JSONMember("name", .string(entry.name)), JSONMember("uri", .string(entry.uri)),
              JSONMember("bytes", .number(String(entry.byteCount))),
            ]
            if let modified = entry.modified {
              members.append(JSONMember("modified", .string(modified.ISO8601Format())))
            }
            return .object(members)
          })),
    ]
    if offset + page.count < catalog.entries.count {
      members.append(JSONMember("nextOffset", .number(String(offset + page.count))))
    }
    return .object(members)
  }

  /// `info`: a log's summary.
  static let info = MCPTool(
    name: "info", title: "Summarise a log",
    description: "Summarises a log: its app and whether this replay binary knows it (without "
      + "the app, states come only from the recorded checkpoints), the action count and seq "
      + "range, checkpoints, whether it ended cleanly or was cut off (endReason, the fatal "
      + "signal recorded), the build that recorded it, and lines that failed to read.",
    arguments: [.log],
    resultProperties: [
      ("app", type("string")), ("actions", type("integer")), ("cleanEnd", type("boolean")),
    ]
  ) { arguments, catalog throws(MCPArguments.Failure) in
    let service = try service(arguments, catalog)
    return object(try perform(InfoRequest(), on: service).jsonValue)
  }

  /// `actions`: a page of actions.
  static let actions = MCPTool(
    name: "actions", title: "List actions",
    description: "Lists the log's actions in a seq range, optionally only one type or those "
      + "whose type or JSON holds a text: seq, time (seconds since recording began), type, the "
      + "action's JSON, and its call site and cause when recorded. Pages with 'nextFrom'.",
    arguments: [
      .log,
      .integer("from", 0...Int(Int32.max), "The first seq (default: the first action)."),
      .integer("to", 0...Int(Int32.max), "The last seq (default: the last action)."),
      .string("type", "Only actions of this type (an enum case or a type name)."),
      .string("text", "Only actions whose type or JSON contains this text."),
      .integer("limit", 1...ActionsRequest.maxLimit, "How many actions at most (default 100)."),
    ],
    resultProperties: [("actions", type("array")), ("lastSeq", type("integer"))]
  ) { arguments, catalog throws(MCPArguments.Failure) in
    let service = try service(arguments, catalog)
    var request = ActionsRequest(
      from: try arguments.integer("from", in: 0...Int(Int32.max)),
      to: try arguments.integer("to", in: 0...Int(Int32.max)),
      limit: try arguments.integer("limit", in: 1...ActionsRequest.maxLimit) ?? 100)
    if let type = try arguments.string("type") {
      request.query = .type(type)
    } else if let text = try arguments.string("text") {
      request.query = .text(text)
    }
    return try perform(request, on: service).jsonValue
  }

  /// `action`: one action, its origin and what it caused.
  static let action = MCPTool(
    name: "action", title: "Show one action",
    description: "Shows one action: its JSON, time and type, where it was dispatched (the "
      + "recorded call site), the action whose handling dispatched it, and the actions it "
      + "caused (when the app recorded origins).",
    arguments: [.log, .position("seq", "The action's seq.", required: true)],
    resultProperties: [("seq", type("integer"))]
  ) { arguments, catalog throws(MCPArguments.Failure) in
    let service = try service(arguments, catalog)
    guard let seq = try arguments.position("seq", in: service) else {
      throw MCPArguments.Failure(message: "'seq' is required")
    }
    return object(try perform(ActionRequest(seq: seq), on: service).jsonValue)
  }

  /// `state`: a state, a level at a time.
  static let state = MCPTool(
    name: "state", title: "Read a state",
    description: "Reads the app's state after an action, rebuilt with the app's reducer, one "
      + "level at a time: the value at 'path' with its kind, size and a page of its members or "
      + "elements (each with kind, size, a preview, and scalar values); 'value' holds the whole "
      + "value when it is small (16 KiB). Drill down by calling again with a child's path; page "
      + "with 'offset'. Paths: todos[2].title, todos[id=42].title (the element whose id is 42), "
      + "filter.",
    arguments: [
      .log, .position("at", "Which state (default: the last)."),
      .string("path", "Where in the state (default: the whole state)."),
      .integer("offset", 0...Int(Int32.max), "The first member or element listed (default 0)."),
      .integer(
        "limit", 1...ChildrenRequest.maxLimit, "How many members or elements (default 100)."),
    ],
    resultProperties: [
      ("position", type("integer")), ("path", type("string")), ("kind", type("string")),
      ("children", type("array")),
    ]
  ) { arguments, catalog throws(MCPArguments.Failure) in
    try readState(arguments, catalog)
  }

  /// The `state` tool's answer.
  private static func readState(_ arguments: MCPArguments, _ catalog: MCPLogCatalog)
    throws(MCPArguments.Failure) -> JSONValue
  {
    let service = try service(arguments, catalog)
    let asked = try arguments.position("at", in: service)
    var request = ChildrenRequest(
      try arguments.path("path") ?? .root, at: asked ?? service.log.lastSeq,
      offset: try arguments.integer("offset", in: 0...Int(Int32.max)) ?? 0,
      limit: try arguments.integer("limit", in: 1...ChildrenRequest.maxLimit) ?? 100)
    var note: String?
    let response: ChildrenResponse
    do {
      response = try service.perform(request)
    } catch {
      // Without 'at', a log whose last action crashes the reducer shows the state before it.
      guard asked == nil, case .debugger(.replay(.reducerCrashed(let report))) = error,
        let seq = report.seq, seq > service.log.positions.lowerBound
      else { throw MCPArguments.Failure(message: error.message) }
      request.position = seq - 1
      note =
        "the app's reducer crashes on action \(seq) (the 'crash' tool explains it): this is "
        + "the state before it"
      response = try perform(request, on: service)
    }
    guard case .object(var members) = response.jsonValue else { return response.jsonValue }
    if let note { members.append(JSONMember("note", .string(note))) }
    let position = response.position
    // A small value whole, read from the same text the page was (the service keeps it read a
    // level at a time): only the value's own bytes are parsed, not the state around it.
    if response.facts.byteCount <= maxInlineValueBytes,
      let document = try? service.stateDocument(at: position)
    {
      let start = document.start(at: request.path)
      let value =
        start.flatMap { start in
          try? JSONParser.parse(
            Array(document.text[start..<(start + response.facts.byteCount)]), limits: .unlimited)
        } ?? (try? request.path.value(inText: document.text))
      if let value { members.append(JSONMember("value", value)) }
    }
    return .object(members)
  }

  /// `diff`: what changed between two states, or between two logs.
  static let diff = MCPTool(
    name: "diff", title: "Diff two states or two logs",
    description: "What changed between two states of a log, as JSON Patch-like changes (op, "
      + "path, old and new values): by default what the action at 'to' changed. With 'other' "
      + "(another log), where the two sessions first differ, in actions and in states.",
    arguments: [
      .log, .position("from", "The earlier state (default: the one before 'to')."),
      .position("to", "The later state (default: the last)."),
      .string("other", "Another log to compare with this one (name, path or URI)."),
    ],
    resultProperties: []
  ) { arguments, catalog throws(MCPArguments.Failure) in
    let service = try service(arguments, catalog)
    if let other = try arguments.string("other") {
      let entry: MCPLogCatalog.Entry
      do throws(MCPLogCatalog.Failure) { entry = try catalog.entry(named: other) } catch {
        throw MCPArguments.Failure(message: "'other': \(error.message)")
      }
      let otherLog: ReplayLog
      do throws(ReplayError) { otherLog = try ReplayLog(path: entry.path) } catch {
        throw MCPArguments.Failure(message: "'other': \(entry.name): \(error.message)")
      }
      return object(try perform(CompareRequest(with: otherLog), on: service).jsonValue)
    }
    let to = try arguments.position("to", in: service) ?? service.log.lastSeq
    let from = try arguments.position("from", in: service) ?? max(to - 1, 0)
    return object(try perform(DiffRequest(.between(from, to)), on: service).jsonValue)
  }

  /// `history`: every change of a value.
  static let history = MCPTool(
    name: "history", title: "History of a value",
    description: "Every action that changed the value at 'path' (or anything under it), "
      + "oldest first, each with the value before and after: the answer to 'why is this value "
      + "wrong'. todos[id=42].title follows that todo wherever it moves.",
    arguments: [
      .log, .string("path", "The value's path in the state.", required: true),
      .position("from", "The first position looked at (default: the first)."),
      .position("to", "The last position looked at (default: the last)."),
      .integer("limit", 1...1000, "How many changes at most (default 100)."),
    ],
    resultProperties: []
  ) { arguments, catalog throws(MCPArguments.Failure) in
    let service = try service(arguments, catalog)
    guard let path = try arguments.path("path") else {
      throw MCPArguments.Failure(message: "'path' is required")
    }
    let request = HistoryRequest(
      path, from: try arguments.position("from", in: service),
      to: try arguments.position("to", in: service),
      limit: try arguments.integer("limit", in: 1...1000) ?? 100)
    return object(try perform(request, on: service).jsonValue)
  }

  /// `search`: a text or a value inside the state, here or across time.
  static let search = MCPTool(
    name: "search", title: "Search the state",
    description: "Finds a text or a value inside a state: every key or value containing the "
      + "text (ASCII case ignored), or every member NAME whose value is VALUE with "
      + "'NAME=VALUE' (JSON: id=42, title=\"Buy milk\"). With direction 'forward' or "
      + "'backward', finds the next position where the state starts or stops having a match, "
      + "and the action that made it.",
    arguments: [
      .log, .string("query", "TEXT, or NAME=VALUE.", required: true),
      .position("at", "Which state, or where a search across time starts (default: the last)."),
      .string(
        "direction",
        "'here' (default): matches in the state at 'at'; 'forward'/'backward': "
          + "across time.", choices: ["here", "forward", "backward"]),
    ],
    resultProperties: []
  ) { arguments, catalog throws(MCPArguments.Failure) in
    let service = try service(arguments, catalog)
    let query = try arguments.required("query")
    try move(service, to: try arguments.position("at", in: service) ?? service.log.lastSeq)
    let direction: TimelineSearch.Direction?
    switch try arguments.choice("direction", of: ["here", "forward", "backward"]) {
    case "forward": direction = .forward
    case "backward": direction = .backward
    default: direction = nil
    }
    return object(
      try perform(SearchRequest(StateQuery(parsing: query), direction), on: service).jsonValue)
  }

  /// `crash`: how the log ends.
  static let crash = MCPTool(
    name: "crash", title: "Explain the crash",
    description: "Replays the log to its end and reports the crash of the app's reducer there, "
      + "if any: the crashing action (seq, type, JSON), the fatal-error message and where it "
      + "was raised, and the app's frames; null when the last action replays cleanly (the app "
      + "stopped elsewhere). The log's recorded ending (signal, end reason) is in 'info'.",
    arguments: [.log],
    resultProperties: [("position", type("integer"))]
  ) { arguments, catalog throws(MCPArguments.Failure) in
    let service = try service(arguments, catalog)
    let motion = try perform(MoveRequest(.position(service.log.lastSeq)), on: service)
    guard case .object(var members) = motion.jsonValue else { return object(motion.jsonValue) }
    if motion.crash == nil { members.append(JSONMember("crash", .null)) }
    return .object(members)
  }

  /// `verify`: whether the log replays as recorded.
  static let verify = MCPTool(
    name: "verify", title: "Verify the replay",
    description: "Replays the whole log from its initial state and checks every recorded "
      + "checkpoint against the rebuilt state: whether this build's reducer reproduces the "
      + "session (nondeterminism or a changed reducer shows as the first divergence).",
    arguments: [.log],
    resultProperties: []
  ) { arguments, catalog throws(MCPArguments.Failure) in
    object(try perform(VerifyRequest(), on: try service(arguments, catalog)).jsonValue)
  }

  /// `where`: an action's call site.
  static let whereTool = MCPTool(
    name: "where", title: "Where an action was dispatched",
    description: "The source file and line where the app dispatched an action (recorded when "
      + "the app records origins), found under 'source' when given.",
    arguments: [
      .log, .position("seq", "The action's seq (default: the last)."),
      .string("source", "A folder to find the file under (the app's sources)."),
    ],
    resultProperties: []
  ) { arguments, catalog throws(MCPArguments.Failure) in
    let service = try service(arguments, catalog)
    let request = WhereRequest(
      seq: try arguments.position("seq", in: service) ?? service.log.lastSeq,
      sourceRoot: try arguments.string("source"))
    return object(try perform(request, on: service).jsonValue)
  }

  /// `profile`: what each action type costs the reducer.
  static let profile = MCPTool(
    name: "profile", title: "Profile the reducer",
    description: "Replays the log 'repeat' times timing each reducer call (each action's least "
      + "time) and reports per action type the count, total, p50, p99 and max, slowest first, "
      + "then the slowest actions with their seqs: 'which action is slow'.",
    arguments: [
      .log, .integer("repeat", 1...10, "How many replays (default 3)."),
      .integer("top", 0...100, "How many slowest actions to list (default 10)."),
      .string("type", "Only actions of this type."),
    ],
    resultProperties: []
  ) { arguments, catalog throws(MCPArguments.Failure) in
    let service = try service(arguments, catalog)
    var request = ProfileRequest(type: try arguments.string("type"))
    request.passes = try arguments.integer("repeat", in: 1...10) ?? 3
    request.top = try arguments.integer("top", in: 0...100) ?? 10
    return object(try perform(request, on: service).jsonValue)
  }
}
