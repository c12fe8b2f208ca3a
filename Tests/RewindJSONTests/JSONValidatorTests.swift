import Foundation
import RewindTestSupport
import Testing

@testable import RewindJSON

/// The validator gives the parser's verdict — accepted or not — on every input it is given here,
/// duplicate keys aside (it keeps no keys): the hostile samples, the JSONTestSuite corpus, and
/// seeded mutations of valid documents that break them one byte at a time.
@Suite struct JSONValidatorTests {
  /// Whether the parser accepts `bytes`, counting a duplicate key as accepted (the validator
  /// does not look for them).
  private func parserAccepts(_ bytes: [UInt8], limits: JSONLimits = .default) -> Bool {
    do {
      _ = try JSONParser.parse(bytes, limits: limits)
      return true
    } catch {
      if case .duplicateKey = error.reason { return true }
      return false
    }
  }

  private func validatorAccepts(_ bytes: [UInt8], limits: JSONLimits = .default) -> Bool {
    var validator = JSONValidator(limits: limits)
    return bytes.withUnsafeBytes { validator.isValid($0) }
  }

  @Test func agreesWithTheParserOnEveryHostileSample() {
    for sample in HostileJSON.all {
      #expect(
        validatorAccepts(sample.bytes) == parserAccepts(sample.bytes), "\(sample.name)")
    }
  }

  @Test(.enabled(if: SharedTestData.jsonTestSuite.shouldRun))
  func agreesWithTheParserOnTheJSONTestSuiteCorpus() throws {
    let files = try SharedTestData.jsonTestSuite.files(withSuffix: ".json")
    #expect(files.count > 300)
    for file in files {
      #expect(validatorAccepts(file.bytes) == parserAccepts(file.bytes), "\(file.name)")
    }
  }

  @Test func agreesWithTheParserOnEveryOneByteChangeOfValidDocuments() {
    let documents = [
      #"{"kind":"action","seq":12,"time":3.25,"type":"add","action":{"add":{"title":"Buy milk ü 🥛"}}}"#,
      #"[1,-2.5e+3,0.125,true,false,null,"a\"b\\c\u00e9\ud83d\ude00",{},[],{"k":[{"x":"y"}]}]"#,
      #"  { "spaced" : [ 1 , 2 ] , "e" : "\n\t\/" }  "#,
    ]
    var random = SplitMix64(seed: 24)
    let alphabet =
      Array(#"{}[]:,"\/ubfnrt0123456789+-.eE aé"#.utf8) + [
        0x00, 0x1F, 0x7F, 0xC3, 0xFF, 0xED, 0xA0, 0xF4,
      ]
    var checked = 0
    for document in documents {
      let bytes = Array(document.utf8)
      #expect(validatorAccepts(bytes), "\(document)")
      for _ in 0..<4_000 {
        var changed = bytes
        let position = Int(random.next() % UInt64(bytes.count))
        switch random.next() % 3 {
        case 0: changed[position] = alphabet[Int(random.next() % UInt64(alphabet.count))]
        case 1: changed.remove(at: position)
        default: changed.insert(alphabet[Int(random.next() % UInt64(alphabet.count))], at: position)
        }
        #expect(
          validatorAccepts(changed) == parserAccepts(changed),
          "\(String(decoding: changed, as: UTF8.self))")
        checked += 1
      }
    }
    #expect(checked == 12_000)
  }

  @Test func checksTheLimitsAsTheParserDoes() {
    let limits = JSONLimits(maxDepth: 4, maxStringBytes: 8, maxNumberLength: 5, maxElements: 6)
    let cases: [String] = [
      "[[[[1]]]]", "[[[[[1]]]]]", #"["12345678"]"#, #"["123456789"]"#,
      #"["\u00e9\u00e9\u00e9\u00e9"]"#,
      #"["\u00e9\u00e9\u00e9\u00e9\u00e9"]"#, "[12345]", "[123456]", "[1,2,3,4,5,6]",
      "[1,2,3,4,5,6,7]",
      #"{"a":1,"b":[2,3,4],"c":5}"#, #"{"a":1,"b":[2,3,4],"c":5,"d":6}"#,
    ]
    for text in cases {
      let bytes = Array(text.utf8)
      #expect(
        validatorAccepts(bytes, limits: limits) == parserAccepts(bytes, limits: limits), "\(text)")
    }
  }

  @Test func reportsWhereReadingStopped() {
    var validator = JSONValidator()
    let bytes = Array(#"{"a":[1,2,}"#.utf8)
    let offset = bytes.withUnsafeBytes { validator.firstDefect(in: $0) }
    #expect(offset == 10)
  }
}
