import Foundation
import RewindJSON

/// (13) `replay dap` against the REPL on a 21 MB state (300,000 todos), both the built binary
/// replaying in process (`--no-isolate`), each a long-running process on pipes: 13a a `next`
/// then a step back, request to answer, against `next` then `back` in the REPL (`--json`, one
/// line a command); 13b the first page of the state's variables after a step (`scopes` then
/// `variables`: the state's text made and read a level at a time) against `members` in the
/// REPL after the same step. The ratio is paired repetition by repetition.
///
/// Section 13 of the harness: `rewind-bench --only 13`.
struct DAPBench {
  /// Measured repetitions.
  let repetitions: Int

  /// The rows 13a and 13b.
  func run() throws -> [Row] {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("rewind-bench-dap-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let log = directory.appendingPathComponent("large.jsonl").path
    try Self.writeLargeLog(to: log)

    let dap = try PipedReplay(ReplayCommand.prefix + ["dap", "--no-isolate"])
    defer { dap.stop() }
    var seq = 0
    func ask(_ command: String, _ arguments: String = "{}") throws -> [JSONValue] {
      seq += 1
      let body =
        "{\"seq\":\(seq),\"type\":\"request\",\"command\":\"\(command)\",\"arguments\":\(arguments)}"
      try dap.send("Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
      var messages: [JSONValue] = []
      // The response, and for a move its stopped event.
      let expectsStop = ["next", "stepBack", "configurationDone"].contains(command)
      while true {
        let message = try dap.readMessage()
        messages.append(message)
        if message["type"]?.stringValue == "response" {
          guard message["success"] == .bool(true) else {
            throw BenchError("replay dap: \(command) failed: \(message.jsonText)")
          }
          if !expectsStop { return messages }
        }
        if message["event"]?.stringValue == "stopped" { return messages }
      }
    }
    _ = try ask("initialize", "{\"adapterID\":\"bench\"}")
    _ = try ask("launch", "{\"log\":\"\(log)\",\"isolate\":false}")
    _ = try ask("configurationDone")

    let repl = try PipedReplay(ReplayCommand.prefix + [log, "--no-isolate", "--json"])
    defer { repl.stop() }
    func type(_ command: String) throws {
      try repl.send(command + "\n")
      let line = try repl.readLine()
      if line.hasPrefix("{\"error\"") { throw BenchError("replay: \(command): \(line)") }
    }
    // Both at position 1 with its state built once.
    _ = try ask("next", "{\"threadId\":1}")
    try type("next")

    var atOne = true
    let samples = try interleaved(
      repetitions,
      [
        {
          try Stopwatch.seconds {
            _ = try ask("next", "{\"threadId\":1}")
            _ = try ask("stepBack", "{\"threadId\":1}")
          }
        },
        {
          try Stopwatch.seconds {
            try type("next")
            try type("back")
          }
        },
        {
          // A step first (not timed), so that the page is of a state not read yet.
          _ = try ask(atOne ? "next" : "stepBack", "{\"threadId\":1}")
          let frame = atOne ? 3 : 2
          return try Stopwatch.seconds {
            let scopes = try ask("scopes", "{\"frameId\":\(frame)}")
            var reference = 0
            if case .array(let list)? = scopes.first?["body"]?["scopes"] {
              reference = list.first?["variablesReference"]?.intValue ?? 0
            }
            _ = try ask("variables", "{\"variablesReference\":\(reference)}")
          }
        },
        {
          try type(atOne ? "next" : "back")
          defer { atOne.toggle() }
          return try Stopwatch.seconds { try type("members") }
        },
      ])
    let note =
      "300,000 todos (a 21 MB state); the built replay binaries, in process (--no-isolate), "
      + "each one long-running process on pipes"
    return [
      Row(
        id: "13a", title: "`replay dap`: `next` then `stepBack`, round trips, vs the REPL",
        subject: Figure(label: "dap next + stepBack", unit: .seconds, sample: samples[0]),
        baseline: Figure(label: "REPL next + back", unit: .seconds, sample: samples[1]),
        target: .ratioAtMost(1.5), note: note),
      Row(
        id: "13b",
        title: "`replay dap`: the first `variables` page of the state after a step vs `members`",
        subject: Figure(label: "dap scopes + variables", unit: .seconds, sample: samples[2]),
        baseline: Figure(label: "REPL members", unit: .seconds, sample: samples[3]),
        target: .ratioAtMost(1.5), note: note),
    ]
  }

  /// Writes a todo log whose initial state holds 300,000 todos (21 MB of JSON) and three
  /// actions that change the filter.
  static func writeLargeLog(to path: String) throws {
    var state = "{\"todos\":["
    for index in 0..<300_000 {
      if index > 0 { state += "," }
      state +=
        "{\"id\":\(index),\"title\":\"Todo number \(index) with some words\",\"done\":\(index % 3 == 0)}"
    }
    state += "],\"filter\":\"all\",\"nextID\":300000}"
    var text =
      "{\"kind\":\"header\",\"format\":\"rewind\",\"version\":1,\"session\":\"s\",\"app\":\"todo\","
      + "\"actionType\":\"TodoAction\",\"stateType\":\"TodoState\",\"recordedAt\":"
      + "\"2026-01-01T00:00:00Z\",\"firstSeq\":1,\"checkpointInterval\":1000,\"state\":\(state)}\n"
    for (seq, filter) in ["active", "all", "active"].enumerated() {
      text +=
        "{\"kind\":\"action\",\"seq\":\(seq + 1),\"type\":\"setFilter\",\"action\":{\"setFilter\":"
        + "{\"_0\":\"\(filter)\"}}}\n"
    }
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
  }
}

/// A `replay` process on pipes: lines or Content-Length framed messages read from its standard
/// output.
final class PipedReplay {
  /// The process.
  private let process = Process()
  /// Its standard input.
  private let input = Pipe()
  /// Its standard output.
  private let output = Pipe()
  /// Output read and not yet returned.
  private var buffer: [UInt8] = []
  /// What `SIGPIPE` did before this process started, restored by ``stop()``: meanwhile a write
  /// to the process once it has ended is an error ``send(_:)`` throws, not a signal that ends the
  /// harness (the processes the harness starts later inherit the default again).
  private let previousPipeAction = signal(SIGPIPE, SIG_IGN)

  /// Starts `command` (its standard error discarded).
  /// - Throws: what `Process.run()` throws when the command cannot start (`SIGPIPE`'s action
  ///   restored first: ``stop()`` is never called on a process that did not start).
  init(_ command: [String]) throws {
    process.executableURL = URL(fileURLWithPath: command[0])
    process.arguments = Array(command.dropFirst())
    process.standardInput = input
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    do {
      try process.run()
    } catch {
      signal(SIGPIPE, previousPipeAction)
      throw error
    }
  }

  /// Writes `text` to the process.
  /// - Throws: `BenchError` when the process no longer reads (it has ended: its status said).
  func send(_ text: String) throws {
    do {
      try input.fileHandleForWriting.write(contentsOf: Data(text.utf8))
    } catch {
      throw BenchError("\(name) no longer reads its input (\(error)); \(ending())")
    }
  }

  /// The next line of output.
  func readLine() throws -> String {
    while true {
      if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
        let line = String(decoding: buffer[..<newline], as: UTF8.self)
        buffer.removeSubrange(...newline)
        return line
      }
      try fill()
    }
  }

  /// The next framed message of output.
  func readMessage() throws -> JSONValue {
    let header = try readLine()
    guard header.hasPrefix("Content-Length: "),
      let length = Int(header.dropFirst(16).prefix { $0.isNumber })
    else { throw BenchError("replay dap: a header '\(header)'") }
    _ = try readLine()
    while buffer.count < length { try fill() }
    let body = Array(buffer[..<length])
    buffer.removeSubrange(..<length)
    return try JSONParser.parse(body)
  }

  /// Reads what is available.
  private func fill() throws {
    let data = output.fileHandleForReading.availableData
    if data.isEmpty { throw BenchError("\(name) ended its output; \(ending())") }
    buffer += data
  }

  /// The command, for messages.
  private var name: String {
    ([process.executableURL?.lastPathComponent ?? "replay"] + (process.arguments ?? []))
      .joined(separator: " ")
  }

  /// How the process ended (waited for up to two seconds), or that it still runs.
  private func ending() -> String {
    for _ in 0..<200 where process.isRunning { usleep(10_000) }
    guard !process.isRunning else { return "it is still running" }
    return process.terminationReason == .uncaughtSignal
      ? "it was killed by signal \(process.terminationStatus)"
      : "it exited with status \(process.terminationStatus)"
  }

  /// Ends the process.
  func stop() {
    try? input.fileHandleForWriting.close()
    process.terminate()
    process.waitUntilExit()
    signal(SIGPIPE, previousPipeAction)
  }
}
