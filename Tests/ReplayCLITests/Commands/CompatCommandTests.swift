import Foundation
import ReplayCLI
import Rewind
import RewindExamples
import RewindJSON
import RewindReplay
import Testing

/// `replay compat` and what every command says about a log from another build: the worked todo
/// example (`Fixtures/todo-v1.jsonl`, schema 1), with and without its migrations, a log from a
/// newer build, a folder of logs of mixed builds, and an unstamped log that reads as before.
@Suite struct CompatCommandTests {
  static let v1 = CLIFixture.packageRoot.appendingPathComponent("Fixtures/todo-v1.jsonl").path
  static let session = CLIFixture.packageRoot.appendingPathComponent("Fixtures/todo-session.jsonl")
    .path

  /// A build from the future: today's state, and an action case this replay does not have.
  enum Future {
    enum TodoAction: Codable, Sendable {
      case add(title: String)
      case archiveAll
    }
    static let reducer = Reducer<TodoState, TodoAction> { _, _ in }
  }

  /// Records a schema-3 todo log with an `archiveAll` the current types cannot decode.
  static func recordFuture(to path: String) throws {
    let store = Store(initialState: TodoState(), reducer: Future.reducer)
    let recorder = try store.startRecording(
      to: path, app: "todo",
      options: RecordingOptions(build: BuildStamp(version: "3.0", build: "40", schema: 3)))
    store.dispatch(.add(title: "milk"))
    store.dispatch(.archiveAll)
    store.dispatch(.archiveAll)
    recorder.close()
  }

  @Test func theOldLogDecodesThroughItsMigrationsAndSaysWhichBuildRecordedIt() {
    let run = ReplayRun(["compat", Self.v1])
    #expect(run.status == 0, "\(run.combined)")
    #expect(
      run.outputLines == [
        "\(Self.v1): recorded by todo 1.0 (1), revision v1.0, schema 1; read through the "
          + "migrations 1 → 2",
        "  all 13 actions decode; all 4 states decode",
      ])
    let clean = ReplayRun(["compat", Self.session])
    #expect(clean.status == 0)
    #expect(clean.outputLines.last == "  all 340 actions decode; all 8 states decode")
  }

  @Test func withoutMigrationsEveryFailingTypeIsListedAndTheStatusIsOne() throws {
    let run = ReplayRun(["compat", Self.v1, "--no-migrations"])
    #expect(run.status == 1)
    #expect(
      run.outputLines == [
        "\(Self.v1): recorded by todo 1.0 (1), revision v1.0, schema 1; read as recorded "
          + "(--no-migrations; the migrations 1 → 2 are off)",
        "  type     lines  first seq  line  path       reason",
        "  add      6      1          2     add.title  key not found",
        "  archive  2      6          8     -          TodoAction has no case 'archive' "
          + "(renamed or removed?)",
        "  the checkpoint at seq 5 (line 7) does not decode: todos[0].title: key not found",
        "  the checkpoint at seq 10 (line 13) does not decode: todos[0].title: key not found",
        "  the checkpoint at seq 13 (line 17) does not decode: todos[0].title: key not found",
        "  8 of 13 actions do not decode; 3 of 4 states do not",
      ])
    let json = ReplayRun(["compat", Self.v1, "--no-migrations", "--json"])
    #expect(json.status == 1)
    let value = try JSONParser.parse(Array(json.standardOutput.utf8))
    #expect(value["compatible"] == .bool(false))
    guard case .array(let logs)? = value["logs"], let log = logs.first else {
      Issue.record("no logs: \(json.standardOutput)")
      return
    }
    #expect(log["build"]?["schema"]?.intValue == 1)
    #expect(log["failingActions"]?.intValue == 8)
    guard case .array(let failing)? = log["failing"] else {
      Issue.record("no failing list: \(json.standardOutput)")
      return
    }
    #expect(failing.map { $0["type"]?.stringValue } == ["add", "archive"])
    #expect(failing.map { $0["count"]?.intValue } == [6, 2])
    #expect(failing.map { $0["firstSeq"]?.intValue } == [1, 6])
    #expect(failing.map { $0["path"]?.stringValue } == ["add.title", ""])
    #expect(failing.first?["reason"]?.stringValue == "key not found")
  }

  @Test func aFolderOfMixedBuildsSaysWhichBuildsDecode() throws {
    try CLIFixture.withTemporaryDirectory { folder in
      try FileManager.default.copyItem(
        atPath: Self.v1, toPath: folder.appendingPathComponent("a-v1.jsonl").path)
      try FileManager.default.copyItem(
        atPath: Self.session, toPath: folder.appendingPathComponent("b-today.jsonl").path)
      try Self.recordFuture(to: folder.appendingPathComponent("c-future.jsonl").path)
      try "not a log\n".write(
        to: folder.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
      let run = ReplayRun(["compat", folder.path])
      #expect(run.status == 1, "\(run.combined)")
      #expect(
        Array(run.outputLines.suffix(4)) == [
          "by build:",
          "  todo 1.0 (1), revision v1.0, schema 1: 1 log, all decode",
          "  no build stamp: 1 log, all decode",
          "  todo 3.0 (40), schema 3: 1 log, 1 do not decode",
        ])
      #expect(
        run.standardOutput.contains(
          "  archiveAll  2      2          3     -     TodoAction has no case 'archiveAll'"))
    }
  }

  @Test func aBinaryWithTwoAppsOfOneNamePicksTheOneWithTheLogsTypes() throws {
    // Two features registered under one name: each log goes to the app with its type names.
    let apps = [
      ReplayApp(name: "counter", reducer: todoReducer),
      ReplayApp(name: "counter", reducer: counterReducer),
    ]
    let counter = CLIFixture.packageRoot.appendingPathComponent("Fixtures/counter.jsonl").path
    let output = CapturedOutput()
    let status = ReplayTool.run(
      ["state", counter, "--at", "last", "--json", "--no-isolate"], apps: apps, output: output,
      input: ScriptedInput([]))
    #expect(status == 0, "\(output.combined)")
    #expect(output.standardOutput == "{\"count\":95}\n")
  }

  @Test func aRegistrationWithOnlyASchemaSaysNothingAboutALogsVersion() throws {
    try CLIFixture.withTemporaryDirectory { folder in
      let path = folder.appendingPathComponent("stamped.jsonl").path
      let store = Store(initialState: TodoState(), reducer: todoReducer)
      let recorder = try store.startRecording(
        to: path, app: "todo",
        options: RecordingOptions(
          build: BuildStamp(version: "1.4.2", build: "87", schema: todoSchema)))
      store.dispatch(.add(title: "milk"))
      recorder.close()
      // The bundled todo registration declares a schema and no version: the same schema.
      let run = ReplayRun(["state", path, "--at", "last"])
      #expect(run.status == 0, "\(run.combined)")
      #expect(run.standardError.isEmpty, "\(run.standardError)")
      // A registration with a version says when the log's differs.
      let output = CapturedOutput()
      let apps = [
        ReplayApp(
          name: "todo", reducer: todoReducer,
          build: BuildStamp(version: "1.5.0", build: "90", schema: todoSchema))
      ]
      _ = ReplayTool.run(
        ["state", path, "--at", "last", "--no-isolate"], apps: apps, output: output,
        input: ScriptedInput([]))
      #expect(
        output.standardError.hasPrefix(
          "note: \(path) was recorded by todo 1.4.2 (87), schema \(todoSchema); this replay has "
            + "todo 1.5.0 (90), schema \(todoSchema)"))
    }
  }

  @Test func aFolderWithNoLogIsAnErrorNotAPass() throws {
    try CLIFixture.withTemporaryDirectory { folder in
      for arguments in [["compat", folder.path], ["compat", folder.path, "--json"]] {
        let run = ReplayRun(arguments)
        #expect(run.status == 2, "\(arguments)")
        #expect(run.standardOutput.isEmpty)
        #expect(
          run.standardError.hasPrefix(
            "error: \(folder.path) is a folder with no logs in it: no recorded sessions and no "
              + ".jsonl files"))
      }
      try "not a log\n".write(
        to: folder.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
      #expect(ReplayRun(["compat", folder.path]).status == 2)
    }
  }

  @Test func linesTheRecoveryModeDidNotReadAreSaid() throws {
    let torn = CLIFixture.packageRoot.appendingPathComponent("Fixtures/todo-torn.jsonl").path
    let run = ReplayRun(["compat", torn])
    #expect(run.status == 0, "\(run.combined)")
    #expect(
      run.outputLines.last
        == "  all 127 actions decode; all 3 states decode; the last line, cut off mid-write, was "
        + "not read")
    #expect(run.standardError.hasPrefix("warning: \(torn):131 (byte 15932): line cut off"))
    let json = try JSONParser.parse(
      Array(ReplayRun(["compat", torn, "--json"]).standardOutput.utf8))
    guard case .array(let logs)? = json["logs"],
      case .array(let unread)? = logs.first?["unreadLines"]
    else {
      Issue.record("no unreadLines")
      return
    }
    #expect(unread.map { $0["line"]?.intValue } == [131])
    // A line changed after it was recorded: prefix stops before it, salvage skips it.
    try CLIFixture.withTemporaryDirectory { folder in
      let tampered = folder.appendingPathComponent("tampered.jsonl").path
      var lines = try String(contentsOfFile: Self.session, encoding: .utf8)
        .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      lines[20] = lines[20].replacingOccurrences(of: "\"seq\":20", with: "\"seq\":20 ")
      try lines.joined(separator: "\n").write(toFile: tampered, atomically: true, encoding: .utf8)
      let prefix = ReplayRun(["compat", tampered, "--recovery", "prefix"])
      #expect(prefix.status == 0, "\(prefix.combined)")
      #expect(
        prefix.outputLines.last?.hasSuffix(
          "; the lines from 21 on were not read (--recovery prefix)") == true)
      let salvage = ReplayRun(["compat", tampered, "--recovery", "salvage"])
      #expect(
        salvage.outputLines.last?.hasSuffix("; 1 bad line was skipped (--recovery salvage)") == true
      )
      let strict = ReplayRun(["compat", tampered])
      #expect(strict.status == 2)
      #expect(strict.standardError.hasPrefix("error: \(tampered):21 (byte "))
    }
  }

  @Test func aChecksummedLineThatIsNotJSONIsReportedAsTheCheckedOpenReportsIt() throws {
    // `compat` opens without checking each line's JSON and checks the lines as it decodes; a
    // line that is not JSON sends it back to the checked open, whose error names the line.
    try CLIFixture.withTemporaryDirectory { folder in
      let bad = folder.appendingPathComponent("bad.jsonl").path
      var lines = try String(contentsOfFile: Self.session, encoding: .utf8)
        .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      // Line 21, seq 20's action, re-framed with a valid checksum around a body that is not JSON.
      let body = String(lines[20].dropFirst(LogLine.bodyOffset).dropLast()) + "]"
      var framed: [UInt8] = []
      Array(body.utf8).withUnsafeBytes { LogLine.appendFramed(body: $0, to: &framed) }
      lines[20] = String(decoding: framed.dropLast(), as: UTF8.self)
      try lines.joined(separator: "\n").write(toFile: bad, atomically: true, encoding: .utf8)
      let run = ReplayRun(["compat", bad])
      #expect(run.status == 2, "\(run.combined)")
      #expect(run.standardError.hasPrefix("error: \(bad):21 (byte "), "\(run.standardError)")
      #expect(run.standardError == ReplayRun(["info", bad]).standardError)
      #expect(run.standardOutput.isEmpty)
    }
  }

  @Test func everyCommandSaysOnceWhenTheLogComesFromAnotherBuild() throws {
    let state = ReplayRun(["state", Self.v1, "--at", "6"])
    #expect(state.status == 0, "\(state.combined)")
    #expect(
      state.standardError
        == "note: \(Self.v1) was recorded by todo 1.0 (1), revision v1.0, schema 1; this replay "
        + "has todo schema 2\nnote: its actions and states go through the migrations 1 → 2 "
        + "before they are decoded; migrated actions are marked as such\n")
    let info = ReplayRun(["info", Self.v1])
    #expect(info.outputLines.contains("recorded by:  todo 1.0 (1), revision v1.0, schema 1"))
    #expect(info.outputLines.contains("migrated:     schema 1 → 2, by this replay's migrations"))
    let actions = ReplayRun(["actions", Self.v1, "--from", "6", "--to", "7"])
    #expect(
      actions.outputLines == [
        "  6    1.500s  remove         {\"id\":1}  (migrated)",
        "  7    1.750s  setFilter      \"active\"",
      ])
    // An unstamped log reads as before: no note, no row.
    let old = ReplayRun(["info", Self.session])
    #expect(old.standardError.isEmpty)
    #expect(!old.standardOutput.contains("recorded by"))

    try CLIFixture.withTemporaryDirectory { folder in
      let future = folder.appendingPathComponent("future.jsonl").path
      try Self.recordFuture(to: future)
      let newer = ReplayRun(["actions", future])
      #expect(newer.status == 0)
      #expect(
        newer.standardError.hasPrefix(
          "warning: \(future) was recorded by todo 3.0 (40), schema 3; this replay has todo "
            + "schema 2\nnote: the log's schema 3 is newer than this replay's 2: build a newer "
            + "replay from the app's current source to read what changed\n"
            + "hint: replay compat \(future)"))
      let unknown = ReplayRun(["compat", future, "/nonexistent.jsonl"])
      #expect(unknown.status == 2)
      #expect(unknown.standardOutput.contains("/nonexistent.jsonl: not checked: "))
      #expect(unknown.standardError.contains("error: /nonexistent.jsonl"))
      // compat itself says that the log is newer, once, without suggesting itself.
      let compat = ReplayRun(["compat", future])
      #expect(compat.status == 1)
      #expect(
        compat.standardError.hasPrefix(
          "warning: \(future) was recorded by todo 3.0 (40), schema 3; this replay has todo "
            + "schema 2\nnote: the log's schema 3 is newer than this replay's 2"))
      #expect(!compat.standardError.contains("hint: replay compat"))
      #expect(
        compat.outputLines.first
          == "\(future): recorded by todo 3.0 (40), schema 3; read as recorded (its schema 3 is "
          + "newer than this replay's 2)")
      let json = try JSONParser.parse(
        Array(ReplayRun(["compat", future, "--json"]).standardOutput.utf8))
      guard case .array(let logs)? = json["logs"] else {
        Issue.record("no logs")
        return
      }
      #expect(logs.first?["newerThanReplay"] == .bool(true))
    }
  }

  /// `tail` reads a file being recorded without an index: it migrates each action as it comes,
  /// shows it marked, and follows the states through the migrated actions.
  @Test func tailShowsAndAppliesMigratedActions() {
    let run = ReplayRun(["tail", Self.v1, "-n", "2", "--diff", "--no-isolate"])
    #expect(run.status == 0, "\(run.combined)")
    #expect(
      run.standardError.hasPrefix(
        "note: \(Self.v1) was recorded by todo 1.0 (1), revision v1.0, schema 1; this replay has "
          + "todo schema 2\n"), "\(run.combined)")
    #expect(
      run.outputLines == [
        "    12    3.000s  setFilter      \"all\"",
        "        filter: \"active\" → \"all\"",
        "    13    3.250s  toggle         {\"id\":5}",
        "        todos[2].done: false → true",
        "-- the recording ended (end record)",
      ], "\(run.combined)")
    let earlier = ReplayRun(["tail", Self.v1, "-n", "4"])
    #expect(
      earlier.outputLines.prefix(2) == [
        "    10    2.500s  remove         {\"id\":2}  (migrated)",
        "    11    2.750s  add            {\"title\":\"Pay rent\"}  (migrated)",
      ], "\(earlier.combined)")
  }
}
