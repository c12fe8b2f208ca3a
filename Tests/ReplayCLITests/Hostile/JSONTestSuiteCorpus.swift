import Foundation
import Testing

/// One file of Nicolas Seriot's JSONTestSuite parsing corpus (MIT licence; the copy and its
/// LICENSE live in `Tests/RewindJSONTests/Resources/JSONTestSuite/`, read from there).
struct CorpusFile: Sendable, CustomTestStringConvertible {
  var name: String
  var bytes: [UInt8]

  var testDescription: String { name }

  /// `y_` files are valid JSON, `n_` files are not, `i_` files are up to the parser.
  var mustBeRejected: Bool { name.hasPrefix("n_") }

  /// Whether the file holds a line feed, which splits a log line holding it in two.
  var hasLineFeed: Bool { bytes.contains(0x0A) }
}

enum JSONTestSuiteCorpus {
  /// `Tests/RewindJSONTests/Resources/JSONTestSuite/test_parsing`, found from this file.
  static let directory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // Hostile
    .deletingLastPathComponent()  // ReplayCLITests
    .deletingLastPathComponent()  // Tests
    .appendingPathComponent("RewindJSONTests/Resources/JSONTestSuite/test_parsing")

  /// Every `.json` file of the corpus, sorted by name (empty when the directory is missing;
  /// ``JSONTestSuiteLogTests`` checks the count).
  static let files: [CorpusFile] = {
    let names =
      (try? FileManager.default.contentsOfDirectory(atPath: directory.path))?
      .filter { $0.hasSuffix(".json") }.sorted() ?? []
    return names.compactMap { name in
      guard
        let data = FileManager.default.contents(atPath: directory.appendingPathComponent(name).path)
      else { return nil }
      return CorpusFile(name: name, bytes: Array(data))
    }
  }()
}
