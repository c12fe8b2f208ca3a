import Foundation
import RewindTestSupport
import Testing

/// Third-party test data stays beside the repository, in `../shared/`: no copy of the
/// JSONTestSuite corpus (or its licence) may come back into the tree.
@Suite struct ThirdPartyDataTests {
  /// Folders that are not the project's sources: build output, git, fuzzing work.
  static let ignoredFolders: Set<String> = [
    ".git", ".build", ".swiftpm", "corpus-work", "artifacts",
  ]

  /// Every file under the repository root, as paths relative to it.
  static func filesInTree() throws -> [String] {
    let root = Repository.root
    guard
      let walker = FileManager.default.enumerator(
        at: root, includingPropertiesForKeys: [.isDirectoryKey], options: [])
    else { throw CocoaError(.fileReadNoSuchFile) }
    var paths: [String] = []
    let rootPath = root.standardizedFileURL.path
    for case let url as URL in walker {
      let name = url.lastPathComponent
      let isDirectory = (try? url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true
      if isDirectory {
        if ignoredFolders.contains(name) || name.hasPrefix(".build") {
          walker.skipDescendants()
        }
        continue
      }
      paths.append(String(url.standardizedFileURL.path.dropFirst(rootPath.count + 1)))
    }
    return paths
  }

  /// JSONTestSuite names its files `y_…json`, `n_…json` and `i_…json`; nothing of ours does.
  @Test func noJSONTestSuiteFileIsInTheTree() throws {
    let paths = try Self.filesInTree()
    #expect(paths.contains("Package.swift"), "walked \(Repository.root.path)")
    let pattern = /^[yni]_.+\.json$/
    let copies = paths.filter { path in
      let name = path.split(separator: "/").last.map(String.init) ?? path
      let isCorpusFolder = path.split(separator: "/").dropLast().contains("JSONTestSuite")
      let isCorpusLicence = name.hasPrefix("LICENSE") && name.contains("JSONTestSuite")
      return name.wholeMatch(of: pattern) != nil || isCorpusFolder || isCorpusLicence
    }
    #expect(
      copies.isEmpty,
      "third-party corpus files in the repository (read them from ../shared/ instead): \(copies)")
  }

  /// No file of the tree has the bytes of a corpus file under another name (checked when the
  /// corpus is there; only files over 40 bytes, so that tiny texts like `[]` may coincide).
  @Test(
    .enabled(
      if: SharedTestData.jsonTestSuite.isPresent,
      Comment(rawValue: SharedTestData.jsonTestSuite.skipComment)))
  func noFileOfTheTreeHasACorpusFilesBytes() throws {
    let corpus = try SharedTestData.jsonTestSuite.files(withSuffix: ".json")
      .filter { $0.bytes.count > 40 }
    let bySize = Dictionary(grouping: corpus, by: \.bytes.count)
    let root = Repository.root
    for path in try Self.filesInTree() {
      let url = root.appendingPathComponent(path)
      let size = (try? url.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? -1
      guard let candidates = bySize[size], let data = FileManager.default.contents(atPath: url.path)
      else { continue }
      let bytes = Array(data)
      for file in candidates where file.bytes == bytes {
        Issue.record("\(path) is a copy of JSONTestSuite's \(file.name)")
      }
    }
  }
}
