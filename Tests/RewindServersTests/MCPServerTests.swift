import Foundation
import Rewind
import RewindJSON
import RewindReplay
import RewindReplayService
import RewindTestSupport
import Testing

@testable import RewindServers

/// `replay mcp` at the protocol level: both eras' handshakes, tool calls answered from the
/// service, and hostile input answered with protocol errors (the SDK drives whole sessions in
/// `Scripts/mcp-sdk-check.py`).
@Suite struct MCPServerTests {
  /// A server over `Fixtures/<name>` (or the folder), reducers in the `replay` binary's worker
  /// process (the crash fixture's reducer traps).
  static func server(_ name: String = "todo-crash.jsonl") throws -> MCPServer {
    try DAPTestClient.useReplayBinaryAsWorker()
    let catalog = try MCPLogCatalog(
      path: Repository.root.appendingPathComponent("Fixtures/\(name)").path,
      apps: DAPTestClient.apps, recovery: .tail, isolation: .worker(interactive: false))
    return MCPServer(catalog: catalog, version: "test")
  }

  /// The reply of `server` to `line`, parsed.
  static func reply(_ server: MCPServer, _ line: String) throws -> JSONValue? {
    guard let bytes = server.handle(line: Array(line.utf8)) else { return nil }
    #expect(bytes.last == UInt8(ascii: "\n"))
    #expect(!bytes.dropLast().contains(UInt8(ascii: "\n")), "one reply, one line")
    return try JSONParser.parse(Array(bytes.dropLast()), limits: .default)
  }

  @Test func theHandshakeAgreesOnTheClientsRevisionOrTheNewest() throws {
    let server = try Self.server()
    let asked = try Self.reply(
      server,
      #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#
    )
    #expect(asked?["result"]?["protocolVersion"] == .string("2025-06-18"))
    #expect(asked?["result"]?["capabilities"]?["tools"] != nil)
    let unknown = try Self.reply(
      server,
      #"{"jsonrpc":"2.0","id":"a","method":"initialize","params":{"protocolVersion":"1999-01-01"}}"#
    )
    #expect(unknown?["id"] == .string("a"))
    #expect(unknown?["result"]?["protocolVersion"] == .string("2025-11-25"))
  }

  @Test func theStatelessEraIsDiscoveredAndAnUnknownRevisionRefused() throws {
    let server = try Self.server()
    let discover = try Self.reply(
      server,
      #"{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#
    )
    #expect(discover?["result"]?["supportedVersions"]?.arrayValue?.first == .string("2026-07-28"))
    #expect(discover?["result"]?["resultType"] == .string("complete"))
    #expect(discover?["result"]?["cacheScope"] == .string("private"))
    let refused = try Self.reply(
      server,
      #"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2099-01-01"}}}"#
    )
    #expect(refused?["error"]?["code"] == .number("-32022"))
    #expect(refused?["error"]?["data"]?["requested"] == .string("2099-01-01"))
  }

  @Test func aToolAnswersWithStructuredContentAndTheSameText() throws {
    let server = try Self.server()
    let reply = try Self.reply(
      server,
      #"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"crash","arguments":{}}}"#)
    let result = reply?["result"]
    #expect(result?["isError"] == .bool(false))
    #expect(result?["structuredContent"]?["crash"]?["seq"] == .number("38"))
    #expect(result?["structuredContent"]?["crash"]?["message"] == .string("Index out of range"))
    guard case .string(let text)? = result?["content"]?.arrayValue?.first?["text"] else {
      Issue.record("no text content")
      return
    }
    #expect(
      try JSONParser.parse(Array(text.utf8), limits: .default) == result?["structuredContent"])
  }

  @Test func everyToolDeclaresItsSchemasAndTakesNoUnknownArgument() throws {
    let server = try Self.server()
    let reply = try Self.reply(server, #"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#)
    let tools = reply?["result"]?["tools"]?.arrayValue ?? []
    #expect(tools.count == MCPTools.all.count)
    for tool in tools {
      #expect(tool["inputSchema"]?["type"] == .string("object"))
      #expect(tool["inputSchema"]?["additionalProperties"] == .bool(false))
      #expect(tool["outputSchema"]?["type"] == .string("object"))
      #expect(tool["annotations"]?["readOnlyHint"] == .bool(true))
    }
  }

  @Test(arguments: [
    (
      #"{"name":"state","arguments":{"pth":"todos"}}"#,
      "'state' takes no argument 'pth' — did you mean 'path'?"
    ),
    (#"{"name":"state","arguments":{"at":-1}}"#, "'at': position -1 is out of range"),
    (#"{"name":"state","arguments":{"path":"todos[","at":3}}"#, "'path':"),
    (#"{"name":"state","arguments":{"limit":5000}}"#, "'limit' must be 1 to 1000, not 5000"),
    (#"{"name":"history","arguments":{}}"#, "'path' is required"),
    (#"{"name":"info","arguments":{"log":"nope.jsonl"}}"#, "no log named 'nope.jsonl'"),
    (
      #"{"name":"search","arguments":{"query":"x","direction":"up"}}"#, "'direction' must be one of"
    ),
    (#"{"name":"info","arguments":[1]}"#, "the arguments of 'info' must be an object"),
  ])
  func badArgumentsAreToolErrorsThatSayTheFix(params: String, message: String) throws {
    let server = try Self.server()
    let reply = try Self.reply(
      server, #"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":"# + params + "}")
    #expect(reply?["result"]?["isError"] == .bool(true))
    guard case .string(let text)? = reply?["result"]?["content"]?.arrayValue?.first?["text"] else {
      Issue.record("no message: \(String(describing: reply))")
      return
    }
    #expect(text.contains(message), "\(text)")
  }

  @Test(arguments: [
    ("not json", -32700, "null"),
    ("[1,2]", -32600, "null"),
    ("42", -32600, "null"),
    (#"{"jsonrpc":"1.0","id":1,"method":"ping"}"#, -32600, "1"),
    (#"{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}"#, -32600, "null"),
    (#"{"jsonrpc":"2.0","id":2,"method":7}"#, -32600, "2"),
    (#"{"jsonrpc":"2.0","id":3,"method":"tools/cal"}"#, -32601, "3"),
    (#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"crsh"}}"#, -32602, "4"),
    (
      #"{"jsonrpc":"2.0","id":5,"method":"resources/read","params":{"uri":"file:///etc/passwd"}}"#,
      -32602, "5"
    ),
  ])
  func hostileMessagesGetProtocolErrors(line: String, code: Int, id: String) throws {
    let server = try Self.server()
    let reply = try Self.reply(server, line)
    #expect(reply?["error"]?["code"] == .number(String(code)), "\(String(describing: reply))")
    #expect(reply?["id"]?.jsonText == id)
  }

  @Test func notificationsAndResponsesGetNoReply() throws {
    let server = try Self.server()
    #expect(
      try Self.reply(server, #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#) == nil)
    #expect(try Self.reply(server, #"{"jsonrpc":"2.0","id":9,"result":{}}"#) == nil)
    #expect(try Self.reply(server, "   ") == nil)
  }

  @Test func theServerLoopSurvivesAHugeLineATruncatedOneAndABurst() throws {
    let server = try Self.server()
    let huge =
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"x\":\""
      + String(repeating: "a", count: MCPServer.maxMessageBytes + 10) + "\"}}\n"
    var input = huge
    for id in 0..<1000 { input += "{\"jsonrpc\":\"2.0\",\"id\":\(id),\"method\":\"ping\"}\n" }
    input += "{\"jsonrpc\":\"2.0\",\"id\":5000,\"method\":\"pi"
    let inputPipe = Pipe()
    let outputPipe = Pipe()
    let writer = inputPipe.fileHandleForWriting
    let bytes = Data(input.utf8)
    Thread.detachNewThread {
      writer.write(bytes)
      try? writer.close()
    }
    let collected = Locked(Data())
    let reader = outputPipe.fileHandleForReading
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      let data = reader.readDataToEndOfFile()
      collected.withLock { $0 = data }
      done.signal()
    }
    server.run(
      input: MessageInput(fd: inputPipe.fileHandleForReading.fileDescriptor),
      output: MessageOutput(fd: outputPipe.fileHandleForWriting.fileDescriptor))
    try outputPipe.fileHandleForWriting.close()
    done.wait()
    let lines = collected.withLock { String(decoding: $0, as: UTF8.self) }.split(separator: "\n")
    // The huge line: an error; the thousand pings: a thousand results; the truncated last line:
    // not JSON.
    #expect(lines.count == 1002)
    #expect(lines.first?.contains("-32600") == true)
    #expect(lines.first?.contains("longer than the limit") == true)
    #expect(lines.filter { $0.contains("\"result\":{}") }.count == 1000)
    #expect(lines.last?.contains("-32700") == true)
  }
}

extension JSONValue {
  /// The elements of an array, or `nil`.
  fileprivate var arrayValue: [JSONValue]? {
    if case .array(let elements) = self { return elements }
    return nil
  }
}
