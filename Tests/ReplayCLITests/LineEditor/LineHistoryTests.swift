import Foundation
import Testing

@testable import ReplayCLI

/// The history file: kept across sessions, capped, private, and never a reason to fail.
@Suite struct LineHistoryTests {
  @Test func linesAreSavedAndReadBack() throws {
    try CLIFixture.withTemporaryDirectory { directory in
      let path = directory.appendingPathComponent("history").path
      var history = LineHistory(path: path)
      history.add("goto 12")
      history.add("goto 12  ")
      history.add("   ")
      history.add("print todos")
      #expect(history.entries == ["goto 12", "print todos"])
      #expect(LineHistory(path: path).entries == ["goto 12", "print todos"])
      let contents = try String(contentsOfFile: path, encoding: .utf8)
      #expect(contents == "goto 12\nprint todos\n")
    }
  }

  @Test func theFileIsReadableByItsOwnerOnly() throws {
    try CLIFixture.withTemporaryDirectory { directory in
      let path = directory.appendingPathComponent("history").path
      var history = LineHistory(path: path)
      history.add("info")
      let attributes = try FileManager.default.attributesOfItem(atPath: path)
      #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }
  }

  @Test func theHistoryKeepsTheNewestThousandLines() throws {
    try CLIFixture.withTemporaryDirectory { directory in
      let path = directory.appendingPathComponent("history").path
      try Data((1...1500).map { "next \($0)\n" }.joined().utf8).write(
        to: URL(fileURLWithPath: path))
      var history = LineHistory(path: path)
      #expect(history.entries.count == 1000)
      #expect(history.entries.first == "next 501")
      history.add("quit")
      #expect(LineHistory(path: path).entries.count == 1000)
      #expect(LineHistory(path: path).entries.last == "quit")
      #expect(LineHistory(path: path).entries.first == "next 502")
    }
  }

  @Test func linesWithControlCharactersAreDropped() throws {
    try CLIFixture.withTemporaryDirectory { directory in
      let path = directory.appendingPathComponent("history").path
      try Data("info\nprint \u{1B}[2J\n\ngoto 3\n".utf8).write(to: URL(fileURLWithPath: path))
      var history = LineHistory(path: path)
      #expect(history.entries == ["info", "goto 3"])
      history.add("find \u{1B}x")
      #expect(history.entries == ["info", "goto 3"])
    }
  }

  @Test func anUnreadableOrUnwritableHistoryIsSilent() throws {
    var missing = LineHistory(path: "/nonexistent-dir/history")
    #expect(missing.entries.isEmpty)
    missing.add("next")
    #expect(missing.entries == ["next"])
    try CLIFixture.withTemporaryDirectory { directory in
      var directoryAsFile = LineHistory(path: directory.path)
      #expect(directoryAsFile.entries.isEmpty)
      directoryAsFile.add("next")
      #expect(directoryAsFile.entries == ["next"])
    }
  }

  @Test func theDefaultFileIsInTheHomeDirectory() {
    #expect(
      LineHistory.defaultPath(environment: ["HOME": "/home/ada"])
        == "/home/ada/.rewind_replay_history")
    #expect(
      LineHistory.defaultPath(environment: ["HOME": "/root/"]) == "/root/.rewind_replay_history")
    #expect(LineHistory.defaultPath(environment: [:]) == nil)
  }
}
