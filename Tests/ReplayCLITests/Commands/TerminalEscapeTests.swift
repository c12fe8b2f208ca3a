import Foundation
import Rewind
import RewindExamples
import Testing

/// A log is untrusted input: titles, types, keys and names holding terminal escape sequences
/// reach the terminal inert — no raw ESC (clear screen, OSC 52 clipboard writes) or BEL byte in
/// anything `replay` writes.
@Suite struct TerminalEscapeTests {
  static let clearScreen = "\u{1B}[2J"
  static let clipboardWrite = "\u{1B}]52;c;aGk=\u{07}"

  /// Whether `text` holds a byte that could act on a terminal.
  private func hasRawControl(_ text: String) -> Bool {
    text.utf8.contains(0x1B) || text.utf8.contains(0x07) || text.utf8.contains(0x9B)
  }

  /// Records a todo session whose titles hold escape sequences.
  private func withHostileTodoLog(_ body: (String) throws -> Void) throws {
    try CLIFixture.withTemporaryDirectory { directory in
      let path = directory.appendingPathComponent("hostile.jsonl").path
      let store = Store(initialState: TodoState(), reducer: todoReducer)
      var options = RecordingOptions(checkpointInterval: 2, ifExists: .replace)
      options.reproducible = .init(
        session: "s-1", recordedAt: "2026-11-21T10:00:00Z", secondsPerAction: 0.25)
      let recorder = try store.startRecording(to: path, app: "todo", options: options)
      store.dispatch(.add(title: "before \(Self.clearScreen) after"))
      store.dispatch(.add(title: Self.clipboardWrite))
      store.dispatch(.rename(id: 1, title: "\(Self.clipboardWrite)\(Self.clearScreen)"))
      store.dispatch(.toggle(id: 2))
      recorder.close()
      try body(path)
    }
  }

  @Test func recordedTitlesWithEscapesAreInertInEveryCommand() throws {
    try withHostileTodoLog { log in
      let runs = [
        ["info", log],
        ["actions", log],
        ["actions", log, "--json"],
        ["state", log],
        ["state", log, "--at", "2", "--json"],
        ["state", log, "--at", "3", "--path", "todos[0].title"],
        ["state", log, "--at", "3", "--path", "todos[1]"],
        [
          log, "-c", "goto 2", "-c", "print", "-c", "print todos[1].title", "-c", "action",
          "-c", "list", "-c", "find -b 2J", "-c", "info",
        ],
      ]
      for arguments in runs {
        let run = ReplayRun(arguments)
        #expect(run.status == 0, "\(arguments)")
        #expect(!hasRawControl(run.standardOutput), "stdout of \(arguments)")
        #expect(!hasRawControl(run.standardError), "stderr of \(arguments)")
      }
      // The escapes are shown as JSON escapes, not dropped.
      let title = ReplayRun(["state", log, "--at", "2", "--path", "todos[1].title"])
      #expect(title.standardOutput == #""\u001b]52;c;aGk=\u0007""# + "\n")
    }
  }

  @Test func sessionCommandsShowEscapesVisibly() throws {
    try withHostileTodoLog { log in
      let run = ReplayRun([log, "-c", "goto 1", "-c", "action", "-c", "print todos[0].title"])
      #expect(run.status == 0)
      #expect(
        run.standardOutput.replacingLog(log) == #"""
          (replay) goto 1
          >    1    0.250s  add            {"title":"before \u001b[2J after"}
          (replay) action
          action 1 at 0.250s, type add, line 2
          {
            "add": {
              "title": "before \u001b[2J after"
            }
          }
          (replay) print todos[0].title
          "before \u001b[2J after"

          """#)
    }
  }

  @Test func hostileTypeAppAndKeyNamesAreInert() throws {
    let esc = #"\u001b"#
    let bel = #"\u0007"#
    let lines = [
      #"{"kind":"header","format":"rewind","version":1,"session":"s","app":"\#(esc)]0;pwned\#(bel)","actionType":"A\#(esc)[2J","stateType":"S","recordedAt":"\#(esc)[2J","firstSeq":1,"state":{"k\#(esc)[2Jey":1}}"#,
      #"{"kind":"action","seq":1,"time":0.25,"type":"\#(esc)[31mred","action":{"x\#(esc)[2J":{}}}"#,
      #"{"kind":"end","seq":1,"reason":"\#(esc)[2J"}"#,
    ]
    try CLIFixture.withTemporaryDirectory { directory in
      let log = try CLIFixture.write(lines, named: "names.jsonl", in: directory)
      let runs = [
        ["info", log], ["info", log, "--json"], ["actions", log], ["actions", log, "--json"],
        ["state", log, "--at", "0"], ["state", log, "--at", "0", "--path", "key"],
        ["state", log, "--at", "1"],
        [log, "-c", "info", "-c", "next", "-c", "action", "-c", "list", "-c", "print nope"],
      ]
      for arguments in runs {
        let run = ReplayRun(arguments)
        #expect(!hasRawControl(run.standardOutput), "stdout of \(arguments)")
        #expect(!hasRawControl(run.standardError), "stderr of \(arguments)")
      }
      let banner = ReplayRun([log], input: ["help", "quit"])
      #expect(!hasRawControl(banner.combined))
    }
  }

  @Test func fileNameWithEscapesIsInertInErrors() {
    let run = ReplayRun(["info", "/nonexistent/\(Self.clipboardWrite).jsonl"])
    #expect(run.status == 2)
    #expect(!hasRawControl(run.standardError))
    #expect(run.standardError.contains(#"\x1b]52;c;aGk=\x07"#))
  }
}
