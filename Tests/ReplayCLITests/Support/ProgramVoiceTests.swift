import Foundation
import ReplayCLI
import Testing

/// An app's own replay binary speaks with its own name and never cites this package's
/// `Fixtures/`: a pasted hint or example runs that binary on a log of the user's.
@Suite struct ProgramVoiceTests {
  private static let cart = ProgramVoice(name: "cart-replay", citesFixtures: false, appName: "cart")

  /// `replay arguments` in process, as the binary `cart-replay` would run.
  private func cartRun(_ arguments: [String], input: [String] = []) -> (
    status: Int32, out: String, err: String
  ) {
    let output = CapturedOutput()
    let status = ReplayTool.run(
      arguments, apps: ReplayRun.apps, output: output, input: ScriptedInput(input),
      voice: Self.cart)
    return (status, output.standardOutput, output.standardError)
  }

  /// The lines of `text` that name `replay` as a command (`replay info`, `'replay verify`)
  /// rather than `cart-replay`.
  private func bundledCommandLines(_ text: String) -> [Substring] {
    text.split(separator: "\n").filter { line in
      line.replacingOccurrences(of: "cart-replay", with: "CART").range(
        of: #"(^|[\s'"`(])replay (-|[A-Z]|\w+\.jsonl|\w+/|info|actions|state|verify|diff)"#,
        options: .regularExpression) != nil
    }
  }

  @Test func everyHelpPageUsesTheBinarysNameAndNoFixture() {
    var pages = [cartRun(["--help"])]
    for command in ReplayProgramCommands.names {
      pages.append(cartRun([command, "--help"]))
    }
    for page in pages {
      #expect(page.status == 0)
      #expect(!page.out.contains("Fixtures"), "\(page.out)")
      #expect(bundledCommandLines(page.out).isEmpty, "\(bundledCommandLines(page.out))")
    }
    let overview = pages[0].out
    #expect(overview.contains("USAGE: cart-replay LOG"))
    #expect(overview.contains("  cart-replay crash.jsonl"))
    #expect(overview.contains("See 'cart-replay help COMMAND' for detailed help."))
    let importHelp = cartRun(["import", "--help"]).out
    #expect(importHelp.contains("cart-replay import devtools-export.json --app cart -o"))
  }

  @Test func hintsOfLogErrorsNameTheBinary() throws {
    try CLIFixture.withTemporaryDirectory { directory in
      let original = try String(
        contentsOfFile: CLIFixture.path("todo-session.jsonl"), encoding: .utf8)
      var lines = original.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      lines[5] = lines[5].replacingOccurrences(of: "\"seq\":5", with: "\"seq\":6")
      let path = directory.appendingPathComponent("flipped.jsonl").path
      try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: path))
      let run = cartRun(["info", path])
      #expect(run.status == 2)
      #expect(run.err.contains("hint: cart-replay \(path) --recovery prefix"), "\(run.err)")
      #expect(bundledCommandLines(run.err).isEmpty, "\(run.err)")
    }
  }

  @Test func usageErrorsAndSessionHelpNameTheBinary() {
    let usage = cartRun(["info", "--jsn"])
    #expect(usage.status == 2)
    #expect(usage.err.contains("Usage: cart-replay info LOG"))
    #expect(usage.err.contains("See 'cart-replay info --help'."))
    let session = cartRun([CLIFixture.path("todo-session.jsonl"), "-c", "help verify"])
    #expect(session.status == 0)
    #expect(session.out.contains("As 'cart-replay verify LOG'."), "\(session.out)")
  }

  @Test func proseAndOtherWordsAreLeftAlone() {
    let voice = Self.cart
    #expect(
      voice.speaking("hint: replay the log with the app version that recorded it")
        == "hint: replay the log with the app version that recorded it")
    #expect(voice.speaking("it replays 3 actions") == "it replays 3 actions")
    #expect(
      voice.speaking("hint: replay LOG --recovery salvage")
        == "hint: cart-replay LOG --recovery salvage")
    #expect(
      voice.speaking("see 'replay info Fixtures/todo-crash.jsonl'")
        == "see 'cart-replay info crash.jsonl'")
    #expect(
      voice.speaking("replay import Fixtures/redux-devtools/actions-export.json --app todo")
        == "cart-replay import devtools-export.json --app cart")
    #expect(
      ProgramVoice.bundled.speaking("replay info Fixtures/todo-crash.jsonl")
        == "replay info Fixtures/todo-crash.jsonl")
    // The bundled binary started by another name keeps its fixtures and takes the name.
    let renamed = ProgramVoice(invokedAs: "/usr/local/bin/rp", citesFixtures: true, apps: [])
    #expect(
      renamed.speaking("replay info Fixtures/counter.jsonl") == "rp info Fixtures/counter.jsonl")
  }

  @Test func theBuiltBinaryTakesTheNameItIsStartedBy() throws {
    let replay = try CLIFixture.replayExecutable()
    try CLIFixture.withTemporaryDirectory { directory in
      let link = directory.appendingPathComponent("cart-replay")
      try FileManager.default.createSymbolicLink(at: link, withDestinationURL: replay)
      let run = try ChildProcess.run(link, ["info", "--jsn"], in: directory)
      #expect(run.status == 2)
      #expect(run.standardError.contains("See 'cart-replay info --help'."), "\(run.standardError)")
    }
  }
}

/// The names of the program's commands, for looping over their help.
private enum ReplayProgramCommands {
  static let names = [
    "info", "actions", "state", "history", "diff", "verify", "compat", "profile", "shrink",
    "gen-test", "export", "import", "tail", "tui", "dap", "mcp",
  ]
}
