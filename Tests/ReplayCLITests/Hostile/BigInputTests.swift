import Foundation
import RewindJSON
import RewindReplay
import Testing

extension Hostile {
  /// Inputs at and past the reader's size limits, given to the built `replay` binary so that each
  /// run has a time limit and its own peak memory is measured: no input may make `replay` hang or
  /// allocate far past what the limits allow (a line of at most 64 MiB holding at most 16 Mi
  /// values). Each run prints its time and peak memory.
  ///
  /// The files are written in 1 MiB chunks to a temporary directory and removed afterwards.
  /// Debug-build timings on two cores: about 70 s for the whole suite, most of it the payloads
  /// of 10,000,000 and 16,777,212 values.
  @Suite(.serialized) struct BigInputTests {
    /// The most memory any run may use: 1.5 GiB.
    static let memoryCeiling = 3 << 29

    /// Whether the binary runs under a sanitizer (`Scripts/sanitizers.sh` says which), whose
    /// shadow memory makes its resident size meaningless.
    static let isSanitized = ProcessInfo.processInfo.environment["REWIND_SANITIZER"] != nil

    /// Writes a counter log to `url`: the header, one action line whose payload `writePayload`
    /// writes through `write`, then (unless `endsWithIt`) a sound action. Returns the length of
    /// the hostile line.
    static func writeLog(
      to url: URL, endsWithIt: Bool = false,
      payload writePayload: (_ write: (Data) -> Void) -> Void
    ) throws -> Int {
      _ = FileManager.default.createFile(atPath: url.path, contents: nil)
      let handle = try FileHandle(forWritingTo: url)
      defer { try? handle.close() }
      var length = 0
      func write(_ data: Data) {
        handle.write(data)
        length += data.count
      }
      handle.write(Data(HostileLog.counterHeader + [0x0A]))
      write(Data(HostileLog.actionPrefix(seq: 1)))
      writePayload(write)
      write(Data("}".utf8))
      handle.write(Data([0x0A] + (endsWithIt ? [] : HostileLog.increment(seq: 2) + [0x0A])))
      return length
    }

    /// A payload array of `count` zeros, written in 1 MiB chunks.
    static func zeros(_ count: Int) -> (_ write: (Data) -> Void) -> Void {
      { write in
        let chunk = Data(String(repeating: "0,", count: 1 << 19).utf8)
        write(Data("[".utf8))
        var left = count - 1
        while left >= 1 << 19 {
          write(chunk)
          left -= 1 << 19
        }
        write(Data(String(repeating: "0,", count: left).utf8))
        write(Data("0]".utf8))
      }
    }

    static func run(_ arguments: [String], timeLimit: Double, in directory: URL) throws
      -> ReplayProcess.Outcome
    {
      let outcome = try ReplayProcess.run(arguments, timeLimit: timeLimit, in: directory)
      print(
        "[BigInputTests] replay \(arguments.first ?? "") …: \(outcome.description.prefix { $0 != "\n" })"
      )
      #expect(!outcome.timedOut, "replay \(arguments.joined(separator: " ")) hung: \(outcome)")
      #expect(
        outcome.timedOut || outcome.signal == nil,
        "replay \(arguments.joined(separator: " ")) crashed: \(outcome)")
      #expect(
        isSanitized || outcome.peakResidentBytes < memoryCeiling,
        "replay \(arguments.joined(separator: " ")) used \(outcome.peakMiB) MiB: \(outcome)")
      return outcome
    }

    /// Checks the bound a command that decodes one line at a time keeps: at most 4× the line
    /// (`length` bytes) plus 64 MiB (skipped under a sanitizer).
    static func expectWithinTheBound(
      _ outcome: ReplayProcess.Outcome, line length: Int, _ what: String,
      sourceLocation: SourceLocation = #_sourceLocation
    ) {
      #expect(
        isSanitized || outcome.peakResidentBytes < 4 * length + (64 << 20),
        "\(what) used \(outcome.peakMiB) MiB for a \(length >> 10) KiB line",
        sourceLocation: sourceLocation)
    }

    @Test func aHundredMegabyteLineIsOverTheSizeLimit() throws {
      try CLIFixture.withTemporaryDirectory { directory in
        let url = directory.appendingPathComponent("long-line.jsonl")
        let length = try Self.writeLog(to: url) { write in
          let chunk = Data(repeating: UInt8(ascii: "a"), count: 1 << 20)
          write(Data("\"".utf8))
          for _ in 0..<100 { write(chunk) }
          write(Data("\"".utf8))
        }
        let limit = ReaderLimits.default.maxLineBytes
        for command in ["info", "state", "verify"] {
          let outcome = try Self.run([command, url.path], timeLimit: 120, in: directory)
          #expect(outcome.status == 2, "\(outcome)")
          #expect(
            outcome.firstErrorLine
              == "error: \(url.path):2 (byte \(HostileLog.counterHeader.count + 1)): line over the "
              + "size limit (\(length) bytes, limit \(limit))", "\(outcome)")
        }
      }
    }

    /// `tail` follows the file in 1 MiB chunks: the long line must cost time in proportion to
    /// its length, and be reported once.
    @Test func tailReportsAHundredMegabyteLineOnceAndInTime() throws {
      try CLIFixture.withTemporaryDirectory { directory in
        let url = directory.appendingPathComponent("long-line.jsonl")
        _ = try Self.writeLog(to: url) { write in
          let chunk = Data(repeating: UInt8(ascii: "a"), count: 1 << 20)
          write(Data("\"".utf8))
          for _ in 0..<100 { write(chunk) }
          write(Data("\"".utf8))
        }
        // A sanitizer slows every byte down several times; the limit only has to catch a
        // rescan of the whole pending line per chunk, which took minutes.
        let outcome = try Self.run(
          ["tail", url.path], timeLimit: Self.isSanitized ? 150 : 30, in: directory)
        #expect(outcome.status == 0, "\(outcome)")
        let warnings = outcome.standardError.split(separator: "\n").filter {
          $0.hasPrefix("warning:")
        }
        #expect(warnings.count == 1, "\(outcome)")
        #expect(warnings.first?.contains("line over the size limit") == true, "\(outcome)")
        #expect(outcome.standardOutput.contains("2        -  increment"), "\(outcome)")
      }
    }

    @Test func tenMillionElementPayloadFailsToDecode() throws {
      try CLIFixture.withTemporaryDirectory { directory in
        let url = directory.appendingPathComponent("wide.jsonl")
        _ = try Self.writeLog(to: url, payload: Self.zeros(10_000_000))
        let outcome = try Self.run(["state", url.path], timeLimit: 300, in: directory)
        #expect(outcome.status == 2, "\(outcome)")
        #expect(
          outcome.firstErrorLine
            == "error: \(url.path):2: action 1 (type \"increment\") does not decode: expected "
            + "object, found array", "\(outcome)")
      }
    }

    /// Opening a log does not build the values of a line it only indexes: a hand-written line
    /// of ten million values (no checksum, so not in the recorder's layout) is read for its
    /// `kind` and `seq` by the validator and a pass that keeps key hashes. `state --at 0` needs
    /// no action, so its peak stays within 4× the line plus 64 MiB (it was 25× the line when the
    /// line was parsed whole).
    @Test func indexingAWideLineDoesNotBuildItsValues() throws {
      try CLIFixture.withTemporaryDirectory { directory in
        let url = directory.appendingPathComponent("wide-open.jsonl")
        let length = try Self.writeLog(to: url, payload: Self.zeros(10_000_000))
        let outcome = try Self.run(
          ["state", url.path, "--at", "0", "--json", "--no-isolate"], timeLimit: 300,
          in: directory)
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.standardOutput == "{\"count\":0}\n", "\(outcome)")
        Self.expectWithinTheBound(outcome, line: length, "state --at 0")
      }
    }

    /// `info` names the type of a cut-off log's last action without building its payload:
    /// within 4× the line plus 64 MiB when that action is ten million values wide (it parsed
    /// the whole line into a `JSONValue` tree for its `type`: 670 MB).
    @Test func infoNamesAWideLastActionWithoutBuildingIt() throws {
      try CLIFixture.withTemporaryDirectory { directory in
        let url = directory.appendingPathComponent("wide-last.jsonl")
        let length = try Self.writeLog(to: url, endsWithIt: true, payload: Self.zeros(10_000_000))
        let outcome = try Self.run(
          ["info", url.path, "--no-isolate"], timeLimit: 300, in: directory)
        #expect(outcome.status == 0, "\(outcome)")
        #expect(
          outcome.standardOutput.contains(
            "killed while running action 1 (increment)"), "\(outcome)")
        Self.expectWithinTheBound(outcome, line: length, "info")
      }
    }

    /// A record whose own top level holds 3,000,000 members no reader knows besides its action
    /// (a 30 MB line): `state` and `actions` read the members they need from its tape, within
    /// 4× the line plus 64 MiB (they parsed the whole line into a `JSONValue` tree: 610 MB for a
    /// 66 MB line).
    @Test func aRecordWithMillionsOfTopLevelMembersStaysWithinTheBound() throws {
      try CLIFixture.withTemporaryDirectory { directory in
        let url = directory.appendingPathComponent("wide-record.jsonl")
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        handle.write(Data(HostileLog.counterHeader + [0x0A]))
        handle.write(Data(#"{"kind":"action","seq":1,"action":{"increment":{}}"#.utf8))
        var length = 50
        for block in 0..<30 {
          let members = (block * 100_000..<(block + 1) * 100_000).map {
            #","x\#(String($0, radix: 36))":0"#
          }
          let chunk = Data(members.joined().utf8)
          handle.write(chunk)
          length += chunk.count
        }
        handle.write(Data(#","type":"increment"}"#.utf8 + [0x0A]))
        try handle.close()
        let state = try Self.run(
          ["state", url.path, "--at", "last", "--json", "--no-isolate"], timeLimit: 300,
          in: directory)
        #expect(state.status == 0, "\(state)")
        #expect(state.standardOutput == #"{"count":1}"# + "\n", "\(state)")
        Self.expectWithinTheBound(state, line: length, "state")
        let actions = try Self.run(["actions", url.path, "--json"], timeLimit: 300, in: directory)
        #expect(actions.status == 0, "\(actions)")
        #expect(
          actions.standardOutput
            == #"{"seq":1,"type":"increment","action":{"increment":{}},"line":2}"# + "\n",
          "\(actions)")
        Self.expectWithinTheBound(actions, line: length, "actions")
      }
    }

    /// A todo state of 300,000 todos as the encoder writes it: 21 MB of JSON.
    static let largeTodoState: Data = {
      var state = Data(#"{"todos":["#.utf8)
      for block in 0..<30 {
        let todos = (block * 10_000..<(block + 1) * 10_000).map { id in
          #"{"id":\#(id),"title":"Todo number \#(id) with some words","done":\#(id % 3 == 0)}"#
        }
        state.append(Data(((block == 0 ? "" : ",") + todos.joined(separator: ",")).utf8))
      }
      state.append(Data(#"],"filter":"all","nextID":300001}"#.utf8))
      return state
    }()

    /// `state --json` on a legitimate large state — a checkpoint of 300,000 todos, a 21 MB line
    /// — prints it straight from the encoder's bytes (no `JSONValue` tree, no `String` copy of
    /// the text) within 4× the line plus 64 MiB, byte for byte the state recorded; so do
    /// `state` as text and `state --path`.
    @Test func aLargeStateAsJSONStaysWithinTheBound() throws {
      try CLIFixture.withTemporaryDirectory { directory in
        let url = directory.appendingPathComponent("large-state.jsonl")
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        handle.write(
          Data(
            (#"{"kind":"header","format":"rewind","version":1,"session":"s","app":"todo","#
              + #""actionType":"TodoAction","stateType":"TodoState","#
              + #""recordedAt":"2026-01-01T00:00:00Z","firstSeq":1,"checkpointInterval":1000,"#
              + #""state":{"todos":[],"filter":"all","nextID":1}}"# + "\n"
              + #"{"kind":"action","seq":1,"type":"setFilter","#
              + #""action":{"setFilter":{"_0":"all"}}}"# + "\n").utf8))
        let prefix = Data(#"{"kind":"checkpoint","seq":1,"state":"#.utf8)
        let state = Self.largeTodoState
        handle.write(prefix + state + Data("}\n".utf8))
        try handle.close()
        let outcome = try Self.run(
          ["state", url.path, "--at", "last", "--json", "--no-isolate"], timeLimit: 300,
          in: directory)
        #expect(outcome.status == 0, "\(outcome.firstErrorLine)")
        #expect(outcome.standardOutput.utf8.elementsEqual(state + Data("\n".utf8)))
        Self.expectWithinTheBound(outcome, line: prefix.count + state.count + 1, "state --json")
        // As text, indented from the same bytes a piece at a time; a path builds only its value.
        let text = try Self.run(
          ["state", url.path, "--at", "last", "--no-isolate"], timeLimit: 300, in: directory)
        #expect(text.status == 0, "\(text.firstErrorLine)")
        let indented = state.withUnsafeBytes { JSONIndenter.indented($0) }
        #expect(text.standardOutput.utf8.elementsEqual(indented + [0x0A]))
        Self.expectWithinTheBound(text, line: prefix.count + state.count + 1, "state")
        let path = try Self.run(
          ["state", url.path, "--at", "last", "--path", "todos[299999].title", "--no-isolate"],
          timeLimit: 300, in: directory)
        #expect(path.standardOutput == #""Todo number 299999 with some words""# + "\n")
        Self.expectWithinTheBound(path, line: prefix.count + state.count + 1, "state --path")
        // A path to nearly all of it: its text is printed as it is, never built as a tree.
        let todos = try Self.run(
          ["state", url.path, "--at", "last", "--path", "todos", "--json", "--no-isolate"],
          timeLimit: 300, in: directory)
        let array = state.dropFirst(#"{"todos":"#.utf8.count).dropLast(
          #","filter":"all","nextID":300001}"#.utf8.count)
        #expect(todos.standardOutput.utf8.elementsEqual(array + Data("\n".utf8)))
        Self.expectWithinTheBound(todos, line: prefix.count + state.count + 1, "state --path todos")
      }
    }

    /// A header that holds a large state (300,000 todos, a 21 MB line) and a checkpoint holding
    /// it again: the header's state is kept as where its text is in the file and decoded from
    /// there only when a rebuild starts from it, so `info` builds nothing of it, `state` at
    /// either position prints the recorded bytes, and `verify` compares bytes. Each stays within
    /// the file plus 3× its largest line plus 64 MiB (the file is read into memory whole); `diff`
    /// of two such logs within twice that.
    @Test func aLargeStateInTheHeaderStaysWithinTheBound() throws {
      try CLIFixture.withTemporaryDirectory { directory in
        let url = directory.appendingPathComponent("large-header.jsonl")
        let state = Self.largeTodoState
        let header =
          Data(
            (#"{"kind":"header","format":"rewind","version":1,"session":"s","app":"todo","#
              + #""actionType":"TodoAction","stateType":"TodoState","#
              + #""recordedAt":"2026-01-01T00:00:00Z","firstSeq":1,"checkpointInterval":1000,"#
              + #""state":"#).utf8) + state + Data("}\n".utf8)
        let action = Data(
          (#"{"kind":"action","seq":1,"type":"setFilter","action":{"setFilter":{"_0":"all"}}}"#
            + "\n").utf8)
        let checkpoint =
          Data(#"{"kind":"checkpoint","seq":1,"state":"#.utf8) + state + Data("}\n".utf8)
        let file = header + action + checkpoint
        try file.write(to: url)
        let bound = file.count + 3 * max(header.count, checkpoint.count) + (64 << 20)
        func expectWithinTheBound(_ outcome: ReplayProcess.Outcome, _ what: String) {
          #expect(
            Self.isSanitized || outcome.peakResidentBytes < bound,
            "\(what) used \(outcome.peakMiB) MiB for a \(file.count >> 10) KiB file")
        }
        let info = try Self.run(["info", url.path, "--no-isolate"], timeLimit: 300, in: directory)
        #expect(info.status == 0, "\(info.firstErrorLine)")
        #expect(info.standardOutput.contains("actions:      1 (seq 1…1)"))
        expectWithinTheBound(info, "info")
        // The default, isolated `info` checks the cut-off log's last action: decoded here from
        // the checkpoint after it, or — without one — replayed in the worker, rebuilt there and
        // not sent back; no tree of the state is built either way. `tail` builds no state it
        // does not show.
        let withoutCheckpoint = directory.appendingPathComponent("no-checkpoint.jsonl")
        try (header + action).write(to: withoutCheckpoint)
        for log in [url, withoutCheckpoint] {
          let checked = try Self.run(["info", log.path], timeLimit: 300, in: directory)
          #expect(checked.status == 0, "\(checked.firstErrorLine)")
          #expect(
            checked.standardOutput.contains(
              "crashed at:   no — action 1, the last one recorded, replays without a crash"))
          expectWithinTheBound(checked, "info of \(log.lastPathComponent)")
        }
        let tail = try Self.run(["tail", url.path], timeLimit: 300, in: directory)
        #expect(tail.status == 0, "\(tail.firstErrorLine)")
        #expect(tail.standardOutput.contains(#"setFilter      "all""#))
        expectWithinTheBound(tail, "tail")
        for position in ["0", "last"] {
          let shown = try Self.run(
            ["state", url.path, "--at", position, "--json", "--no-isolate"], timeLimit: 300,
            in: directory)
          #expect(shown.status == 0, "\(shown.firstErrorLine)")
          #expect(shown.standardOutput.utf8.elementsEqual(state + Data("\n".utf8)))
          expectWithinTheBound(shown, "state --at \(position) --json")
        }
        let verify = try Self.run(
          ["verify", url.path, "--no-isolate"], timeLimit: 300, in: directory)
        #expect(verify.status == 0, "\(verify.firstErrorLine)")
        #expect(verify.standardOutput.contains("the checkpoint was reproduced"))
        expectWithinTheBound(verify, "verify")
        /// `diff` of the log with `other`: its status and a line it prints, within the bound of
        /// each log.
        func expectDiff(
          with other: URL, status: Int32, saying line: String, within limit: Int = 2 * bound
        ) throws {
          let diff = try Self.run(
            ["diff", url.path, other.path, "--no-isolate"], timeLimit: 300, in: directory)
          #expect(diff.status == status, "\(diff.firstErrorLine)")
          #expect(diff.standardOutput.contains(line))
          #expect(
            Self.isSanitized || diff.peakResidentBytes < limit,
            "diff used \(diff.peakMiB) MiB for two \(file.count >> 10) KiB files")
        }
        // Two such logs: the states compared as bytes, not as trees.
        try expectDiff(with: url, status: 0, saying: "the sessions are equivalent")
        // States that differ in one value are compared from their texts, neither built as a
        // tree: the change found.
        let edited = directory.appendingPathComponent("edited.jsonl")
        let one = Data(#""id":1234,"title":"Todo number 1234 with some words","done":false"#.utf8)
        let other = Data(#""id":1234,"title":"Todo number 1234 with some words","done":true"#.utf8)
        let editedCheckpoint = checkpoint.replacing(one, with: other, maxReplacements: 1)
        #expect(editedCheckpoint != checkpoint)
        try (header + action + editedCheckpoint).write(to: edited)
        try expectDiff(with: edited, status: 1, saying: "todos[1234].done: false → true")
        let diverging = try Self.run(
          ["verify", edited.path, "--no-isolate"], timeLimit: 300, in: directory)
        #expect(diverging.status == 1, "\(diverging.firstErrorLine)")
        #expect(diverging.standardOutput.contains("todos[1234].done: true → false"))
        expectWithinTheBound(diverging, "verify of a diverging checkpoint")
        // States that differ throughout: every todo removed, from the initial states and from
        // the final ones (600,000 changes), printed as they are found, never all held. The
        // bound is the two logs' (the second's: its file, 3× its largest line, 64 MiB).
        let emptyHeader = Data(
          (#"{"kind":"header","format":"rewind","version":1,"session":"s","app":"todo","#
            + #""actionType":"TodoAction","stateType":"TodoState","#
            + #""recordedAt":"2026-01-01T00:00:00Z","firstSeq":1,"checkpointInterval":1000,"#
            + #""state":{"todos":[],"filter":"all","nextID":1}}"# + "\n").utf8)
        let empty = directory.appendingPathComponent("empty.jsonl")
        try (emptyHeader + action).write(to: empty)
        try expectDiff(
          with: empty, status: 1, saying: #"- todos[299999]: {"id":299999,"#,
          within: bound + emptyHeader.count + action.count + 3 * emptyHeader.count + (64 << 20))
        // A checkpoint none of whose todos the replay has: each is a change, found as printed.
        let everyTodo = directory.appendingPathComponent("every-todo.jsonl")
        try (emptyHeader + action + checkpoint).write(to: everyTodo)
        let differsThroughout = try Self.run(
          ["verify", everyTodo.path, "--no-isolate"], timeLimit: 300, in: directory)
        #expect(differsThroughout.status == 1, "\(differsThroughout.firstErrorLine)")
        #expect(
          differsThroughout.standardOutput.contains(
            #"  - todos[299999]: {"id":299999,"title":"Todo number 299999 with some words","#))
        Self.expectWithinTheBound(
          differsThroughout, line: checkpoint.count, "verify of a checkpoint differing throughout")
        // The page holds its states as their texts: within the bound, the state in it as recorded.
        let page = directory.appendingPathComponent("large.html")
        let export = try Self.run(
          ["export", url.path, "--html", page.path, "--no-isolate"], timeLimit: 300, in: directory)
        #expect(export.status == 0, "\(export.firstErrorLine)")
        let html = try Data(contentsOf: page)
        #expect(html.count > state.count && html.range(of: state.prefix(4_096)) != nil)
        expectWithinTheBound(export, "export --html")
        // DevTools' lifted state holds the state twice; it is written as it is made.
        let lifted = directory.appendingPathComponent("large.json")
        let devTools = try Self.run(
          ["export", url.path, "--redux-devtools", lifted.path, "--no-isolate"], timeLimit: 300,
          in: directory)
        #expect(devTools.status == 0, "\(devTools.firstErrorLine)")
        let liftedState = try Data(contentsOf: lifted)
        #expect(liftedState.count > 2 * state.count && liftedState.range(of: state) != nil)
        expectWithinTheBound(devTools, "export --redux-devtools")
        // Closed, the log's action is exported and gen-test replays it: the long array is
        // decoded an element at a time (its tape never held whole), and gen-test writes the
        // state's JSON a piece at a time (never as one `String`).
        let closed = directory.appendingPathComponent("closed.jsonl")
        try (file + Data((#"{"kind":"end","seq":1,"reason":"closed"}"# + "\n").utf8)).write(
          to: closed)
        for (option, name) in [("--html", "closed.html"), ("--redux-devtools", "closed.json")] {
          let output = directory.appendingPathComponent(name)
          let exported = try Self.run(
            ["export", closed.path, option, output.path, "--no-isolate"], timeLimit: 300,
            in: directory)
          #expect(exported.status == 0, "\(exported.firstErrorLine)")
          #expect(try Data(contentsOf: output).range(of: state.suffix(4_096)) != nil)
          expectWithinTheBound(exported, "export \(option) of the closed log")
        }
        let generated = try Self.run(
          ["gen-test", closed.path, "--no-isolate"], timeLimit: 300, in: directory)
        #expect(generated.status == 0, "\(generated.firstErrorLine)")
        #expect(
          generated.standardOutput.contains(
            #"{"id":299999,"title":"Todo number 299999 with some words","done":false}],"#
              + #""filter":"all","nextID":300001}"#))
        expectWithinTheBound(generated, "gen-test")
      }
    }

    /// The hostile lines whose decoding stays within 4× the line plus 64 MiB (docs/reliability.md
    /// has the table).
    enum BoundedCase: String, CaseIterable, CustomTestStringConvertible {
      /// A 16,000,000-character string where a number is expected.
      case longString
      /// An object of 1,000,000 keys, none the one expected.
      case manyKeys
      /// An object of 5,000,000 short keys (48 MB): past 1 Mi tape entries its members are read
      /// from the text, where the tape would take 32 bytes for each 9-byte member.
      case manyShortKeys
      /// Arrays nested to the depth limit.
      case deepNesting
      /// 10,000,000 numbers where one is expected (a lazy array: the tape keeps 1 Mi entries).
      case manyNumbers
      /// 2,000,000 objects `{"a":1}` where a number is expected.
      case manyObjects

      var testDescription: String { rawValue }

      /// Writes the action's payload: an `add` whose `_0` (or whose whole object) is hostile.
      func payload(_ write: (Data) -> Void) {
        switch self {
        case .longString:
          write(Data(#"{"add":{"_0":""#.utf8))
          let chunk = Data(repeating: UInt8(ascii: "a"), count: 1_000_000)
          for _ in 0..<16 { write(chunk) }
          write(Data(#""}}"#.utf8))
        case .manyKeys:
          write(Data(#"{"add":{"#.utf8))
          for block in 0..<100 {
            let keys = (block * 10_000..<(block + 1) * 10_000).map { #""k\#($0)":1"# }
            write(Data(((block == 0 ? "" : ",") + keys.joined(separator: ",")).utf8))
          }
          write(Data("}}".utf8))
        case .manyShortKeys:
          write(Data(#"{"add":{"#.utf8))
          for block in 0..<50 {
            let keys = (block * 100_000..<(block + 1) * 100_000).map {
              #""\#(String($0, radix: 36))":0"#
            }
            write(Data(((block == 0 ? "" : ",") + keys.joined(separator: ",")).utf8))
          }
          write(Data("}}".utf8))
        case .manyNumbers:
          write(Data(#"{"add":{"_0":"#.utf8))
          BigInputTests.zeros(10_000_000)(write)
          write(Data("}}".utf8))
        case .manyObjects:
          write(Data(#"{"add":{"_0":["#.utf8))
          let chunk = Data(String(repeating: #"{"a":1},"#, count: 100_000).utf8)
          for _ in 0..<20 { write(chunk) }
          write(Data(#"{"a":1}]}}"#.utf8))
        case .deepNesting:
          // The line and the action's two objects are three levels of the 512.
          let depth = JSONLimits.default.maxDepth - 4
          write(Data(#"{"add":{"_0":"#.utf8))
          write(Data(String(repeating: "[", count: depth).utf8))
          write(Data(String(repeating: "]", count: depth).utf8))
          write(Data("}}".utf8))
        }
      }
    }

    /// Decoding the action of each bounded case — and failing, with its reason — peaks within
    /// 4× the line plus 64 MiB.
    @Test(arguments: BoundedCase.allCases)
    func decodingAHostileActionStaysWithinTheBound(_ hostile: BoundedCase) throws {
      try CLIFixture.withTemporaryDirectory { directory in
        let url = directory.appendingPathComponent("\(hostile.rawValue).jsonl")
        let length = try Self.writeLog(to: url, payload: hostile.payload)
        let outcome = try Self.run(
          ["state", url.path, "--at", "last", "--json", "--no-isolate"], timeLimit: 300,
          in: directory)
        #expect(outcome.status == 2, "\(outcome)")
        #expect(outcome.firstErrorLine.contains("does not decode"), "\(outcome)")
        Self.expectWithinTheBound(outcome, line: length, "\(hostile)")
      }
    }

    /// The widest payload the reader takes: `JSONLimits.maxElements` values in the line, its
    /// own four members included. This is what bounds memory, more than the line's length:
    /// parsed, each value costs tens of bytes, against two bytes of text.
    @Test func payloadAtTheElementLimitStaysUnderTheMemoryCeiling() throws {
      try CLIFixture.withTemporaryDirectory { directory in
        let url = directory.appendingPathComponent("widest.jsonl")
        _ = try Self.writeLog(to: url, payload: Self.zeros(JSONLimits.default.maxElements - 4))
        let outcome = try Self.run(["state", url.path], timeLimit: 300, in: directory)
        #expect(outcome.status == 2, "\(outcome)")
        #expect(
          outcome.firstErrorLine.hasSuffix("does not decode: expected object, found array"),
          "\(outcome)")
      }
    }

    /// One value more than `JSONLimits.maxElements` (the line's own four members count too).
    @Test func payloadPastTheElementLimitIsRefusedBeforeMoreMemoryIsSpent() throws {
      try CLIFixture.withTemporaryDirectory { directory in
        let url = directory.appendingPathComponent("too-wide.jsonl")
        let limit = JSONLimits.default.maxElements
        _ = try Self.writeLog(to: url, payload: Self.zeros(limit))
        let outcome = try Self.run(["info", url.path], timeLimit: 300, in: directory)
        #expect(outcome.status == 2, "\(outcome)")
        #expect(outcome.firstErrorLine.hasPrefix("error: \(url.path):2 (byte "), "\(outcome)")
        #expect(
          outcome.firstErrorLine.hasSuffix(
            "too many values: the document holds more than \(limit)"),
          "\(outcome)")
      }
    }
  }
}
