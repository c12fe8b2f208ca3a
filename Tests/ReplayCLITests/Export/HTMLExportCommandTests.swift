import Foundation
import Testing

@testable import ReplayCLI

@Suite("HTMLExport command")
struct HTMLExportCommandTests {
  @Test func exportWritesThePageAndSaysWhatItHolds() throws {
    try CLIFixture.withTemporaryDirectory { directory in
      let out = directory.appendingPathComponent("session.html").path
      let run = ReplayRun(["export", CLIFixture.path("todo-session.jsonl"), "--html", out])
      #expect(run.status == 0)
      #expect(run.standardError == "")
      let size = try Data(contentsOf: URL(fileURLWithPath: out)).count
      #expect(
        run.standardOutput
          == "wrote \(out): an HTML page of 340 actions (\(CommandInvocation.byteText(size)))\n")
      let page = try ExportedPage(
        html: String(decoding: Data(contentsOf: URL(fileURLWithPath: out)), as: UTF8.self))
      #expect(page.array("actions").count == 340)
    }
  }

  @Test func exportOfACutOffLogSaysWhereStatesStop() throws {
    try CLIFixture.withTemporaryDirectory { directory in
      let out = directory.appendingPathComponent("crash.html").path
      let run = ReplayRun(["export", CLIFixture.path("todo-crash.jsonl"), "--html", out])
      #expect(run.status == 0)
      #expect(
        run.outputLines.last
          == "note: the log was cut off in action 38: the page shows states up to position 37")
    }
  }

  @Test func exportWithoutTheAppWarnsThatStatesAreOnlyTheRecordedOnes() throws {
    try CLIFixture.withTemporaryDirectory { directory in
      let source = try String(contentsOfFile: CLIFixture.path("counter.jsonl"), encoding: .utf8)
      let log = try CLIFixture.write(
        source.split(separator: "\n").map(String.init), named: "counter.jsonl", in: directory)
      let out = directory.appendingPathComponent("counter.html").path
      let output = CapturedOutput()
      let status = ReplayTool.run(
        ["export", log, "--html", out], apps: [], output: output, input: ScriptedInput([]))
      #expect(status == 0)
      #expect(output.standardError.hasPrefix("warning: "))
      #expect(
        output.standardError.contains(
          "the page shows the actions, and states only at the header and the 3 recorded checkpoints"
        ))
      #expect(FileManager.default.fileExists(atPath: out))
    }
  }

  @Test func exportToAFolderThatDoesNotExistFails() throws {
    let run = ReplayRun([
      "export", CLIFixture.path("counter.jsonl"), "--html", "/nonexistent-folder/x/page.html",
    ])
    #expect(run.status == 2)
    #expect(run.standardError.hasPrefix("error: cannot write /nonexistent-folder/x/page.html: "))
  }

  @Test(arguments: [1, 999, 1_000, 48_213, 19_700_000])
  func sizesReadAsPeopleWriteThem(count: Int) {
    let expected = [
      1: "1 byte", 999: "999 bytes", 1_000: "1.0 KB", 48_213: "48.2 KB", 19_700_000: "19.7 MB",
    ]
    #expect(CommandInvocation.byteText(count) == expected[count])
  }
}
