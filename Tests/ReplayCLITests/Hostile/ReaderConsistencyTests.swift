import Foundation
import RewindReplayService
import Testing

@testable import ReplayCLI

extension Hostile {
  /// Places where a command reads a hostile log differently from the log reader, or words the
  /// reader's error less specifically than the reader does.
  @Suite struct ReaderConsistencyTests {
    /// The reader skips lines of only spaces, tabs and `\r`; `tail` must too, not call them
    /// invalid JSON.
    @Test func tailSkipsBlankLinesLikeTheReader() throws {
      try CLIFixture.withTemporaryDirectory { directory in
        let bytes = HostileLog.bytes([
          HostileLog.counterHeader, HostileLog.increment(seq: 1), Array("   \t ".utf8),
          HostileLog.increment(seq: 2), HostileLog.end(seq: 2),
        ])
        let path = try HostileLog.write(bytes, named: "blank-line.jsonl", in: directory)
        #expect(
          HostileRun(.state, log: path, scratch: directory, other: path).run.standardError == "")
        let tail = HostileRun(.tail, log: path, scratch: directory, other: path)
        #expect(tail.status == 0, "\(tail)")
        #expect(tail.standardError == "", "\(tail)")
      }
    }

    /// `tail` of an empty file, or of one with no header, says so like the other commands.
    @Test(arguments: [HostileInput.emptyFile, .blankLinesOnly, .firstLineNotAHeader, .randomBinary])
    func tailRefusesALogWithoutAHeader(input: HostileInput) throws {
      try CLIFixture.withTemporaryDirectory { directory in
        let path = try input.make(in: directory)
        let tail = HostileRun(.tail, log: path, scratch: directory, other: path)
        #expect(tail.status == 2, "\(tail)")
        #expect(tail.firstErrorLine.hasPrefix("error: \(path)"), "\(tail)")
      }
    }

    /// A line whose checksum is valid but whose JSON is not was written by something other than
    /// the recorder: `verify` must call it trouble (status 2), as `state` does, not report it as
    /// an action of an older app version that "no longer decodes" (status 1).
    @Test func verifyCallsACorruptChecksummedLineTrouble() throws {
      try CLIFixture.withTemporaryDirectory { directory in
        let bytes = HostileLog.bytes(
          [
            HostileLog.counterHeader, HostileLog.action(seq: 1, payload: Array("[1,]".utf8)),
            HostileLog.increment(seq: 2), HostileLog.end(seq: 2),
          ].map(HostileLog.checksummed))
        let path = try HostileLog.write(bytes, named: "corrupt.jsonl", in: directory)
        let state = HostileRun(.state, log: path, scratch: directory, other: path)
        #expect(state.status == 2)
        #expect(state.firstErrorLine.contains("invalid JSON at byte "))
        let verify = HostileRun(.verify, log: path, scratch: directory, other: path)
        #expect(verify.status == 2, "\(verify)")
        #expect(verify.firstErrorLine.hasPrefix("error: \(path):2 (byte "), "\(verify)")
      }
    }

    /// `gen-test` of a cut-off log asks a worker process whether the last action crashes; an
    /// action that does not decode must be reported as such, in one line, as for a closed log.
    @Test func genTestOfACutOffLogNamesTheActionThatDoesNotDecode() throws {
      WorkerProcess.executableOverride.withLock { $0 = try? CLIFixture.replayExecutable() }
      try CLIFixture.withTemporaryDirectory { directory in
        let bytes = HostileLog.bytes([
          HostileLog.counterHeader,
          HostileLog.action(seq: 1, type: "add", payload: Array(#"{"add":{"_0":1e400}}"#.utf8)),
        ])
        let path = try HostileLog.write(bytes, named: "cut-off.jsonl", in: directory)
        let run = HostileRun(.genTest, log: path, scratch: directory, other: path)
        #expect(run.status == 2, "\(run)")
        #expect(
          run.firstErrorLine
            == "error: \(path):2: action 1 (type \"add\") does not decode: add._0: number 1e400 does "
            + "not fit in Int", "\(run)")
        #expect(!run.firstErrorLine.contains(#"\n"#), "one diagnostic, not several escaped: \(run)")
      }
    }
  }
}
