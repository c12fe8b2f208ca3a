import Foundation
import Testing

@testable import ReplayCLI

extension Hostile {
  /// Logs that look odd but are valid: every command must give the correct result, exit 0.
  @Suite struct ValidOddLogTests {
    /// A counter log with a checkpoint: count 0 → 5 → 6 → 4 (checkpoint) → 5, closed.
    static let counterLines: [[UInt8]] = [
      HostileLog.counterHeader, HostileLog.add(seq: 1, 5), HostileLog.increment(seq: 2),
      HostileLog.add(seq: 3, -2), Array(#"{"kind":"checkpoint","seq":3,"state":{"count":4}}"#.utf8),
      HostileLog.increment(seq: 4), HostileLog.end(seq: 4),
    ]

    /// Runs every command on `bytes` written as `session.jsonl` in a directory of its own, and
    /// returns each run with the directory's path replaced by `$DIR`.
    static func runEveryCommand(on bytes: [UInt8], extra: [[String]] = []) throws -> [String] {
      try CLIFixture.withTemporaryDirectory { directory in
        let path = try HostileLog.write(bytes, named: "session.jsonl", in: directory)
        var transcripts: [String] = []
        for command in HostileCommand.available {
          let run = HostileRun(command, log: path, scratch: directory, other: path)
          #expect(run.status == 0, "\(run)")
          transcripts.append(
            "\(command) → \(run.status)\n\(run.run.standardOutput)\(run.standardError)"
              .replacingOccurrences(of: directory.path, with: "$DIR"))
        }
        for arguments in extra {
          let run = HostileRun(.state, arguments: arguments.map { $0 == "LOG" ? path : $0 })
          #expect(run.status == 0, "\(arguments): \(run)")
          transcripts.append(
            "\(arguments) → \(run.status)\n\(run.run.standardOutput)\(run.standardError)"
              .replacingOccurrences(of: directory.path, with: "$DIR"))
        }
        return transcripts
      }
    }

    @Test func crlfLineEndsReadExactlyLikeLineFeeds() throws {
      let positions = (0...4).map { ["state", "LOG", "--at", String($0), "--json"] }
      let lf = try Self.runEveryCommand(on: HostileLog.bytes(Self.counterLines), extra: positions)
      let crlf = try Self.runEveryCommand(
        on: HostileLog.bytes(Self.counterLines, terminator: [0x0D, 0x0A]), extra: positions)
      #expect(lf.count == crlf.count)
      // `profile` prints times, which differ from run to run: its first line (the count) only.
      for (a, b) in zip(lf, crlf) where !a.hasPrefix("export") {
        if a.hasPrefix("profile") {
          #expect(a.split(separator: "\n").prefix(2) == b.split(separator: "\n").prefix(2))
        } else {
          #expect(a == b)
        }
      }
      #expect(
        lf.suffix(5).map { $0.split(separator: "\n").dropFirst().first } == [
          #"{"count":0}"#, #"{"count":5}"#, #"{"count":6}"#, #"{"count":4}"#, #"{"count":5}"#,
        ])
      #expect(
        lf.contains {
          $0.hasPrefix("verify → 0\n$DIR/session.jsonl: the checkpoint was reproduced")
        })
    }

    /// Escaped NUL and ESC in a todo title are valid JSON: replayed, and shown escaped.
    @Test func escapedControlCharactersInATitleAreReplayedAndShownInert() throws {
      let add =
        #"{"kind":"action","seq":1,"type":"add","action":{"add":{"title":"a\u0000b\u001b[2Jc\u0007"}}}"#
      let bytes = HostileLog.bytes([
        HostileLog.todoHeader, Array(add.utf8),
        Array(#"{"kind":"action","seq":2,"type":"toggle","action":{"toggle":{"id":1}}}"#.utf8),
        Array(#"{"kind":"end","seq":2,"reason":"closed"}"#.utf8),
      ])
      let transcripts = try Self.runEveryCommand(
        on: bytes,
        extra: [["state", "LOG", "--path", "todos[0].title"], ["actions", "LOG", "--json"]])
      for transcript in transcripts {
        #expect(!transcript.utf8.contains(0x00), "\(transcript)")
        #expect(!transcript.utf8.contains(0x1B), "\(transcript)")
        #expect(!transcript.utf8.contains(0x07), "\(transcript)")
      }
      #expect(transcripts.contains { $0.contains(#"\u0000b\u001b[2Jc\u0007"#) })
    }

    /// Seqs near the largest the reader takes (`firstSeq` below `Int.max / 2`): no arithmetic on
    /// positions may overflow.
    @Test func seqsNearTheLimitAreReplayed() throws {
      let first = Int.max / 2 - 1
      let header = String(decoding: HostileLog.counterHeader, as: UTF8.self)
        .replacingOccurrences(of: #""firstSeq":1"#, with: #""firstSeq":\#(first)"#)
      let bytes = HostileLog.bytes([
        Array(header.utf8), HostileLog.increment(seq: first), HostileLog.increment(seq: first + 1),
        Array(#"{"kind":"checkpoint","seq":\#(first + 1),"state":{"count":2}}"#.utf8),
        HostileLog.end(seq: first + 1),
      ])
      let max = String(Int.max)
      let transcripts = try Self.runEveryCommand(
        on: bytes,
        extra: [
          ["actions", "LOG", "--from", String(Int.min), "--to", max],
          [
            "LOG", "-c", "goto first", "-c", "next \(max)", "-c", "back \(max)", "-c",
            "list \(max)",
          ],
          ["tail", "LOG", "-n", max],
        ])
      #expect(transcripts.contains { $0.contains("actions:      2 (seq \(first)…\(first + 1))") })
      #expect(transcripts.contains { $0.hasPrefix("state → 0\n{\n  \"count\": 2\n}") })
    }
  }
}
