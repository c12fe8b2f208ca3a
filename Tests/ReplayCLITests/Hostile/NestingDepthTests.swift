import Foundation
import RewindExamples
import RewindJSON
import RewindReplay
import Testing

extension Hostile {
  /// Payloads nested 1…2,000 deep. The reader allows 512 arrays and objects open at once in a
  /// line (`JSONLimits.maxDepth`); an action line's own object is one of them, so a payload may be
  /// 511 deep and a whole line 512. Past that, the error names the limit and the byte where it was
  /// crossed; within it, a payload that is no `CounterAction` fails to decode as a type mismatch.
  @Suite struct NestingDepthTests {
    /// How a payload nests.
    enum Shape: String, CaseIterable, Sendable {
      /// `[[[…]]]`
      case arrays = "["
      /// `{"a":{"a":…0…}}`
      case objects = "{\"a\":"

      /// A value `depth` containers deep.
      func value(depth: Int) -> [UInt8] {
        switch self {
        case .arrays:
          return [UInt8](repeating: UInt8(ascii: "["), count: depth)
            + [UInt8](repeating: UInt8(ascii: "]"), count: depth)
        case .objects:
          return Array(String(repeating: rawValue, count: depth).utf8) + [UInt8(ascii: "0")]
            + [UInt8](repeating: UInt8(ascii: "}"), count: depth)
        }
      }

      /// The offset in `value(depth:)` of the container that opens level `level`.
      func offset(ofLevel level: Int) -> Int { (level - 1) * rawValue.utf8.count }
    }

    static let limit = JSONLimits.default.maxDepth

    /// A counter log: header, an action with `payload`, a sound action, an end record.
    static func log(payload: [UInt8]) -> [UInt8] {
      HostileLog.bytes([
        HostileLog.counterHeader, HostileLog.action(seq: 1, payload: payload),
        HostileLog.increment(seq: 2), HostileLog.end(seq: 2),
      ])
    }

    /// Where the action line starts, and where its payload starts, in every log of this suite.
    static let lineStart = HostileLog.counterHeader.count + 1
    static let payloadStart = lineStart + HostileLog.actionPrefix(seq: 1).count

    @Test(arguments: Shape.allCases)
    func everyDepthFrom1To2000OpensOrFailsAtTheLimit(shape: Shape) throws {
      let app = ReplayApp(name: "counter", reducer: counterReducer)
      for depth in 1...2000 {
        let name = "deep-\(depth).jsonl"
        let result = Result { () throws(ReplayError) in
          try ReplayLog(name: name, contents: Self.log(payload: shape.value(depth: depth)))
        }
        if depth + 1 <= Self.limit {
          let log = try result.get()
          #expect(log.actionCount == 2, "depth \(depth)")
          #expect(throws: Never.self, "depth \(depth)") { _ = try log.action(at: 1) }
          let timeline = try app.timeline(for: log, usesCheckpoints: true)
          let decoding = InProcessReplay.serially {
            Result { () throws(ReplayError) in try timeline.stateJSON(at: 2) }
          }
          guard
            case .failure(.actionDecodingFailed(_, let line, let seq, _, _, let reason)) = decoding
          else {
            Issue.record("depth \(depth): expected a decoding failure, got \(decoding)")
            continue
          }
          #expect(line == 2 && seq == 1, "depth \(depth)")
          #expect(!reason.isEmpty, "depth \(depth)")
        } else {
          guard case .failure(.fault(let fault, _, let intact, _)) = result,
            case .invalidJSON(let error) = fault.reason
          else {
            Issue.record("depth \(depth): expected a JSON fault, got \(result)")
            continue
          }
          #expect(fault.line == 2 && intact == 0, "depth \(depth)")
          #expect(fault.byteOffset == Self.lineStart, "depth \(depth)")
          #expect(error.reason == .tooDeep(limit: Self.limit), "depth \(depth)")
          // The line's object is level 1, so the payload's container at level `limit` is the
          // line's level `limit + 1`: the first one too many.
          #expect(
            error.offset == Self.payloadStart + shape.offset(ofLevel: Self.limit), "depth \(depth)")
        }
      }
    }

    /// The line depth at the boundaries, through every command: a payload of depth `d` makes an
    /// action line of depth `d + 1`.
    @Test(arguments: Shape.allCases, [1, 511, 512, 513, 2000])
    func payloadDepthThroughEveryCommand(shape: Shape, depth: Int) throws {
      try CLIFixture.withTemporaryDirectory { directory in
        let other = try HostileJSONLogTests.soundLog(in: directory)
        let path = try HostileLog.write(
          Self.log(payload: shape.value(depth: depth)), named: "deep.jsonl", in: directory)
        for command in HostileCommand.available {
          let run = HostileRun(command, log: path, scratch: directory, other: other)
          HostileJSONLogTests.checkStatusAndDiagnostic(run, path: path)
          if depth + 1 <= Self.limit {
            HostileJSONLogTests.checkUndecodablePayload(run, path: path)
            continue
          }
          let byte = Self.payloadStart + shape.offset(ofLevel: Self.limit)
          let expected =
            "\(path):2 (byte \(Self.lineStart)): invalid JSON at byte \(byte): nested too deeply: "
            + "more than 512 arrays and objects open at once"
          if command.opensTheWholeLog {
            #expect(run.status == 2, "\(run)")
            #expect(run.firstErrorLine == "error: \(expected)", "\(run)")
          } else {
            #expect(run.status == 0, "\(run)")
            #expect(run.standardError.contains("warning: \(expected)"), "\(run)")
          }
        }
      }
    }

    /// A whole line of exactly 512 and 513 `[`: the first is JSON but no record, the second is
    /// refused where the 513th bracket opens.
    @Test(arguments: [512, 513])
    func wholeLineOfBrackets(depth: Int) throws {
      try CLIFixture.withTemporaryDirectory { directory in
        let bytes = HostileLog.bytes([
          HostileLog.counterHeader, Shape.arrays.value(depth: depth), HostileLog.increment(seq: 1),
        ])
        let path = try HostileLog.write(bytes, named: "brackets.jsonl", in: directory)
        let run = HostileRun(.state, log: path, scratch: directory, other: path)
        #expect(run.status == 2)
        let location = "error: \(path):2 (byte \(Self.lineStart)): "
        if depth <= Self.limit {
          #expect(
            run.firstErrorLine == location
              + "invalid record: the line is a JSON array, not an object")
        } else {
          #expect(
            run.firstErrorLine
              == location + "invalid JSON at byte \(Self.lineStart + 512): nested too deeply: more "
              + "than 512 arrays and objects open at once")
        }
      }
    }

    /// The header's state nested past the limit: the log cannot be opened at all.
    @Test func headerStateNestedTooDeeply() throws {
      try CLIFixture.withTemporaryDirectory { directory in
        var header = String(decoding: HostileLog.counterHeader, as: UTF8.self)
        header = header.replacingOccurrences(
          of: #""state":{"count":0}"#,
          with: #""state":"# + String(decoding: Shape.arrays.value(depth: 600), as: UTF8.self))
        let path = try HostileLog.write(
          HostileLog.bytes([Array(header.utf8), HostileLog.increment(seq: 1)]), named: "deep.jsonl",
          in: directory)
        for command in HostileCommand.available where command.opensTheWholeLog {
          let run = HostileRun(command, log: path, scratch: directory, other: path)
          #expect(run.status == 2, "\(run)")
          #expect(
            run.firstErrorLine.hasPrefix(
              "error: \(path):1: not a Rewind log: line 1 is not valid JSON: "),
            "\(run)")
          #expect(run.firstErrorLine.contains("nested too deeply: more than 512"), "\(run)")
        }
      }
    }
  }
}
