import Foundation
import RewindTestSupport
import Testing

/// One hostile JSON text given to every command of `replay`: a file of JSONTestSuite's parsing
/// corpus (read in place from `../shared/`), or one of Rewind's own ``HostileJSON`` samples.
struct JSONInput: Sendable, CustomTestStringConvertible {
  var name: String
  var bytes: [UInt8]
  /// Whether the JSON standard (or a default limit) makes the parser refuse it. For the corpus:
  /// `n_` files; `y_` and `i_` files may parse.
  var mustBeRejected: Bool

  var testDescription: String { name }

  /// Whether the text holds a line feed, which splits a log line holding it in two.
  var hasLineFeed: Bool { bytes.contains(0x0A) }
}

enum JSONInputs {
  /// Every `.json` file of the shared corpus, sorted by name; empty when it is not there
  /// (``Hostile/HostileJSONLogTests/theCorpusIsComplete`` then says so, and fails in CI).
  static let corpus: [JSONInput] =
    ((try? SharedTestData.jsonTestSuite.files(withSuffix: ".json")) ?? []).map {
      JSONInput(name: $0.name, bytes: $0.bytes, mustBeRejected: $0.name.hasPrefix("n_"))
    }

  /// Rewind's own hostile samples that are small enough for every command.
  static let own: [JSONInput] = HostileJSON.small.map {
    JSONInput(name: $0.name, bytes: $0.bytes, mustBeRejected: $0.mustBeRejected)
  }

  /// The corpus and Rewind's own samples.
  static let all = corpus + own
}
