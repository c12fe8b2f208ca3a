import ReplayCLI
import Testing

@Suite struct DiagnosticTests {
  private let checksum = Diagnostic.error(
    "checksum mismatch — the line was changed after it was recorded",
    at: .init(file: "session.jsonl", line: 42, byteOffset: 5310),
    notes: ["41 actions before it are intact"],
    hints: [
      .init("replay session.jsonl --recovery prefix", comment: "replay the 41 intact actions")
    ])

  @Test func rendersSeverityLocationNotesAndHints() {
    #expect(
      checksum.rendered() == """
        error: session.jsonl:42 (byte 5310): checksum mismatch — the line was changed after it was recorded
        note: 41 actions before it are intact
        hint: replay session.jsonl --recovery prefix   # replay the 41 intact actions
        """)
  }

  @Test func colourMarksTheSeverityWordsAndDimsComments() {
    let esc = "\u{1B}["
    #expect(
      checksum.rendered(style: .colored) == """
        \(esc)1m\(esc)31merror:\(esc)39m\(esc)22m session.jsonl:42 (byte 5310): checksum mismatch — the line was changed after it was recorded
        \(esc)1m\(esc)36mnote:\(esc)39m\(esc)22m 41 actions before it are intact
        \(esc)1m\(esc)36mhint:\(esc)39m\(esc)22m replay session.jsonl --recovery prefix   \(esc)2m# replay the 41 intact actions\(esc)22m
        """)
  }

  @Test(arguments: [
    (Diagnostic.Severity.error, "\u{1B}[31m"), (.warning, "\u{1B}[33m"), (.note, "\u{1B}[36m"),
    (.hint, "\u{1B}[36m"),
  ])
  func eachSeverityHasItsColour(_ severity: Diagnostic.Severity, _ colour: String) {
    let rendered = Diagnostic(severity, "message").rendered(style: .colored)
    #expect(rendered == "\u{1B}[1m\(colour)\(severity.rawValue):\u{1B}[39m\u{1B}[22m message")
  }

  @Test func hintCommentsAlignAfterTheLongestHint() {
    let diagnostic = Diagnostic.warning(
      "the log ends without an end record",
      at: .init(file: "crash.jsonl"),
      hints: [
        .init("replay crash.jsonl", comment: "step to the last action"),
        .init("replay info crash.jsonl --json", comment: "summarize it for a script"),
        "see docs/recovery.md",
      ])
    #expect(
      diagnostic.rendered() == """
        warning: crash.jsonl: the log ends without an end record
        hint: replay crash.jsonl               # step to the last action
        hint: replay info crash.jsonl --json   # summarize it for a script
        hint: see docs/recovery.md
        """)
  }

  @Test(arguments: [
    (Diagnostic.Location(file: "a.jsonl"), "a.jsonl"),
    (.init(file: "a.jsonl", line: 3), "a.jsonl:3"),
    (.init(file: "a.jsonl", byteOffset: 0), "a.jsonl (byte 0)"),
    (.init(file: "a.jsonl", line: 1, byteOffset: 0), "a.jsonl:1 (byte 0)"),
  ])
  func locationLeavesOutWhatIsUnknown(_ location: Diagnostic.Location, _ expected: String) {
    #expect(location.description == expected)
  }

  @Test func withoutLocationTheMessageFollowsTheSeverity() {
    #expect(Diagnostic.error("no such file").rendered() == "error: no such file")
  }

  @Test func untrustedTextIsMadeInert() {
    let diagnostic = Diagnostic.error(
      "unknown action type '\u{1B}]52;c;aGk=\u{07}'",
      at: .init(file: "evil\u{1B}[2J.jsonl", line: 1),
      notes: ["title: \u{202E}gnp.exe\nsecond line"],
      hints: [.init("replay \u{9B}x", comment: "\u{1B}[31mred")])
    #expect(
      diagnostic.rendered() == """
        error: evil\\x1b[2J.jsonl:1: unknown action type '\\x1b]52;c;aGk=\\x07'
        note: title: \\u{202e}gnp.exe\\nsecond line
        hint: replay \\u{9b}x   # \\x1b[31mred
        """)
  }
}
