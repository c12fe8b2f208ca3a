import Testing

@testable import ReplayCLI

/// `replay listen`'s `wait` and `app N`, parsed by the argument parser: a mistake reads as it
/// does for every command.
@Suite struct LiveSessionCommandsTests {
  /// What a command line parses to, or its rendered usage error.
  enum Outcome: Equatable {
    case success(LiveSessionCommands.Parsed)
    case failure(String)
  }

  /// What `words` parse to, or the rendered usage error.
  static func parsed(_ words: [String]) -> Outcome {
    do throws(CommandUsageError) {
      return .success(try LiveSessionCommands.parse(words))
    } catch {
      return .failure(LiveSessionCommands.program.render(error))
    }
  }

  @Test func waitTakesACountAndATimeLimit() {
    #expect(Self.parsed(["wait"]) == .success(.wait(count: 1, limit: nil)))
    #expect(Self.parsed(["wait", "20"]) == .success(.wait(count: 20, limit: nil)))
    #expect(Self.parsed(["wait", "--timeout", "5", "3"]) == .success(.wait(count: 3, limit: 5)))
    #expect(Self.parsed(["wait", "--help"]) == .success(.help(LiveSessionCommands.wait)))
    #expect(Self.parsed(["app", "2"]) == .success(.app(2)))
  }

  @Test func aMistakeReadsAsEveryCommandsDoes() {
    #expect(
      Self.parsed(["wait", "x"])
        == .failure(
          """
          Error: Invalid value 'x' for 'N': expected a positive integer.
          Usage: wait [N] [--timeout SECONDS]
            See 'wait --help'.
          """))
    #expect(
      Self.parsed(["wait", "2", "--timout", "3"])
        == .failure(
          """
          Error: Unknown option '--timout'. Did you mean '--timeout'?
          Usage: wait [N] [--timeout SECONDS]
            See 'wait --help'.
          """))
    #expect(
      Self.parsed(["wait", "--timeout", "0"])
        == .failure(
          """
          Error: Invalid value '0' for '--timeout': expected a positive integer.
          Usage: wait [N] [--timeout SECONDS]
            See 'wait --help'.
          """))
    #expect(
      Self.parsed(["app"])
        == .failure(
          """
          Error: Missing expected argument 'N'.
          Usage: app N
            See 'app --help'.
          """))
  }
}
