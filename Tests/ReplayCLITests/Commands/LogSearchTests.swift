import Foundation
import RewindReplayService
import RewindTestSupport
import Testing

/// What `replay triage` and `replay info FOLDER` take for logs: files as named, `.jsonl` files
/// under a folder (hidden ones and shrunk reproductions left out), glob matches, each once.
@Suite struct LogSearchTests {
  static func make(_ folder: URL, _ names: [String]) throws {
    for name in names {
      let url = folder.appendingPathComponent(name)
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data("{}\n".utf8).write(to: url)
    }
  }

  @Test func aFolderIsEveryJSONLinesFileUnderItButHiddenAndShrunkOnes() throws {
    try CLIFixture.withTemporaryDirectory { folder in
      try Self.make(
        folder,
        [
          "b.jsonl", "a.jsonl", "notes.txt", "a.shrunk.jsonl", "deep/er/c.jsonl",
          ".hidden/d.jsonl", ".e.jsonl",
        ])
      let base = folder.path
      let found = try LogSearch.targets([base]).map(\.path)
      #expect(found == ["\(base)/a.jsonl", "\(base)/b.jsonl", "\(base)/deep/er/c.jsonl"])
      // A file named twice, or found again through its folder, is one log.
      let named = try LogSearch.targets(["\(base)/b.jsonl", base, "\(base)/notes.txt"])
      #expect(
        named.map(\.path) == [
          "\(base)/b.jsonl", "\(base)/a.jsonl", "\(base)/deep/er/c.jsonl", "\(base)/notes.txt",
        ])
      #expect(named.allSatisfy { $0.files == [$0.path] })
    }
  }

  @Test func aGlobIsItsMatchesAndAPathThatIsNeitherIsAnError() throws {
    try CLIFixture.withTemporaryDirectory { folder in
      try Self.make(folder, ["x-1.jsonl", "x-2.jsonl", "y.jsonl", "sub-x/z.jsonl"])
      let base = folder.path
      #expect(
        try LogSearch.targets(["\(base)/x-*"]).map(\.path) == [
          "\(base)/x-1.jsonl", "\(base)/x-2.jsonl",
        ])
      #expect(try LogSearch.targets(["\(base)/sub-?"]).map(\.path) == ["\(base)/sub-x/z.jsonl"])
      #expect(throws: LogSearch.Failure.self) { try LogSearch.targets(["\(base)/nothing-*.jsonl"]) }
      do throws(LogSearch.Failure) {
        _ = try LogSearch.targets(["\(base)/missing.jsonl"])
        Issue.record("a missing file was taken")
      } catch {
        #expect(
          error.message
            == "no such file or folder: \(base)/missing.jsonl — give log files, folders of logs "
            + "or a glob ('logs/*.jsonl')")
      }
    }
  }

  /// A shell's `logs/*.jsonl` names a session's rotated files one by one: they are one log, as
  /// in a folder; a session named only in part is not joined.
  @Test func theRotatedFilesOfASessionNamedOneByOneAreOneLog() throws {
    let folder = Repository.fixture("analysis/logs/phone-1.4.2")
    let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter {
      $0.hasSuffix(".jsonl")
    }.sorted()
    #expect(names.count == 25)
    let named = try LogSearch.targets(names.map { "\(folder)/\($0)" })
    let byFolder = LogSearch.folder(folder)
    #expect(named.count == 5)
    #expect(Set(named.map(\.files)) == Set(byFolder.map(\.files)))
    #expect(named.first { $0.path.hasSuffix("todo-9876.jsonl") }?.files.count == 6)
    let part = try LogSearch.targets([
      "\(folder)/2026-12-06T20-06-12-405Z-todo-9876.1.jsonl",
      "\(folder)/2026-12-06T20-06-12-405Z-todo-9876.jsonl",
    ])
    #expect(part.count == 2)
    #expect(part.allSatisfy { $0.files.count == 1 })
  }
}
