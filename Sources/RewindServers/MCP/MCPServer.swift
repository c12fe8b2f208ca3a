import RewindJSON
import RewindReplay
import RewindReplayService

/// `replay mcp`: a Model Context Protocol server on stdio — newline-delimited JSON-RPC 2.0 —
/// over one log or a folder of logs, for coding agents.
///
/// It speaks both eras of the protocol, as the official SDKs do: the stateless revision
/// 2026-07-28 (`server/discover`; each request names its version in `_meta`; every result
/// carries `resultType`) and, through the `initialize` handshake, 2025-11-25 and the revisions
/// before it. Its tools (``MCPTools``) are read-only and each answers through the replay
/// service's typed requests; its resources are the logs it sees (a resource reads as the log's
/// summary, never the raw log). Input is hostile by default: a line longer than
/// ``maxMessageBytes`` is skipped with an error, a message begun must finish within the
/// transport's time limit, and no reply is larger than ``maxResultBytes``.
package final class MCPServer {
  /// The revision of the stateless era this server speaks.
  package static let modernVersion = "2026-07-28"
  /// The revisions reachable through `initialize`, newest first.
  package static let handshakeVersions = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]
  /// The longest request line read (1 MiB): tool arguments are small.
  package static let maxMessageBytes = 1 << 20
  /// The largest tool result sent (1 MiB of JSON); a larger one is a tool error that says how to
  /// narrow the call.
  package static let maxResultBytes = 1 << 20
  /// The `_meta` key of a request's protocol version (2026-07-28).
  static let versionKey = "io.modelcontextprotocol/protocolVersion"

  /// The logs served.
  package let catalog: MCPLogCatalog
  /// The server's name and version, as `serverInfo` gives them.
  package let serverInfo: JSONValue
  /// The revision `initialize` agreed on, when a client used the handshake.
  package private(set) var negotiatedVersion: String?

  /// A server over `catalog`, calling itself `name` `version`.
  package init(catalog: MCPLogCatalog, name: String = "replay", version: String) {
    self.catalog = catalog
    serverInfo = .object([
      JSONMember("name", .string(name)), JSONMember("title", .string("Rewind replay")),
      JSONMember("version", .string(version)),
    ])
  }

  /// Serves requests from `input` until it ends or `output` closes; each answer is written
  /// before the next line is read.
  package func run(input: MessageInput, output: MessageOutput) {
    while !output.isClosed {
      let line: [UInt8]?
      do {
        line = try input.readLine(maxBytes: Self.maxMessageBytes, startsMessage: true)
      } catch {
        switch error {
        case .tooLong, .timedOut:
          output.write(JSONRPCMessage.error(.invalidRequest, error.message, id: .null))
          continue
        case .endedInsideMessage, .readFailed:
          return
        }
      }
      guard let line else { return }
      if let reply = handle(line: line) { output.write(reply) }
    }
  }

  /// The reply to one line, or `nil` for a notification, a response or an empty line.
  package func handle(line: [UInt8]) -> [UInt8]? {
    if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return nil }
    let value: JSONValue
    do {
      value = try JSONParser.parse(line, limits: .default)
    } catch {
      return JSONRPCMessage.error(
        .parseError, "not JSON at byte \(error.offset) of the line: \(error.description)",
        id: .null)
    }
    let message: JSONRPCMessage
    do { message = try JSONRPCMessage(value) } catch {
      return JSONRPCMessage.error(.invalidRequest, error.message, id: error.id)
    }
    guard case .request(let id, let method, let params) = message else { return nil }
    switch answer(method: method, params: params) {
    case .success(let result): return JSONRPCMessage.result(result, id: id)
    case .failure(let failure):
      return JSONRPCMessage.error(failure.code, failure.message, id: id, data: failure.data)
    }
  }

  /// A protocol error: its code, message and data.
  struct ProtocolFailure: Error {
    var code: JSONRPCMessage.ErrorCode
    var message: String
    var data: JSONValue? = nil
  }

  /// The result of `method` with `params`, or its protocol error.
  private func answer(method: String, params: JSONValue?) -> Result<JSONValue, ProtocolFailure> {
    // 2026-07-28: a request names its revision; one this server does not speak is refused with
    // the ones it does.
    let requested = params?["_meta"]?[Self.versionKey]
    let isModern: Bool
    switch requested {
    case nil: isModern = false
    case .string(Self.modernVersion)?: isModern = true
    case let other?:
      return .failure(unsupported(other))
    }
    switch method {
    case "initialize":
      return .success(initialize(params))
    case "server/discover":
      return .success(
        modern(
          [
            JSONMember(
              "supportedVersions",
              .array(([Self.modernVersion] + Self.handshakeVersions).map { .string($0) })),
            JSONMember("capabilities", capabilities),
            JSONMember("instructions", .string(instructions)),
          ] + cacheMembers))
    case "ping":
      return .success(.object([]))
    case "tools/list":
      return .success(
        result(
          [JSONMember("tools", .array(MCPTools.all.map(\.listing)))] + cacheMembers,
          modern: isModern))
    case "tools/call":
      return callTool(params).map { result($0, modern: isModern) }
    case "resources/list":
      return .success(
        result([JSONMember("resources", .array(resources))] + cacheMembers, modern: isModern))
    case "resources/templates/list":
      return .success(
        result([JSONMember("resourceTemplates", .array([]))] + cacheMembers, modern: isModern))
    case "resources/read":
      return readResource(params).map { result($0 + cacheMembers, modern: isModern) }
    default:
      return .failure(
        ProtocolFailure(
          code: .methodNotFound,
          message: "no method '\(method)': this server answers initialize, server/discover, "
            + "ping, tools/list, tools/call, resources/list, resources/templates/list and "
            + "resources/read"))
    }
  }

  /// The -32022 error for a revision this server does not speak.
  private func unsupported(_ requested: JSONValue) -> ProtocolFailure {
    ProtocolFailure(
      code: .unsupportedProtocolVersion,
      message: "protocol version \(requested.jsonText) is not supported; this server speaks "
        + ([Self.modernVersion] + Self.handshakeVersions).joined(separator: ", "),
      data: .object([
        JSONMember(
          "supported", .array(([Self.modernVersion] + Self.handshakeVersions).map { .string($0) })),
        JSONMember("requested", requested),
      ]))
  }

  /// The answer to `initialize`: the client's revision when this server speaks it through the
  /// handshake, else the newest it does.
  private func initialize(_ params: JSONValue?) -> JSONValue {
    var version = Self.handshakeVersions[0]
    if case .string(let asked)? = params?["protocolVersion"], Self.handshakeVersions.contains(asked)
    {
      version = asked
    }
    negotiatedVersion = version
    return .object([
      JSONMember("protocolVersion", .string(version)),
      JSONMember("capabilities", capabilities), JSONMember("serverInfo", serverInfo),
      JSONMember("instructions", .string(instructions)),
    ])
  }

  /// What the server offers: tools and resources, neither of which changes while it runs.
  private var capabilities: JSONValue {
    .object([
      JSONMember("tools", .object([JSONMember("listChanged", .bool(false))])),
      JSONMember(
        "resources",
        .object([JSONMember("listChanged", .bool(false)), JSONMember("subscribe", .bool(false))])),
    ])
  }

  /// The guidance an agent reads first.
  private var instructions: String {
    "Rewind replay: read-only tools over recorded sessions of a Redux-like Swift app (every "
      + "action, and every state rebuilt with the app's reducer). Summarise first: 'info' (or "
      + "'logs' for a folder), then 'crash' for how the log ends, 'actions' a page at a time, "
      + "'state' a level at a time (drill down by path), 'history' for why a value is what it "
      + "is, 'search', 'diff', 'where'/'action' for who dispatched an action, 'profile' for "
      + "slow actions, 'verify' for whether the replay reproduces the recording."
  }

  /// `ttlMs` and `cacheScope` (2026-07-28): nothing cached; a log's answers are the user's.
  private var cacheMembers: [JSONMember] {
    [JSONMember("ttlMs", .number("0")), JSONMember("cacheScope", .string("private"))]
  }

  /// A result of the modern era: `resultType` and the server's name in `_meta`.
  private func modern(_ members: [JSONMember]) -> JSONValue {
    .object(
      members + [
        JSONMember("resultType", .string("complete")),
        JSONMember(
          "_meta", .object([JSONMember("io.modelcontextprotocol/serverInfo", serverInfo)])),
      ])
  }

  /// A result: with `resultType` always (older peers ignore it), and the modern `_meta` for a
  /// request of the stateless era.
  private func result(_ members: [JSONMember], modern isModern: Bool) -> JSONValue {
    if isModern { return modern(members) }
    return .object(members + [JSONMember("resultType", .string("complete"))])
  }

  /// The members of a `tools/call` result: the tool's JSON as structured content and as text,
  /// or its error (`isError`) with the message an agent corrects its call by.
  private func callTool(_ params: JSONValue?) -> Result<[JSONMember], ProtocolFailure> {
    guard case .string(let name)? = params?["name"] else {
      return .failure(
        ProtocolFailure(code: .invalidParams, message: "tools/call needs 'name' (a string)"))
    }
    guard let tool = MCPTools.all.first(where: { $0.name == name }) else {
      let suggestion = closestMatch(to: name, in: MCPTools.all.map(\.name))
      return .failure(
        ProtocolFailure(
          code: .invalidParams,
          message: "no tool '\(name)'" + (suggestion.map { " — did you mean '\($0)'?" } ?? "")
            + " (tools: \(MCPTools.all.map(\.name).joined(separator: ", ")))"))
    }
    let structured: JSONValue
    do {
      let arguments = try MCPTools.arguments(params?["arguments"], of: tool)
      structured = try tool.run(arguments, catalog)
    } catch {
      return .success(toolError(error.message))
    }
    let text = structured.jsonText
    guard text.utf8.count <= Self.maxResultBytes else {
      return .success(
        toolError(
          "the result is \(text.utf8.count) bytes, more than the \(Self.maxResultBytes) a "
            + "reply may hold: narrow the call (a path in the state, a smaller 'limit', nearer "
            + "positions)"))
    }
    return .success([
      JSONMember(
        "content",
        .array([.object([JSONMember("type", .string("text")), JSONMember("text", .string(text))])])),
      JSONMember("structuredContent", structured), JSONMember("isError", .bool(false)),
    ])
  }

  /// A tool error's result members.
  private func toolError(_ message: String) -> [JSONMember] {
    [
      JSONMember(
        "content",
        .array([
          .object([JSONMember("type", .string("text")), JSONMember("text", .string(message))])
        ])),
      JSONMember("isError", .bool(true)),
    ]
  }

  /// The logs as resources.
  private var resources: [JSONValue] {
    catalog.entries.prefix(1000).map { entry in
      .object([
        JSONMember("uri", .string(entry.uri)), JSONMember("name", .string(entry.name)),
        JSONMember(
          "description",
          .string(
            "A Rewind log; reads as its summary (the 'info' tool). Tools take its name as 'log'.")),
        JSONMember("mimeType", .string("application/json")),
        JSONMember("size", .number(String(entry.byteCount))),
      ])
    }
  }

  /// `resources/read`: a log's summary as JSON.
  private func readResource(_ params: JSONValue?) -> Result<[JSONMember], ProtocolFailure> {
    guard case .string(let uri)? = params?["uri"] else {
      return .failure(
        ProtocolFailure(code: .invalidParams, message: "resources/read needs 'uri' (a string)"))
    }
    guard let entry = catalog.entries.first(where: { $0.uri == uri }) else {
      return .failure(
        ProtocolFailure(
          code: .invalidParams,
          message: "no resource '\(uri)': resources/list gives the logs' file:// URIs"))
    }
    let summary: JSONValue
    do {
      summary = try MCPTools.info.run(
        try MCPArguments(
          .object([JSONMember("log", .string(entry.name))]), accepted: ["log"], tool: "info"),
        catalog)
    } catch {
      return .failure(ProtocolFailure(code: .internalError, message: error.message))
    }
    return .success([
      JSONMember(
        "contents",
        .array([
          .object([
            JSONMember("uri", .string(uri)), JSONMember("mimeType", .string("application/json")),
            JSONMember("text", .string(summary.jsonText)),
          ])
        ]))
    ])
  }
}
