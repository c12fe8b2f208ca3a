import Foundation
import RewindJSON
import RewindTestSupport
import Testing

extension Hostile {
  /// Every file of JSONTestSuite's parsing corpus (read from `../shared/`, when it is there) and
  /// every one of Rewind's own hostile samples, put into a counter log as an action's payload
  /// and as a whole line, and given to every command of `replay`.
  ///
  /// A bad line that is the last one is dropped with a warning by the default `--recovery tail`,
  /// so the logs that every command reads have a sound action and an `end` record after the
  /// hostile line: there, any line the reader cannot take must stop every command that opens the
  /// log with status 2 and a diagnostic naming the file, the line, the byte and the reason. The
  /// expected diagnostic is worked out by ``LineOracle``, independently of the reader.
  ///
  /// Time: about 9,200 in-process runs for the corpus and 2,400 for Rewind's own samples (29 per
  /// input).
  @Suite struct HostileJSONLogTests {
    @Test(
      .enabled(
        if: SharedTestData.jsonTestSuite.shouldRun,
        Comment(rawValue: SharedTestData.jsonTestSuite.skipComment)))
    func theCorpusIsComplete() throws {
      let files = JSONInputs.corpus
      let corpus = SharedTestData.jsonTestSuite
      try corpus.requirePresent()
      #expect(files.count == 318, "read from \(corpus.directory.path)")
      #expect(files.filter { $0.name.hasPrefix("y_") }.count == 95)
      #expect(files.filter { $0.name.hasPrefix("n_") }.count == 188)
      #expect(files.filter { $0.name.hasPrefix("i_") }.count == 35)
    }

    @Test(arguments: JSONInputs.all)
    func fileAsAnActionPayload(file: JSONInput) throws {
      try CLIFixture.withTemporaryDirectory { directory in
        let other = try Self.soundLog(in: directory)
        let followed = HostileLog.bytes([
          HostileLog.counterHeader, HostileLog.action(seq: 1, payload: file.bytes),
          HostileLog.increment(seq: 2), HostileLog.end(seq: 2),
        ])
        let path = try HostileLog.write(followed, named: "followed.jsonl", in: directory)
        let fault = LineOracle.firstFault(in: followed)
        if file.mustBeRejected || file.hasLineFeed {
          #expect(fault != nil, "\(file.name) must make the action line faulty")
        }
        for command in HostileCommand.available {
          let run = HostileRun(command, log: path, scratch: directory, other: other)
          Self.checkStatusAndDiagnostic(run, path: path)
          if let fault {
            Self.checkRefusal(run, of: fault, path: path)
          } else {
            Self.checkUndecodablePayload(run, path: path)
          }
        }
        try Self.checkAsLastLine(HostileLog.action(seq: 1, payload: file.bytes), in: directory)
      }
    }

    @Test(arguments: JSONInputs.all)
    func fileAsAWholeLine(file: JSONInput) throws {
      try CLIFixture.withTemporaryDirectory { directory in
        let other = try Self.soundLog(in: directory)
        let followed = HostileLog.bytes([
          HostileLog.counterHeader, file.bytes, HostileLog.increment(seq: 1),
          HostileLog.end(seq: 1),
        ])
        let path = try HostileLog.write(followed, named: "followed.jsonl", in: directory)
        let fault = LineOracle.firstFault(in: followed)
        // No input is a record; only the blank ones (`n_single_space.json`, …) are skipped as
        // blank lines, which leaves a sound log.
        let isBlank = file.bytes.allSatisfy { [0x20, 0x09, 0x0D, 0x0A].contains($0) }
        #expect((fault == nil) == isBlank, "\(file.name): \(fault.map(String.init) ?? "no fault")")
        for command in HostileCommand.available {
          let run = HostileRun(command, log: path, scratch: directory, other: other)
          Self.checkStatusAndDiagnostic(run, path: path)
          if let fault {
            Self.checkRefusal(run, of: fault, path: path)
          } else {
            #expect(run.status == 0, "\(file.name): \(run)")
          }
        }
        try Self.checkAsLastLine(file.bytes, in: directory)
      }
    }

    /// A hostile payload under a valid checksum is found as the log opens (every line's JSON is
    /// checked then), and every command that opens the log reports it, positioned; `tail`, which
    /// follows lines rather than opening the log, reports it as a warning and goes on.
    @Test(arguments: JSONInputs.all)
    func fileAsAChecksummedActionPayload(file: JSONInput) throws {
      try CLIFixture.withTemporaryDirectory { directory in
        let other = try Self.soundLog(in: directory)
        let hostile = HostileLog.checksummed(HostileLog.action(seq: 1, payload: file.bytes))
        let header = HostileLog.checksummed(HostileLog.counterHeader)
        let log = HostileLog.bytes([
          header, hostile, HostileLog.checksummed(HostileLog.increment(seq: 2)),
          HostileLog.checksummed(HostileLog.end(seq: 2)),
        ])
        let path = try HostileLog.write(log, named: "checksummed.jsonl", in: directory)
        let payloadError = Self.parseErrorOffset(hostile)
        for command in [HostileCommand.info, .actions, .state, .verify, .tail] {
          let run = HostileRun(command, log: path, scratch: directory, other: other)
          Self.checkStatusAndDiagnostic(run, path: path)
          if file.hasLineFeed {
            // The line is split in two: its first part has no closing brace for its checksum.
            if command.opensTheWholeLog {
              #expect(run.status == 2, "\(file.name): \(run)")
              #expect(
                run.firstErrorLine.hasPrefix("error: \(path):2 (byte "), "\(file.name): \(run)")
              #expect(run.firstErrorLine.contains("checksum"), "\(file.name): \(run)")
            }
            continue
          }
          let lineStart = header.count + 1
          guard let offset = payloadError else {
            Self.checkUndecodablePayload(run, path: path)
            continue
          }
          let jsonError = "invalid JSON at byte \(lineStart + offset)"
          // The check at open leaves duplicate keys to decoding: `info` then counts the line as
          // sound; the commands that decode the action report it.
          let isDuplicateKey = file.name.contains("duplicate")
          switch command {
          case .tail:
            #expect(run.status == 0, "\(file.name): \(run)")
            #expect(run.standardError.contains(jsonError), "\(file.name): \(run)")
          case .info where isDuplicateKey:
            #expect(run.status == 0, "\(file.name): \(run)")
            #expect(
              run.run.standardOutput.contains("actions:      2 (seq 1…2)"), "\(file.name): \(run)")
          default:
            #expect(run.status == 2, "\(file.name): \(run)")
            #expect(run.firstErrorLine.hasPrefix("error: \(path):2 (byte "), "\(file.name): \(run)")
            #expect(run.firstErrorLine.contains(jsonError), "\(file.name): \(run)")
          }
        }
      }
    }

    // MARK: Checks

    /// A sound counter log of one `increment`, for `diff`.
    static func soundLog(in directory: URL) throws -> String {
      try HostileLog.write(
        HostileLog.bytes([
          HostileLog.counterHeader, HostileLog.increment(seq: 1), HostileLog.end(seq: 1),
        ]),
        named: "sound.jsonl", in: directory)
    }

    /// The offset in `line` where it stops being JSON, or `nil` when it parses.
    static func parseErrorOffset(_ line: [UInt8]) -> Int? {
      do {
        _ = try JSONParser.parse(line)
        return nil
      } catch {
        return error.offset
      }
    }

    /// Any run: status 0, 1 or 2; status 2 with an `error:` diagnostic naming the log.
    static func checkStatusAndDiagnostic(
      _ run: HostileRun, path: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
      #expect([0, 1, 2].contains(run.status), "\(run)", sourceLocation: sourceLocation)
      guard run.status == 2 else { return }
      #expect(
        !run.firstErrorLine.hasPrefix("Error:"), "not a usage error: \(run)",
        sourceLocation: sourceLocation)
      #expect(run.firstErrorLine.hasPrefix("error: "), "\(run)", sourceLocation: sourceLocation)
      #expect(
        run.standardError.contains(path), "names the log: \(run)", sourceLocation: sourceLocation)
    }

    /// A faulty line that is not the last: every command that opens the log stops with status 2
    /// and the reader's diagnostic; `tail` warns about the line and goes on.
    static func checkRefusal(
      _ run: HostileRun, of fault: LineOracle.Fault, path: String,
      sourceLocation: SourceLocation = #_sourceLocation
    ) {
      if run.command.opensTheWholeLog {
        #expect(run.status == 2, "\(fault): \(run)", sourceLocation: sourceLocation)
        let expected = fault.diagnostic("error", path: path)
        if fault.jsonError != nil {
          #expect(run.firstErrorLine == expected, "\(run)", sourceLocation: sourceLocation)
        } else {
          #expect(run.firstErrorLine.hasPrefix(expected), "\(run)", sourceLocation: sourceLocation)
        }
      } else if fault.jsonError != nil {
        #expect(run.status == 0, "\(run)", sourceLocation: sourceLocation)
        #expect(
          run.standardError.contains(fault.diagnostic("warning", path: path)), "\(run)",
          sourceLocation: sourceLocation)
      }
    }

    /// A valid action line whose payload is not a `CounterAction`: listing works, rebuilding
    /// states fails naming the action, `verify` reports it as no longer decoding.
    static func checkUndecodablePayload(
      _ run: HostileRun, path: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
      let decodingError = "error: \(path):2: action 1 (type \"increment\") does not decode: "
      switch run.command {
      case .info:
        #expect(run.status == 0, "\(run)", sourceLocation: sourceLocation)
        #expect(
          run.run.standardOutput.contains("actions:      2 (seq 1…2)"), "\(run)",
          sourceLocation: sourceLocation)
      case .actions:
        #expect(run.status == 0, "\(run)", sourceLocation: sourceLocation)
        #expect(run.run.outputLines.count == 2, "\(run)", sourceLocation: sourceLocation)
      case .tail:
        #expect(run.status == 0, "\(run)", sourceLocation: sourceLocation)
        #expect(run.standardError == "", "\(run)", sourceLocation: sourceLocation)
      case .state, .diff, .genTest, .exportReduxDevTools, .profile:
        #expect(run.status == 2, "\(run)", sourceLocation: sourceLocation)
        #expect(
          run.firstErrorLine.hasPrefix(decodingError), "\(run)", sourceLocation: sourceLocation)
      case .session:
        #expect(run.status == 2, "\(run)", sourceLocation: sourceLocation)
        #expect(
          run.standardError.hasPrefix(decodingError), "\(run)", sourceLocation: sourceLocation)
      case .verify:
        #expect(run.status == 1, "\(run)", sourceLocation: sourceLocation)
        #expect(
          run.run.standardOutput.hasPrefix("action 1 no longer decodes: \(path):2: action 1"),
          "\(run)",
          sourceLocation: sourceLocation)
      case .exportHTML:
        // The page is written; it shows the decoding error at the positions it cannot rebuild.
        #expect(run.status == 0, "\(run)", sourceLocation: sourceLocation)
      }
    }

    /// `line` as the last line of a log: a faulty last line is dropped with a warning, so `info`
    /// and `state` succeed with the state before it; any other line is read as in the middle.
    static func checkAsLastLine(
      _ line: [UInt8], in directory: URL, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
      let bytes = HostileLog.bytes([HostileLog.counterHeader, line])
      let path = try HostileLog.write(bytes, named: "last.jsonl", in: directory)
      let fault = LineOracle.firstFault(in: bytes)
      for command in [HostileCommand.info, .state] {
        let run = HostileRun(command, log: path, scratch: directory, other: path)
        checkStatusAndDiagnostic(run, path: path, sourceLocation: sourceLocation)
        switch fault {
        case .some(let fault) where fault.isLast:
          #expect(run.status == 0, "\(fault): \(run)", sourceLocation: sourceLocation)
          if command == .state {
            let warning = fault.diagnostic("warning", path: path)
            if fault.jsonError != nil {
              #expect(run.firstErrorLine == warning, "\(run)", sourceLocation: sourceLocation)
            } else {
              #expect(
                run.firstErrorLine.hasPrefix(warning), "\(run)", sourceLocation: sourceLocation)
            }
            #expect(
              run.run.standardOutput.contains("\"count\": 0"), "\(run)",
              sourceLocation: sourceLocation)
          }
        case .some(let fault):
          checkRefusal(run, of: fault, path: path, sourceLocation: sourceLocation)
        case .none where line.first == UInt8(ascii: "{"):
          if command == .state {
            #expect(run.status == 2, "\(run)", sourceLocation: sourceLocation)
          } else {
            #expect(run.status == 0, "\(run)", sourceLocation: sourceLocation)
          }
        case .none:
          #expect(run.status == 0, "\(run)", sourceLocation: sourceLocation)
        }
      }
    }
  }
}
