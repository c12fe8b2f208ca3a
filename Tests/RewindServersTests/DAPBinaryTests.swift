import Foundation
import RewindJSON
import RewindTestSupport
import Testing

/// The built `replay dap` over pipes, as an editor runs it: a whole session on the crash
/// fixture, the reducer isolated in the binary's own worker process (its default).
@Suite struct DAPBinaryTests {
  @Test func aSessionOnTheCrashFixtureOverPipes() throws {
    let binary = try DAPTestClient.replayExecutable()
    let log = Repository.fixture("todo-crash.jsonl")
    var input: [UInt8] = []
    let requests: [(String, String)] = [
      ("initialize", #"{"adapterID":"rewind","linesStartAt1":true}"#),
      ("launch", #"{"log":"\#(log)"}"#),
      ("setFunctionBreakpoints", #"{"breakpoints":[{"name":"clearCompleted"}]}"#),
      ("configurationDone", "{}"),
      ("continue", #"{"threadId":1}"#),
      ("stepBack", #"{"threadId":1}"#),
      ("setFunctionBreakpoints", #"{"breakpoints":[]}"#),
      ("continue", #"{"threadId":1}"#),
      ("exceptionInfo", #"{"threadId":1}"#),
      ("stackTrace", #"{"threadId":1,"levels":2}"#),
      ("evaluate", #"{"expression":"print filter","context":"repl"}"#),
      ("disconnect", "{}"),
    ]
    for (index, (command, arguments)) in requests.enumerated() {
      input += DAPPipeHarness.request(index + 1, command, arguments)
    }
    let process = Process()
    process.executableURL = binary
    process.arguments = ["dap"]
    let stdin = Pipe()
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    stdin.fileHandleForWriting.write(Data(input))
    try stdin.fileHandleForWriting.close()
    let output = stdout.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    let messages = DAPPipeHarness.unframe(Array(output))
    for message in messages { DAPTestClient.validate(message) }
    let responses = messages.filter { $0["type"] == .string("response") }
    #expect(responses.map { $0["command"]?.stringValue ?? "" } == requests.map(\.0))
    #expect(responses.allSatisfy { $0["success"] == .bool(true) }, "\(responses)")
    let stops = messages.filter { $0["event"] == .string("stopped") }.map {
      $0["body"]?["reason"]?.stringValue ?? ""
    }
    #expect(stops == ["entry", "function breakpoint", "step", "exception"])
    let info = responses.first { $0["command"] == .string("exceptionInfo") }?["body"]
    #expect(info?["details"]?["message"] == .string("Index out of range"))
    let frames = responses.first { $0["command"] == .string("stackTrace") }?["body"]?[
      "stackFrames"]
    #expect(
      frames?.elements.compactMap { $0["name"]?.stringValue } == [
        "#38 move ✗ closure #1 in variable initialization expression of todoReducer",
        "#37 toggle",
      ])
    let printed = responses.first { $0["command"] == .string("evaluate") }?["body"]?["result"]
    #expect(printed?.stringValue?.isEmpty == false)
  }
}
