import ReplayCLI
import RewindReplayService
import Testing

@Suite struct TerminalTextTests {
  @Test(arguments: [
    ("clear\u{1B}[2Jscreen", "clear\\x1b[2Jscreen"),
    ("\u{1B}]52;c;aGVsbG8=\u{07}", "\\x1b]52;c;aGVsbG8=\\x07"),
    ("\u{1B}]8;;https://evil.example\u{1B}\\link", "\\x1b]8;;https://evil.example\\x1b\\link"),
    ("nul\u{0}byte", "nul\\x00byte"),
    ("bell\u{07}", "bell\\x07"),
    ("del\u{7F}", "del\\x7f"),
    ("a\nb\tc\rd", "a\\nb\\tc\\rd"),
    ("crlf\r\n", "crlf\\r\\n"),
    ("csi\u{9B}2J", "csi\\u{9b}2J"),
    ("c1 \u{80} \u{85} \u{9F}", "c1 \\u{80} \\u{85} \\u{9f}"),
    ("line\u{2028}para\u{2029}", "line\\u{2028}para\\u{2029}"),
    ("admin\u{202E}txt.exe", "admin\\u{202e}txt.exe"),
    ("\u{202A}\u{202B}\u{202C}\u{202D}", "\\u{202a}\\u{202b}\\u{202c}\\u{202d}"),
    ("\u{2066}iso\u{2069}\u{2067}\u{2068}", "\\u{2066}iso\\u{2069}\\u{2067}\\u{2068}"),
    ("mark\u{200E}\u{200F}\u{061C}", "mark\\u{200e}\\u{200f}\\u{61c}"),
  ])
  func inertEscapesControls(_ text: String, _ expected: String) {
    #expect(inert(text) == expected)
  }

  @Test(arguments: [
    "plain ASCII", "café", "日本語", "👍🏽 👨‍👩‍👧 🇫🇷 ❤️ 1️⃣", "e\u{301}", "back\\slash \\x1b",
    "", "zero\u{200B}width\u{200D}joiner",
  ])
  func inertLeavesPrintableTextAlone(_ text: String) {
    #expect(inert(text) == text)
    #expect(inert(text, keepingNewlines: true) == text)
  }

  @Test func inertIsIdempotent() {
    let hostile = "\u{1B}[31m\u{9B}\u{202E}\n"
    #expect(inert(inert(hostile)) == inert(hostile))
  }

  @Test func keepingNewlinesKeepsOnlyLineFeeds() {
    #expect(inert("a\nb\r\n\u{1B}c\td", keepingNewlines: true) == "a\nb\\r\n\\x1bc\\td")
  }

  @Test func inertOutputHasNoControlCharacters() {
    let everything = String(
      String.UnicodeScalarView((0...0x2070).compactMap(Unicode.Scalar.init)))
    let escaped = inert(everything)
    #expect(
      !escaped.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    #expect(!escaped.unicodeScalars.contains { (0x202A...0x202E).contains($0.value) })
  }

  @Test(arguments: [
    ("abc", 3), ("", 0), ("日本語", 6), ("ｶﾀｶﾅ", 4), ("한국어", 6), ("👍", 2), ("👍🏽", 2),
    ("👨‍👩‍👧", 2), ("🇫🇷", 2), ("❤️", 2), ("❤", 1), ("e\u{301}", 1), ("a\u{200B}b", 2),
    ("ＡＢ", 4), ("Ωμέγα", 5),
  ])
  func displayWidthCountsColumns(_ text: String, _ columns: Int) {
    #expect(displayWidth(of: text) == columns)
  }

  @Test(
    arguments: [
      ("short", 10, "short"),
      ("exact", 5, "exact"),
      ("state.todos", 8, "state.t…"),
      ("abc", 1, "…"),
      ("abc", 0, ""),
      ("abc", -3, ""),
      ("日本語テキスト", 7, "日本語…"),
      ("日本語テキスト", 8, "日本語…"),
      ("a日本", 4, "a日…"),
      ("👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧", 5, "👨‍👩‍👧👨‍👩‍👧…"),
      ("👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧", 4, "👨‍👩‍👧…"),
      ("🇫🇷🇩🇪🇮🇹", 3, "🇫🇷…"),
      ("e\u{301}e\u{301}e\u{301}", 2, "e\u{301}…"),
    ] as [(String, Int, String)])
  func truncateKeepsGraphemesWhole(_ text: String, _ width: Int, _ expected: String) {
    let result = truncate(text, toWidth: width)
    #expect(result == expected)
    #expect(displayWidth(of: result) <= max(0, width))
  }
}
