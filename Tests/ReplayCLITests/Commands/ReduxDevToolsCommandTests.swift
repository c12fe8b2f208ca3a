import Foundation
import RewindExamples
import RewindJSON
import RewindReplay
import Testing

/// `replay import` on every shape Redux DevTools writes (`Fixtures/redux-devtools/`) and
/// `replay export --redux-devtools` back: what lands in the log, what is said, what is refused.
@Suite struct ReduxDevToolsCommandTests {
  static func devtools(_ name: String) -> String { CLIFixture.path("redux-devtools/\(name)") }

  /// The action lines of a log: seq, time and action.
  static func actionLines(_ path: String) throws -> [String] {
    try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
      .filter { $0.contains(#""kind":"action""#) }
      .map { line in String(line.drop { $0 != "," }) }  // without the checksum
  }

  @Test func anActionsExportImportsWithItsPreloadedStateAndSaysWhatItLacks() throws {
    try CLIFixture.withTemporaryDirectory { directory in
      let out = directory.appendingPathComponent("a.jsonl").path
      let run = ReplayRun([
        "import", Self.devtools("actions-export.json"), "--app", "todo", "-o", out,
      ])
      #expect(run.status == 0, "\(run.combined)")
      #expect(
        run.outputLines == [
          "wrote \(out): 9 actions of app todo from a Redux DevTools actions export",
          "initial state: the file's preloadedState",
          "times: none (this shape has no timestamps)",
          "states: none in this shape, so 'replay verify \(out)' can check only that every "
            + "action decodes",
        ])
      let lines = try Self.actionLines(out)
      #expect(lines.count == 9)
      #expect(
        lines[1] == #","kind":"action","seq":2,"type":"add","action":{"add":{"title":"Call mum"}}}"#
      )
      #expect(
        lines[3]
          == #","kind":"action","seq":4,"type":"setFilter","action":{"setFilter":{"_0":"active"}}}"#
      )
      let state = ReplayRun(["state", out, "--at", "last"])
      #expect(state.status == 0, "\(state.combined)")
      #expect(
        state.standardOutput.contains(#""title" : "Call dad""#)
          || state.standardOutput.contains(#""title": "Call dad""#), "\(state.combined)")
    }
  }

  /// A cut-off log's last action (the one the app stopped in) is exported when its replay, in
  /// the worker, does not crash the reducer, as the HTML page shows it; it is left out, saying
  /// why, when it crashes, and without crash isolation. (The built binary: its worker is itself.)
  @Test func aCutOffLogsLastActionIsExportedWhenItReplaysWithoutACrash() throws {
    try CLIFixture.withTemporaryDirectory { directory in
      let exported = directory.appendingPathComponent("x.json").path
      func export(_ log: String, _ extra: [String] = []) throws -> ChildProcess {
        try ChildProcess.run(
          CLIFixture.replayExecutable(), ["export", log, "--redux-devtools", exported] + extra,
          in: directory)
      }
      let crash = try export(CLIFixture.path("todo-crash.jsonl"))
      #expect(crash.status == 0, "\(crash.standardError)")
      #expect(
        crash.standardError
          == "warning: action 38 is left out: the app's reducer crashed on action 38 (type "
          + #""move", log line 42): SIGILL, so it has no state after it"# + "\n")
      #expect(crash.standardOutput.hasPrefix("wrote \(exported): 37 actions"))
      // The session without its end record: cut off in an action that replays.
      let lines = try String(contentsOfFile: CLIFixture.path("todo-session.jsonl"), encoding: .utf8)
        .split(separator: "\n").map(String.init)
      #expect(lines.last?.contains(#""kind":"end""#) == true)
      let cut = try CLIFixture.write(Array(lines.dropLast()), named: "cut.jsonl", in: directory)
      let replayed = try export(cut)
      #expect(replayed.status == 0, "\(replayed.standardError)")
      #expect(replayed.standardError.isEmpty, "\(replayed.standardError)")
      #expect(replayed.standardOutput.hasPrefix("wrote \(exported): 340 actions"))
      let unisolated = try export(cut, ["--no-isolate"])
      #expect(unisolated.status == 0, "\(unisolated.standardError)")
      #expect(
        unisolated.standardError
          == "warning: action 340 is left out: the app stopped while running it, so its state "
          + "is not computed without crash isolation (drop --no-isolate to replay it in a "
          + "separate process)\n")
      #expect(unisolated.standardOutput.hasPrefix("wrote \(exported): 339 actions"))
    }
  }

  @Test func aFileOfAnotherAppsActionsIsRefusedAndNothingIsWritten() throws {
    try CLIFixture.withTemporaryDirectory { directory in
      let exported = directory.appendingPathComponent("todo.json").path
      let session = CLIFixture.packageRoot.appendingPathComponent("Fixtures/todo-session.jsonl")
      #expect(ReplayRun(["export", session.path, "--redux-devtools", exported]).status == 0)
      let out = directory.appendingPathComponent("counter.jsonl").path
      let wrong = ReplayRun(["import", exported, "--app", "counter", "-o", out])
      #expect(wrong.status == 2, "\(wrong.combined)")
      #expect(
        wrong.standardError.hasPrefix(
          "error: \(exported) does not hold app \"counter\"'s actions: 340 of 340 do not decode "
            + "as CounterAction, nor its states as CounterState; nothing was written\n"
            + "note: the first is the file's action 1 (type \"add\"): add._0: key not found"),
        "\(wrong.combined)")
      #expect(!FileManager.default.fileExists(atPath: out))
      let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path)
      #expect(leftovers.sorted() == ["todo.json"])
    }
  }

  @Test func withoutAPreloadedStateTheAppsDefaultOrTheCommandLineGivesIt() throws {
    try CLIFixture.withTemporaryDirectory { directory in
      let out = directory.appendingPathComponent("b.jsonl").path
      let file = Self.devtools("actions-export-no-preloaded-state.json")
      let run = ReplayRun(["import", file, "--app", "todo", "-o", out])
      #expect(run.status == 0, "\(run.combined)")
      #expect(
        run.outputLines[1] == "initial state: the app's default (TodoState as registered): the "
          + "file has none")
      let statePath = directory.appendingPathComponent("state.json").path
      try #"{"todos":[],"filter":"completed","nextID":40}"#.write(
        toFile: statePath, atomically: true, encoding: .utf8)
      // The log written above is replaced only when asked to.
      let refused = ReplayRun([
        "import", file, "--app", "todo", "-o", out, "--initial-state", statePath,
      ])
      #expect(refused.status == 2)
      #expect(
        refused.standardError.hasPrefix(
          "error: will not write \(out): it is a Rewind log already, and writing would lose that "
            + "recording\nhint: choose another output file, or add --overwrite if you mean it"))
      let given = ReplayRun([
        "import", file, "--app", "todo", "-o", out, "--initial-state", statePath, "--overwrite",
      ])
      #expect(given.status == 0, "\(given.combined)")
      #expect(given.outputLines[1] == "initial state: from --initial-state \(statePath)")
      #expect(try String(contentsOfFile: out, encoding: .utf8).contains(#""nextID":40"#))
      // An app that registers no default, and no state given: a clear error and a way out.
      // The bundled counter registers its default (CounterState()); one that does not:
      let journal = ReplayRun(
        ["import", file, "--app", "journal", "-o", out, "--overwrite"],
        apps: [ReplayApp(name: "journal", reducer: journalReducer)])
      #expect(journal.status == 2)
      #expect(
        journal.standardError.hasPrefix(
          "error: \(file): the file has no initial state (no preloadedState) and the app "
            + "\"journal\" registers no default"), "\(journal.combined)")
      #expect(journal.standardError.contains("--initial-state STATE.json"))
    }
  }

  /// A pretty-printed export cut short by hand: the error names the line as well as the byte.
  @Test func invalidJSONIsLocatedByLineAndByte() throws {
    try CLIFixture.withTemporaryDirectory { directory in
      let file = directory.appendingPathComponent("broken.json").path
      let text = "{\n  \"payload\": \"[]\",\n  \"preloadedState\": {\"a\": 1,}\n}\n"
      try Data(text.utf8).write(to: URL(fileURLWithPath: file))
      let out = directory.appendingPathComponent("out.jsonl").path
      let run = ReplayRun(["import", file, "--app", "todo", "-o", out])
      #expect(run.status == 2)
      #expect(
        run.standardError
          == "error: \(file):3 (byte 21): invalid JSON at byte 48: trailing comma: a ',' must be "
          + "followed by another element\n", "\(run.combined)")
      #expect(!FileManager.default.fileExists(atPath: out))
    }
  }

  /// A file with no actions of the app writes a log of the initial state, and says so.
  @Test func aFileWithoutActionsSaysSo() throws {
    try CLIFixture.withTemporaryDirectory { directory in
      for (name, text) in [
        ("lifted.json", #"{"actionsById":{"0":{"action":{"type":"@@INIT"}}},"computedStates":[]}"#),
        ("actions.json", #"{"payload":"[]"}"#),
      ] {
        let file = directory.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        let out = directory.appendingPathComponent("\(name).jsonl").path
        let run = ReplayRun(["import", file, "--app", "todo", "-o", out])
        #expect(run.status == 0, "\(run.combined)")
        #expect(run.standardOutput.contains("wrote \(out): 0 actions of app todo"))
        #expect(!run.standardOutput.contains("replay verify"), "\(run.combined)")
        #expect(
          run.standardError
            == "warning: \(file): the file holds no actions of the app (Redux's own @@INIT is "
            + "never imported): the log holds the initial state only\n", "\(run.combined)")
      }
    }
  }

  @Test func whatWouldBeLostIsRefusedWithItsPlaceOrDroppedWithAWarning() throws {
    try CLIFixture.withTemporaryDirectory { directory in
      let out = directory.appendingPathComponent("c.jsonl").path
      let file = Self.devtools("actions-export-with-meta.json")
      let refused = ReplayRun(["import", file, "--app", "todo", "-o", out])
      #expect(refused.status == 2)
      #expect(
        refused.standardError
          == "error: \(file): payload[1] (type \"toggle\"): its \"meta\" ({\"source\":\"keyboard\"}) "
          + "has no place in a Rewind action, which keeps only the case and its payload; "
          + "--lenient drops it with a warning\n")
      #expect(!FileManager.default.fileExists(atPath: out))
      let lenient = ReplayRun(["import", file, "--app", "todo", "-o", out, "--lenient"])
      #expect(lenient.status == 0, "\(lenient.combined)")
      #expect(
        lenient.standardError
          == "warning: \(file): payload[1] (type \"toggle\"): its \"meta\" "
          + "({\"source\":\"keyboard\"}) dropped\n")
    }
  }

  @Test func aLiftedStateWithJSANImportsItsStatesAndTimes() throws {
    try CLIFixture.withTemporaryDirectory { directory in
      let out = directory.appendingPathComponent("d.jsonl").path
      let run = ReplayRun([
        "import", Self.devtools("lifted-state-jsan.json"), "--app", "todo", "-o", out,
      ])
      #expect(run.status == 0, "\(run.combined)")
      #expect(
        run.outputLines == [
          "wrote \(out): 6 actions of app todo from a Redux DevTools lifted state (1 action(s) "
            + "toggled off in DevTools left out)",
          "initial state: the file's first computed state",
          "times: from DevTools' timestamps, recordedAt 2026-11-21T10:00:00Z",
          "check that this app's reducer reproduces the recorded states: replay verify \(out)",
        ])
      let times = try Self.actionLines(out).map { String($0.split(separator: ",")[2]) }
      #expect(
        times == [
          #""time":1.250000"#, #""time":2.500000"#, #""time":3.000000"#, #""time":4.125000"#,
          #""time":5.000000"#, #""time":6.750000"#,
        ])
      let verify = ReplayRun(["verify", out])
      #expect(verify.status == 0, "\(verify.combined)")
      #expect(verify.outputLines == ["\(out): the checkpoint was reproduced"])
    }
  }

  @Test func aRoundTripThroughDevToolsKeepsTheSessionItsStartAndEveryTime() throws {
    try CLIFixture.withTemporaryDirectory { directory in
      let session = CLIFixture.path("todo-session.jsonl")
      let exported = directory.appendingPathComponent("todo.json").path
      let imported = directory.appendingPathComponent("todo.jsonl").path
      let export = ReplayRun(["export", session, "--redux-devtools", exported])
      #expect(export.status == 0, "\(export.combined)")
      // The bare lifted state, which every DevTools import path reads.
      let document = try JSONParser.parse(
        Array(try Data(contentsOf: URL(fileURLWithPath: exported))))
      #expect(document["payload"] == nil && document["actionsById"] != nil)
      let run = ReplayRun(["import", exported, "--app", "todo", "-o", imported])
      #expect(run.status == 0, "\(run.combined)")
      let diff = ReplayRun(["diff", session, imported])
      #expect(diff.status == 0, "\(diff.combined)")
      #expect(diff.outputLines.last == "the final states are equal: the sessions are equivalent")
      #expect(try Self.actionLines(imported) == Self.actionLines(session))
      let header = try String(contentsOfFile: imported, encoding: .utf8).prefix { $0 != "\n" }
      #expect(header.contains(#""recordedAt":"2026-11-21T10:00:00Z""#))
      #expect(
        ReplayRun(["verify", imported]).outputLines == ["\(imported): all 4 checkpoints reproduced"]
      )

      // What DevTools' Export writes after importing ours (the actions and the committed state)
      // comes back as the same session, without times.
      let again = directory.appendingPathComponent("again.jsonl").path
      let reexported = ReplayRun([
        "import", Self.devtools("todo-session-reexported.json"), "--app", "todo", "-o", again,
      ])
      #expect(reexported.status == 0, "\(reexported.combined)")
      #expect(ReplayRun(["diff", session, again]).status == 0)
    }
  }
}
