import Foundation
import RewindReplayService
import Testing

@testable import ReplayCLI

extension Hostile {
  /// Every hostile input through every command that reads a log: the first line of standard error
  /// is a diagnostic that names the file and says specifically what is wrong with it.
  ///
  /// Set `HOSTILE_TABLE=1` to print the table of (input, command, status, first stderr line).
  @Suite struct ErrorMessageTests {
    @Test(arguments: HostileInput.allCases)
    func everyCommandSaysWhatIsWrong(input: HostileInput) throws {
      try CLIFixture.withTemporaryDirectory { directory in
        let path = try input.make(in: directory)
        let other = try HostileJSONLogTests.soundLog(in: directory)
        for command in HostileCommand.available where command.opensTheWholeLog {
          let run = HostileRun(command, log: path, scratch: directory, other: other)
          if ProcessInfo.processInfo.environment["HOSTILE_TABLE"] != nil {
            print("| \(input) | \(command) | \(run.status) | \(inert(run.firstErrorLine)) |")
          }
          if input.isUndecodableAction {
            checkUndecodableAction(run, input: input, path: path)
            continue
          }
          #expect(run.status == 2, "\(input): \(run)")
          #expect(run.run.standardOutput == "", "\(input): \(run)")
          #expect(run.firstErrorLine.hasPrefix("error: \(path)"), "\(input): \(run)")
          for words in input.keyWords {
            #expect(run.firstErrorLine.contains(words), "\(input): \(run)")
          }
        }
      }
    }

    /// A sound log whose action no longer decodes: listing it works, rebuilding states does not,
    /// and `verify` reports the action (status 1).
    private func checkUndecodableAction(_ run: HostileRun, input: HostileInput, path: String) {
      switch run.command {
      case .info, .actions, .exportHTML, .tail:
        #expect(run.status == 0, "\(input): \(run)")
      case .verify:
        #expect(run.status == 1, "\(input): \(run)")
        for words in input.keyWords {
          #expect(run.run.standardOutput.contains(words), "\(input): \(run)")
        }
      case .state, .session, .diff, .genTest, .exportReduxDevTools, .profile:
        #expect(run.status == 2, "\(input): \(run)")
        let diagnostic =
          run.command == .session
          ? run.standardError.split(separator: "\n").first { $0.hasPrefix("error:") }.map(
            String.init) ?? ""
          : run.firstErrorLine
        #expect(diagnostic.hasPrefix("error: \(path):2: "), "\(input): \(run)")
        for words in input.keyWords {
          #expect(diagnostic.contains(words), "\(input): \(run)")
        }
      }
    }

    /// The misplaced-record message is English: "an action line", not "a action line".
    @Test func misplacedActionReadsAsEnglish() throws {
      try CLIFixture.withTemporaryDirectory { directory in
        let path = try HostileInput.actionAfterTheEnd.make(in: directory)
        let run = HostileRun(.info, log: path, scratch: directory, other: path)
        #expect(
          run.firstErrorLine.hasSuffix(
            "misplaced record: an action line after the end record at line 3"))
      }
    }
  }
}
