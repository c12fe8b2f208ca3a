import Foundation
import Testing

/// docs/embedding.md shows the bundled `replay` binary's `main.swift` word for word as the
/// example of a replay binary; the file is compiled by every build, so the page cannot rot.
@Suite struct EmbeddingDocTests {
  @Test func theEmbeddingPageShowsTheBundledMainWordForWord() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let page = try String(
      contentsOf: root.appendingPathComponent("docs/embedding.md"), encoding: .utf8)
    let main = try String(
      contentsOf: root.appendingPathComponent("Sources/replay/main.swift"), encoding: .utf8)
    #expect(
      page.contains("```swift\n" + main + "```\n"),
      "docs/embedding.md and Sources/replay/main.swift disagree")
  }
}
