import Foundation
import RewindTestSupport
import Testing

@testable import RewindJSON

/// `JSONParser.firstError(in:limits:)` reads as `parse` does without keeping the values: on every
/// input, the same error (offset and reason), or none when `parse` succeeds.
@Suite struct JSONParserFirstErrorTests {
  private func parseError(_ bytes: [UInt8], limits: JSONLimits = .default) -> JSONParseError? {
    do {
      _ = try JSONParser.parse(bytes, limits: limits)
      return nil
    } catch {
      return error
    }
  }

  private func firstError(_ bytes: [UInt8], limits: JSONLimits = .default) -> JSONParseError? {
    bytes.withUnsafeBytes { JSONParser.firstError(in: $0, limits: limits) }
  }

  @Test func agreesWithParseOnEveryHostileSample() {
    for sample in HostileJSON.all {
      #expect(firstError(sample.bytes) == parseError(sample.bytes), "\(sample.name)")
    }
  }

  @Test(.enabled(if: SharedTestData.jsonTestSuite.shouldRun))
  func agreesWithParseOnTheJSONTestSuiteCorpus() throws {
    let files = try SharedTestData.jsonTestSuite.files(withSuffix: ".json")
    #expect(files.count > 300)
    for file in files {
      #expect(firstError(file.bytes) == parseError(file.bytes), "\(file.name)")
    }
  }

  /// Duplicate keys (in small and large objects, nested), limits, and seeded one-byte changes.
  @Test func agreesWithParseOnKeysLimitsAndChangedDocuments() {
    let many = (0..<100).map { #""k\#($0)":[\#($0)]"# }.joined(separator: ",")
    var texts = [
      #"{"a":1,"a":2}"#, #"{"a":{"b":1,"b":2}}"#, "{\(many),\"k50\":0}", "{\(many)}",
      #"[{"x":1},{"x":2},{"x":3,"x":4}]"#, #""top""#, "12", "[1,2,3,4,5,6,7]", "[[[[[1]]]]]",
      #"["123456789"]"#, "[123456]",
    ]
    var random = SplitMix64(seed: 77)
    let document = Array(
      #"{"kind":"action","seq":12,"type":"add","action":{"add":{"title":"ü","tags":[1,true,null]}}}"#
        .utf8)
    let alphabet = Array(#"{}[]:,"\/u0123456789-.eE aé"#.utf8) + [0x00, 0xC3, 0xFF]
    for _ in 0..<3_000 {
      var changed = document
      let position = Int(random.next() % UInt64(document.count))
      switch random.next() % 3 {
      case 0: changed[position] = alphabet[Int(random.next() % UInt64(alphabet.count))]
      case 1: changed.remove(at: position)
      default: changed.insert(alphabet[Int(random.next() % UInt64(alphabet.count))], at: position)
      }
      texts.append(String(decoding: changed, as: UTF8.self))
    }
    let limits = JSONLimits(maxDepth: 4, maxStringBytes: 8, maxNumberLength: 5, maxElements: 6)
    var errors = 0
    for text in texts {
      let bytes = Array(text.utf8)
      let expected = parseError(bytes)
      #expect(firstError(bytes) == expected, "\(text)")
      #expect(firstError(bytes, limits: limits) == parseError(bytes, limits: limits), "\(text)")
      if expected != nil { errors += 1 }
    }
    // The changes break most documents, not all: both kinds of answer are compared.
    #expect(errors > 1_000 && errors < texts.count - 100)
  }
}
