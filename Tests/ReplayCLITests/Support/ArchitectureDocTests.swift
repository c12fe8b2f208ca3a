import Foundation
import Testing

/// docs/architecture.md stays true: every file it names exists.
@Suite struct ArchitectureDocTests {
  @Test func everyFileTheMapNamesExists() throws {
    let root = CLIFixture.packageRoot
    let text = try String(
      contentsOf: root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
    // Paths in backticks: `Sources/…`, `Tests/…`, `Scripts/…`, `docs/…`.
    var named: [String] = []
    for piece in text.split(separator: "`").enumerated() where piece.offset % 2 == 1 {
      let path = String(piece.element)
      if ["Sources/", "Tests/", "Scripts/", "docs/"].contains(where: path.hasPrefix),
        !path.contains(" ")
      {
        named.append(path)
      }
    }
    #expect(named.count > 30, "the map names \(named.count) files")
    let missing = named.filter {
      !FileManager.default.fileExists(atPath: root.appendingPathComponent($0).path)
    }
    #expect(missing.isEmpty, "docs/architecture.md names files that do not exist: \(missing)")
  }
}
