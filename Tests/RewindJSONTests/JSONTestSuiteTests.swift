import Foundation
import RewindTestSupport
import Testing

@testable import RewindJSON

/// The parsing corpus of Nicolas Seriot's JSONTestSuite, read in place from
/// `../shared/corpora/JSONTestSuite/test_parsing` (or `$REWIND_JSONTESTSUITE`): `y_` files must
/// parse, `n_` files must be rejected, `i_` files may go either way. None may crash the parser.
///
/// Skipped, with the reason, on a clone without `../shared/`; required when `CI=true`.
@Suite(.enabled(if: corpus.shouldRun, Comment(rawValue: corpus.skipComment)))
struct JSONTestSuiteTests {
  /// `y_` files that Rewind rejects on purpose, being stricter than RFC 8259.
  static let acceptableByRFCButRejected: [String: JSONParseError.Reason] = [
    // A log line whose meaning depends on which duplicate a reader keeps is not evidence.
    "y_object_duplicated_key.json": .duplicateKey("a"),
    "y_object_duplicated_key_and_value.json": .duplicateKey("a"),
  ]

  /// `i_` files that Rewind accepts; every other `i_` file is rejected. Numbers are kept as text,
  /// so huge ones parse (and fail later, if decoded into a type they do not fit); unpaired
  /// surrogates, malformed UTF-8, UTF-16 and byte order marks are rejected.
  static let acceptedImplementationDefined: Set<String> = [
    "i_number_double_huge_neg_exp.json",
    "i_number_huge_exp.json",
    "i_number_neg_int_huge_exp.json",
    "i_number_pos_double_huge_exp.json",
    "i_number_real_neg_overflow.json",
    "i_number_real_pos_overflow.json",
    "i_number_real_underflow.json",
    "i_number_too_big_neg_int.json",
    "i_number_too_big_pos_int.json",
    "i_number_very_big_negative_int.json",
    "i_structure_500_nested_arrays.json",
  ]

  static func corpus(prefix: String) throws -> [(name: String, bytes: [UInt8])] {
    try SharedTestData.jsonTestSuite.files(withSuffix: ".json").filter { $0.name.hasPrefix(prefix) }
  }

  static func parse(_ bytes: [UInt8]) -> Result<JSONValue, JSONParseError> {
    Result { () throws(JSONParseError) in try JSONParser.parse(bytes) }
  }

  @Test func rejectsEveryFileThatMustBeRejected() throws {
    let files = try Self.corpus(prefix: "n_")
    #expect(files.count == 188)
    for file in files {
      if case .success(let value) = Self.parse(file.bytes) {
        Issue.record("\(file.name) parsed as \(value.jsonText.prefix(80))")
      }
    }
  }

  @Test func acceptsEveryFileThatMustBeAcceptedExceptDuplicateKeys() throws {
    let files = try Self.corpus(prefix: "y_")
    #expect(files.count == 95)
    for file in files {
      let result = Self.parse(file.bytes)
      if let reason = Self.acceptableByRFCButRejected[file.name] {
        #expect(throws: JSONParseError.self, "\(file.name)") { try result.get() }
        if case .failure(let error) = result {
          #expect(error.reason == reason, "\(file.name)")
        }
      } else if case .failure(let error) = result {
        Issue.record("\(file.name): \(error)")
      }
    }
  }

  @Test func decidesImplementationDefinedFilesByRewindsPolicy() throws {
    let files = try Self.corpus(prefix: "i_")
    #expect(files.count == 35)
    for file in files {
      let result = Self.parse(file.bytes)
      switch result {
      case .success:
        #expect(Self.acceptedImplementationDefined.contains(file.name), "\(file.name) parsed")
      case .failure(let error):
        #expect(
          !Self.acceptedImplementationDefined.contains(file.name), "\(file.name): \(error)")
      }
    }
  }

  @Test func acceptedFilesSurviveAWriteAndParseRoundTrip() throws {
    for file in try Self.corpus(prefix: "y_") + Self.corpus(prefix: "i_") {
      guard case .success(let value) = Self.parse(file.bytes) else { continue }
      #expect(try JSONParser.parse(value.serializedBytes) == value, "\(file.name)")
      #expect(try JSONParser.parse(value.prettyText()) == value, "\(file.name)")
    }
  }
}

private let corpus = SharedTestData.jsonTestSuite
