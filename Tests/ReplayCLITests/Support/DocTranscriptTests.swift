import Foundation
import Testing

/// Every transcript in the README and `docs/` is run and compared with what the page shows, so
/// the pages cannot drift from the binary: a ```` ```sh ```` block followed by a ```` ```text ````
/// block (the command, then its output), and a ```` ```text ```` block of `$ command` lines each
/// followed by its output. The commands run in `bash` in the package's root, with the built
/// `replay` and `rewind-testbed` first on `PATH` (`swift run X` is `X`), `NO_COLOR=1`, standard
/// error joined to standard output, and `/tmp/` a scratch folder of the test's own. A `sh` block
/// with no output shown (`sed … > /tmp/tampered.jsonl`) runs too, for the blocks after it.
///
/// What a page shows of a run that differs each time is compared loosely: the count of folded
/// runtime frames (it depends on the build), and a line `[… trimmed on this page …]` stands for
/// any lines. Transcripts whose output varies (``varying``) are run but not compared.
@Suite struct DocTranscriptTests {
  /// Commands whose output differs from run to run: run, not compared. Timings; a journal that
  /// read the clock as it recorded; `shop.jsonl`, a log of the reader's own app that the package
  /// does not have.
  static let varying = [
    "replay profile", "rewind-bench", "time ", "clock-journal", "/tmp/journal.jsonl",
    " shop.jsonl",
  ]
  /// The programs a transcript may run; a block running anything else (`swift build`, an editor)
  /// is left out.
  static let programs: Set<String> = [
    "replay", "rewind-testbed", "printf", "sed", "jq", "cat", "head", "tail", "echo", "rm", "cp",
    "ls", "wc", "grep", "cd", "diff",
  ]

  /// The pages with transcripts.
  static let pages = ["README.md"] + docs()

  private static func docs() -> [String] {
    let names =
      (try? FileManager.default.contentsOfDirectory(
        atPath: CLIFixture.packageRoot.appendingPathComponent("docs").path)) ?? []
    return names.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
  }

  /// A command and the output a page shows for it (`nil`: none shown).
  struct Transcript {
    var command: String
    var output: String?
  }

  /// The transcripts of `page`'s text, in order.
  static func transcripts(in text: String) -> [Transcript] {
    var blocks: [(kind: String, body: String)] = []
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false)[...]
    while let line = lines.popFirst() {
      guard line.hasPrefix("```"), line.count > 3 else { continue }
      var body: [Substring] = []
      while let inner = lines.popFirst(), inner != "```" { body.append(inner) }
      blocks.append((String(line.dropFirst(3)), body.map { $0 + "\n" }.joined()))
    }
    var result: [Transcript] = []
    var index = 0
    while index < blocks.count {
      let block = blocks[index]
      if block.kind == "sh" {
        let next = index + 1 < blocks.count ? blocks[index + 1] : nil
        let output = next?.kind == "text" && !(next?.body.hasPrefix("$ ") ?? false)
        result.append(Transcript(command: block.body, output: output ? next?.body : nil))
        index += output ? 2 : 1
        continue
      }
      if block.kind == "text", block.body.hasPrefix("$ ") {
        var command: String?
        var output = ""
        for line in block.body.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
          if line.hasPrefix("$ ") {
            if let command { result.append(Transcript(command: command, output: output)) }
            command = String(line.dropFirst(2)) + "\n"
            output = ""
          } else {
            output += line + "\n"
          }
        }
        if let command { result.append(Transcript(command: command, output: output)) }
      }
      index += 1
    }
    return result
  }

  /// Whether every command of `script` (each line's first word, and each word after `|`) is
  /// one of ``programs`` (`swift run X` is `X`), and it reads no other block's exit status.
  static func isRunnable(_ script: String) -> Bool {
    // The status of a command in another block is not there to read; a command that runs until
    // it is stopped, or needs a terminal, a client or a running app, has no transcript to check.
    let unending = ["$?", " -f ", "--follow", " listen", "--listen", "replay tui", "replay dap"]
    if unending.contains(where: script.contains) { return false }
    if script.contains("rewind-testbed live") || script.contains("replay mcp") { return false }
    let joined = script.replacingOccurrences(of: "swift run ", with: "")
      .replacingOccurrences(of: "\\\n", with: " ")
    for line in joined.split(separator: "\n") {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
      for part in trimmed.split(separator: "|") {
        let word = part.split(separator: " ").first.map(String.init) ?? ""
        if !programs.contains(word) { return false }
      }
    }
    return true
  }

  /// `output` as a page may show it: the count of folded runtime frames left out.
  static func normalized(_ output: String) -> String {
    output.replacingOccurrences(
      of: #"\(\d+ frames of Swift's runtime"#, with: "(N frames of Swift's runtime",
      options: .regularExpression)
  }

  /// Whether `actual` is what the page shows, `[… trimmed on this page …]` standing for any
  /// lines.
  static func matches(_ actual: String, shown: String) -> Bool {
    let expected = normalized(shown).split(separator: "\n", omittingEmptySubsequences: false)
    let lines = normalized(actual).split(separator: "\n", omittingEmptySubsequences: false)
    func match(_ e: Int, _ a: Int) -> Bool {
      if e == expected.count { return a == lines.count }
      if expected[e].hasPrefix("[… trimmed on this page") {
        return (a...lines.count).contains { match(e + 1, $0) }
      }
      return a < lines.count && lines[a] == expected[e] && match(e + 1, a + 1)
    }
    return match(0, 0)
  }

  @Test(arguments: pages)
  func everyTranscriptShowsWhatTheBinaryPrints(page: String) throws {
    let text = try String(
      contentsOf: CLIFixture.packageRoot.appendingPathComponent(page), encoding: .utf8)
    let transcripts = Self.transcripts(in: text)
    guard transcripts.contains(where: { $0.output != nil }) else { return }
    try CLIFixture.withTemporaryDirectory { scratch in
      let bin = scratch.appendingPathComponent("bin")
      try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
      for name in ["replay", "rewind-testbed"] {
        try FileManager.default.createSymbolicLink(
          at: bin.appendingPathComponent(name), withDestinationURL: CLIFixture.executable(name))
      }
      let tmp = scratch.appendingPathComponent("tmp").path
      try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
      var compared = 0
      for transcript in transcripts where Self.isRunnable(transcript.command) {
        let script = transcript.command.replacingOccurrences(of: "swift run ", with: "")
          .replacingOccurrences(of: "/tmp/", with: tmp + "/")
        let run = try ChildProcess.run(
          URL(fileURLWithPath: "/bin/bash"), ["-c", "(" + script + ") 2>&1"],
          in: CLIFixture.packageRoot,
          environment: [
            "PATH": bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? ""),
            "COLUMNS": "80",
          ])
        guard let shown = transcript.output,
          !Self.varying.contains(where: { transcript.command.contains($0) })
        else { continue }
        compared += 1
        let printed = run.standardOutput.replacingOccurrences(of: tmp + "/", with: "/tmp/")
        #expect(
          Self.matches(printed, shown: shown),
          "\(page): `\(transcript.command.trimmingCharacters(in: .newlines))` prints:\n\(printed)")
      }
      if page == "docs/replay.md" {
        #expect(compared >= 30, "the reference's transcripts are compared: \(compared)")
      }
    }
  }

  @Test func transcriptsAreFoundAndElisionMatchesAnyLines() {
    let page = """
      ```sh
      replay info A
      ```

      ```text
      one
      [… trimmed on this page: 2 more …]
      four
      ```

      ```text
      $ swift run replay verify B
      ok
      ```
      """
    let found = Self.transcripts(in: page)
    #expect(found.map(\.command) == ["replay info A\n", "swift run replay verify B\n"])
    #expect(found.map(\.output) == ["one\n[… trimmed on this page: 2 more …]\nfour\n", "ok\n"])
    #expect(Self.matches("one\ntwo\nthree\nfour\n", shown: found[0].output ?? ""))
    #expect(!Self.matches("one\ntwo\nthree\nfive\n", shown: found[0].output ?? ""))
    #expect(!Self.isRunnable("swift build -c release\n"))
    #expect(Self.isRunnable("printf 'x' | replay A --json | jq .\n"))
  }
}
