import Foundation
import Testing

@testable import ReplayCLI

/// The commands that write a file (`export --html`, `export --redux-devtools`, `import -o`,
/// `shrink -o`) never write over the log they read or, unless `--overwrite`, over another Rewind
/// log; a folder or a missing folder is a clear error before any work.
@Suite struct OutputFileTests {
  static let counter = CLIFixture.packageRoot.appendingPathComponent("Fixtures/counter.jsonl").path

  @Test func theLogBeingReadIsNeverOverwritten() throws {
    try CLIFixture.withTemporaryDirectory { folder in
      let log = folder.appendingPathComponent("counter.jsonl").path
      try FileManager.default.copyItem(atPath: Self.counter, toPath: log)
      let before = try Data(contentsOf: URL(fileURLWithPath: log))
      for arguments in [
        ["export", log, "--html", log], ["export", log, "--html", log, "--overwrite"],
        ["export", log, "--redux-devtools", log, "--overwrite"],
        ["shrink", log, "--until", "count >= 1", "-o", log, "--overwrite"],
      ] {
        let run = ReplayRun(arguments)
        #expect(run.status == 2, "\(arguments)")
        #expect(
          run.standardError.hasPrefix(
            "error: will not write \(log): it is a file this command reads, and writing would "
              + "replace it"), "\(run.combined)")
      }
      #expect(try Data(contentsOf: URL(fileURLWithPath: log)) == before)
    }
  }

  @Test func anotherLogIsReplacedOnlyWithOverwrite() throws {
    try CLIFixture.withTemporaryDirectory { folder in
      let other = folder.appendingPathComponent("other.jsonl").path
      try FileManager.default.copyItem(
        atPath: CLIFixture.packageRoot.appendingPathComponent("Fixtures/todo-crash.jsonl").path,
        toPath: other)
      let refused = ReplayRun(["export", Self.counter, "--html", other])
      #expect(refused.status == 2)
      #expect(
        refused.standardError
          == "error: will not write \(other): it is a Rewind log already, and writing would lose "
          + "that recording\nhint: choose another output file, or add --overwrite if you mean it\n")
      #expect(refused.standardOutput.isEmpty)
      let replaced = ReplayRun(["export", Self.counter, "--html", other, "--overwrite"])
      #expect(replaced.status == 0, "\(replaced.combined)")
      #expect(try String(contentsOfFile: other, encoding: .utf8).hasPrefix("<!doctype html>"))
      // A page written before (not a log) is simply replaced.
      let again = ReplayRun(["export", Self.counter, "--html", other])
      #expect(again.status == 0, "\(again.combined)")
    }
  }

  @Test func aFolderOrAMissingFolderIsSaidPlainly() throws {
    try CLIFixture.withTemporaryDirectory { folder in
      let intoFolder = ReplayRun(["export", Self.counter, "--html", folder.path])
      #expect(intoFolder.status == 2)
      #expect(
        intoFolder.standardError.hasPrefix("error: cannot write \(folder.path): it is a folder"))
      let missing = folder.appendingPathComponent("no/such/dir/x.json").path
      let nowhere = ReplayRun(["export", Self.counter, "--redux-devtools", missing])
      #expect(nowhere.status == 2)
      #expect(
        nowhere.standardError.hasPrefix(
          "error: cannot write \(missing): the folder "
            + "\(folder.appendingPathComponent("no/such/dir").path) does not exist"))
    }
  }

  /// A file made a piece at a time is put in place whole: small and large pieces arrive in
  /// order, and a failure part way leaves the file that was there as it was, with no temporary
  /// file beside it.
  @Test func aStreamedFileIsWrittenWholeOrNotAtAll() throws {
    try CLIFixture.withTemporaryDirectory { folder in
      let path = folder.appendingPathComponent("out.json").path
      try Data("before".utf8).write(to: URL(fileURLWithPath: path))
      let large = [UInt8](repeating: UInt8(ascii: "x"), count: 200_000)
      var expected: [UInt8] = []
      try OutputFile.stream(to: path, inputs: [], replacesLogs: false) {
        writer throws(CommandFailure) in
        for n in 0..<1000 {
          let piece = Array("\(n),".utf8)
          try writer.write(piece)
          expected += piece
          if n % 300 == 0 {
            try writer.write(large)
            expected += large
          }
        }
      }
      #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))) == expected)
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["out.json"])

      #expect(throws: CommandFailure.self) {
        try OutputFile.stream(to: path, inputs: [], replacesLogs: false) {
          writer throws(CommandFailure) in
          try writer.write(large)
          try writer.write(Array("more".utf8))
          throw .diagnostic(.error("stopped part way"))
        }
      }
      #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))) == expected)
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["out.json"])
    }
  }
}
