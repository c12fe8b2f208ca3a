import Foundation
import RewindJSON
import Testing

/// Real traps of several kinds, in the `traps` app of `rewind-testbed replay` (a replay binary
/// built like a user's, with its own worker processes), through every command that runs the
/// app's reducer: each survives, stops before the crash, and reports the runtime's message, the
/// signal and the reducer's line.
///
/// Each log has two `add`s, the trap at seq 3 (log line 4), one more `add` and an end record: a
/// log whose middle no longer replays, as with a log from another build.
@Suite struct TrapKindsTests {
  struct Trap: Sendable, CustomTestStringConvertible {
    var type: String
    var payload: String
    /// The runtime's message in a debug build, or `nil` when none is printed.
    var message: String?
    /// Whether a release build (`-O`) prints the message too: only `fatalError` does; the
    /// standard library's checks and `precondition` trap without one.
    var keepsMessageInRelease = false
    var signals: Set<String>
    /// The innermost app frame's function.
    var function: String

    var testDescription: String { type }
  }

  static let reducerFrame = "closure #1 in variable initialization expression of trapReducer"
  static let trapSignals: Set<String> = ["SIGILL", "SIGTRAP"]

  static let traps: [Trap] = [
    Trap(
      type: "indexOutOfRange", payload: "{}", message: "Index out of range", signals: trapSignals,
      function: reducerFrame),
    Trap(
      type: "forceUnwrapNil", payload: "{}",
      message: "Unexpectedly found nil while unwrapping an Optional value", signals: trapSignals,
      function: "unwrapped(_:)"),
    Trap(
      type: "precondition", payload: #"{"_0":"count must stay negative"}"#,
      message: "Precondition failed: count must stay negative", signals: trapSignals,
      function: reducerFrame),
    Trap(
      type: "fatal", payload: #"{"_0":"no way back"}"#, message: "no way back",
      keepsMessageInRelease: true, signals: trapSignals, function: reducerFrame),
    Trap(
      type: "divideByZero", payload: "{}", message: "Division by zero", signals: trapSignals,
      function: reducerFrame),
    Trap(
      type: "runawayRecursion", payload: "{}", message: nil, signals: ["SIGSEGV", "SIGBUS"],
      function: "descend(_:)"),
  ]

  static let header =
    #"{"kind":"header","format":"rewind","version":1,"session":"s","app":"traps","#
    + #""actionType":"TrapAction","stateType":"TrapState","firstSeq":1,"#
    + #""state":{"count":0,"items":[]}}"#

  /// - Parameter checkpoint: Record the state at 4 as a checkpoint, which `verify` compares
  ///   (and which every other command would read instead of replaying).
  static func log(_ trap: Trap, checkpoint: Bool = false) -> String {
    ([
      header,
      #"{"kind":"action","seq":1,"type":"add","action":{"add":{}}}"#,
      #"{"kind":"action","seq":2,"type":"add","action":{"add":{}}}"#,
      #"{"kind":"action","seq":3,"type":"\#(trap.type)","action":{"\#(trap.type)":\#(trap.payload)}}"#,
      #"{"kind":"action","seq":4,"type":"add","action":{"add":{}}}"#,
    ]
      + (checkpoint ? [#"{"kind":"checkpoint","seq":4,"state":{"count":3,"items":[]}}"#] : [])
      + [#"{"kind":"end","seq":4}"#, ""]).joined(separator: "\n")
  }

  /// Runs `rewind-testbed replay arguments` in `directory` (the testbed in
  /// `$REWIND_TESTBED` when set: a release build, say).
  static func replay(_ arguments: [String], in directory: URL) throws -> ChildProcess {
    try ChildProcess.run(testbed(), ["replay"] + arguments, in: directory)
  }

  /// Whether the testbed under test is a release build (its path is in a `release` folder).
  static var isRelease: Bool {
    (try? testbed().pathComponents.contains("release")) ?? false
  }

  /// The message the report must carry in this build.
  static func expectedMessage(_ trap: Trap) -> String? {
    isRelease && !trap.keepsMessageInRelease ? nil : trap.message
  }

  /// The `rewind-testbed` executable under test.
  static func testbed() throws -> URL {
    if let path = ProcessInfo.processInfo.environment["REWIND_TESTBED"], !path.isEmpty {
      return URL(fileURLWithPath: path)
    }
    return try CLIFixture.executable("rewind-testbed")
  }

  /// Checks a crash report's JSON (`state --json`'s stderr `crash`).
  static func checkReport(
    _ crash: JSONValue?, _ trap: Trap, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(crash?["seq"]?.intValue == 3, sourceLocation: sourceLocation)
    #expect(crash?["type"]?.stringValue == trap.type, sourceLocation: sourceLocation)
    #expect(crash?["line"]?.intValue == 4, sourceLocation: sourceLocation)
    #expect(
      trap.signals.contains(crash?["signal"]?.stringValue ?? ""), "\(String(describing: crash))",
      sourceLocation: sourceLocation)
    #expect(
      crash?["message"]?.stringValue == expectedMessage(trap), sourceLocation: sourceLocation)
    guard case .array(let frames)? = crash?["frames"], let first = frames.first else {
      Issue.record("no app frame: \(String(describing: crash))", sourceLocation: sourceLocation)
      return
    }
    // An optimized build may name a specialization of the function.
    let function = first["function"]?.stringValue ?? ""
    #expect(
      function == trap.function || function == "specialized " + trap.function,
      sourceLocation: sourceLocation)
    #expect(
      first["file"]?.stringValue?.hasSuffix("Sources/RewindTestbed/Traps.swift") == true,
      "\(first)", sourceLocation: sourceLocation)
    #expect((first["line"]?.intValue ?? 0) > 0, sourceLocation: sourceLocation)
  }

  @Test(arguments: traps)
  func everyCommandSurvivesTheTrapAndReportsIt(trap: Trap) throws {
    try CLIFixture.withTemporaryDirectory { directory in
      let path = directory.appendingPathComponent("\(trap.type).jsonl").path
      try Self.log(trap).write(toFile: path, atomically: true, encoding: .utf8)
      let headline = #"the app's reducer crashed on action 3 (type "\#(trap.type)", log line 4): "#

      // state: the last good state on stdout, the report on stderr, status 3.
      let state = try Self.replay(["state", path, "--json"], in: directory)
      #expect(state.reason == .exit, "\(state.standardError)")
      #expect(state.status == 3, "\(state.standardError)")
      #expect(state.standardOutput == #"{"count":2,"items":[]}"# + "\n")
      let report = try JSONParser.parse(Array(state.standardError.utf8))
      #expect(report["position"]?.intValue == 2)
      Self.checkReport(report["crash"], trap)

      // The session lands on 2 and goes on.
      let session = try Self.replay(
        [path, "-c", "goto last", "-c", "print count", "-c", "back", "-c", "next"], in: directory)
      #expect(session.status == 3, "\(session.standardError)")
      #expect(session.standardOutput.contains(headline), "\(session.standardOutput)")
      if let message = Self.expectedMessage(trap) {
        #expect(session.standardOutput.contains("  \(message)"))
      } else {
        #expect(session.standardOutput.contains("(the runtime printed no message"))
      }
      #expect(
        session.standardOutput.contains("stopped at position 2, the last state before the crash"))
      #expect(
        session.standardOutput.contains("(replay) print count\n2\n"), "\(session.standardOutput)")
      #expect(session.standardOutput.contains("Traps.swift:"), "\(session.standardOutput)")

      // verify: the checkpoint at 4 cannot be reached past the crash.
      let checked = directory.appendingPathComponent("\(trap.type)-checkpoint.jsonl").path
      try Self.log(trap, checkpoint: true).write(toFile: checked, atomically: true, encoding: .utf8)
      let verify = try Self.replay(["verify", checked], in: directory)
      #expect(verify.reason == .exit)
      #expect(verify.status == 1, "\(verify.standardOutput)\(verify.standardError)")
      #expect(verify.standardOutput.contains(": does not replay: " + headline), "\(verify)")
      #expect(
        (verify.standardOutput + verify.standardError).contains("crashed"),
        "\(verify.standardOutput)\(verify.standardError)")

      // diff against itself: both sides stop at the same crash, reported, never fatal.
      let diff = try Self.replay(["diff", path, path], in: directory)
      #expect(diff.reason == .exit)
      #expect(
        (diff.standardOutput + diff.standardError).contains("crashed"),
        "\(diff.standardOutput)\(diff.standardError)")

      // export --html: the page is written, with the crash in its data.
      let page = directory.appendingPathComponent("\(trap.type).html").path
      let export = try Self.replay(["export", path, "--html", page], in: directory)
      #expect(export.status == 0, "\(export.standardError)")
      #expect(export.standardOutput.contains("note: " + headline), "\(export.standardOutput)")
      let html = try String(contentsOfFile: page, encoding: .utf8)
      #expect(html.contains(#""crash":{"seq":3,"type":"\#(trap.type)""#))

      // gen-test: a test that expects the crash at action 3.
      let generated = try Self.replay(["gen-test", path], in: directory)
      #expect(generated.status == 0, "\(generated.standardError)")
      #expect(generated.standardOutput.contains("// The app stopped while running action 3"))

      // shrink: down to the trapping action.
      let shrunk = directory.appendingPathComponent("\(trap.type).min.jsonl").path
      let shrink = try Self.replay(["shrink", path, "-o", shrunk], in: directory)
      #expect(shrink.status == 0, "\(shrink.standardError)")
      #expect(shrink.standardOutput.contains("→ 1 action"), "\(shrink.standardOutput)")
    }
  }
}
