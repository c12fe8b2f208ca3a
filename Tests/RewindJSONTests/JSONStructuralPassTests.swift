import RewindTestSupport
import Testing

@_spi(Testing) @testable import RewindJSON

/// The structural pass (`Sources/RewindCPU/JSONStructure.c`) gives the byte-by-byte reader's
/// verdict on every input, on every path this CPU runs — AVX2 and SSE2 (x86-64) or NEON (64-bit
/// ARM), the portable one, and the one chosen by itself: the hostile samples, the JSONTestSuite
/// corpus, and seeded mutations of valid documents placed at every offset of a 64-byte block.
@Suite struct JSONStructuralPassTests {
  /// Each path's verdict on `bytes` and the byte-by-byte reader's, recorded as a failure when
  /// they differ; returns the reader's.
  @discardableResult
  private func expectAgreement(
    _ bytes: [UInt8], limits: JSONLimits = .default, _ what: @autoclosure () -> String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> Bool {
    var reader = JSONValidator(limits: limits)
    let expected = bytes.withUnsafeBytes { reader.scalarFirstDefect(in: $0) } == nil
    for path in JSONStructuralPath.available {
      var validator = JSONValidator(limits: limits, path: path)
      let accepted = bytes.withUnsafeBytes { validator.structuralPassAccepts($0) }
      if accepted != expected {
        Issue.record(
          "\(path): \(accepted ? "accepted" : "rejected") \(what())", sourceLocation: sourceLocation
        )
      }
    }
    return expected
  }

  @Test func thisCPUHasItsPaths() {
    let paths = JSONStructuralPath.available
    #expect(paths.first == .automatic)
    #expect(paths.contains(.portable))
    #expect(paths.contains(JSONStructuralPath.chosen))
    #if arch(x86_64)
      #expect(paths.contains(.sse2))
      #expect(!paths.contains(.neon))
      #expect([.avx2, .sse2].contains(JSONStructuralPath.chosen))
    #elseif arch(arm64)
      #expect(paths.contains(.neon))
      #expect(JSONStructuralPath.chosen == .neon)
    #endif
  }

  @Test func agreesOnEveryHostileSample() {
    for sample in HostileJSON.all {
      expectAgreement(sample.bytes, sample.name)
    }
  }

  @Test(.enabled(if: SharedTestData.jsonTestSuite.shouldRun))
  func agreesOnTheJSONTestSuiteCorpus() throws {
    let files = try SharedTestData.jsonTestSuite.files(withSuffix: ".json")
    #expect(files.count > 300)
    var accepted = 0
    for file in files {
      if expectAgreement(file.bytes, file.name) { accepted += 1 }
      // The same file after 1…63 spaces: its bytes at every offset of a block.
      for shift in [1, 31, 63] {
        expectAgreement(Array(repeating: 0x20, count: shift) + file.bytes, "\(file.name) +\(shift)")
      }
    }
    #expect(accepted > 100)
  }

  /// Documents long enough to straddle blocks, each byte of which is changed, deleted or
  /// followed by an inserted byte at random — from the JSON alphabet and UTF-8's edge bytes —
  /// after 0 to 63 spaces.
  @Test func agreesOnSeededMutations() {
    let documents = [
      #"{"kind":"action","seq":12,"time":3.25,"type":"add","action":{"add":{"title":"Buy milk ü 🥛"}}}"#,
      #"[1,-2.5e+3,0.125,true,false,null,"a\"b\\c\u00e9\ud83d\ude00",{},[],{"k":[{"x":"y"}]}]"#,
      #"  { "spaced" : [ 1 , 2 ] , "e" : "\n\t\/" }  "#,
      #"{"a":"\\\\\\\"\\\"","b":"\\","c":"\\\\\"x","d":["é€𐍈","\uDBFF\uDFFF"],"e":-0.0e-0}"#,
      "{\"long\":\"" + String(repeating: "abcdefgh", count: 20) + "\",\"n\":[0,1,2]}",
    ]
    var random = SplitMix64(seed: 47)
    let alphabet =
      Array(#"{}[]:,"\/ubfnrtDd0123456789+-.eE aé"#.utf8) + [
        0x00, 0x09, 0x0A, 0x0D, 0x1F, 0x7F, 0x80, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xED, 0xEF,
        0xF0, 0xF4, 0xF5, 0xFF, 0x9F, 0xA0, 0x8F, 0x90,
      ]
    var accepted = 0
    var checked = 0
    for document in documents {
      let bytes = Array(document.utf8)
      #expect(expectAgreement(bytes, document))
      for _ in 0..<3_000 {
        var changed = bytes
        for _ in 0...Int(random.next() % 3) {
          let position = Int(random.next() % UInt64(changed.count))
          let byte = alphabet[Int(random.next() % UInt64(alphabet.count))]
          switch random.next() % 3 {
          case 0: changed[position] = byte
          case 1: if changed.count > 1 { changed.remove(at: position) }
          default: changed.insert(byte, at: position)
          }
        }
        changed = Array(repeating: 0x20, count: Int(random.next() % 64)) + changed
        if expectAgreement(changed, String(decoding: changed, as: UTF8.self)) { accepted += 1 }
        checked += 1
      }
    }
    #expect(checked == 15_000)
    #expect(accepted > 300)
  }

  /// Random short texts over the alphabet, all of whose bytes are events or escapes.
  @Test func agreesOnRandomTexts() {
    var random = SplitMix64(seed: 4_700)
    let alphabet = Array(#"{}[]:,"\u0123456789-.eE tfn"#.utf8) + [0xC3, 0xA9, 0x0A]
    for _ in 0..<20_000 {
      let count = Int(random.next() % 140)
      let bytes = (0..<count).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
      expectAgreement(bytes, String(decoding: bytes, as: UTF8.self))
    }
  }

  /// Every token, valid or broken, ending just before, at and after a block's last byte.
  @Test func agreesOnTokensAcrossABlockBoundary() {
    let tokens = [
      #""é""#, #""\u00e9""#, #""\ud83d\ude00""#, #""\ud83d""#, #""\ude00""#, #""\""#, #""\\""#,
      #""\\\""#, "\"\u{1F600}\"", "\"\\x\"", "true", "tru", "false", "null", "nul", "-0.5e+10",
      "01", "1.", "-", "[]", "{}", "\"a\u{7}b\"", "\"\u{0}\"",
    ]
    let broken: [[UInt8]] = [[0x22, 0xF0, 0x9F, 0x98, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22]]
    for token in tokens.map({ Array($0.utf8) }) + broken {
      for padding in 50..<70 {
        let text =
          Array("[".utf8) + Array(repeating: 0x20, count: padding) + token + Array("]".utf8)
        expectAgreement(text, "\(padding) spaces, then \(String(decoding: token, as: UTF8.self))")
        let bare = Array(repeating: 0x20, count: padding) + token
        expectAgreement(bare, "\(padding) spaces, then \(String(decoding: token, as: UTF8.self))")
      }
    }
  }

  @Test func checksTheLimitsAsTheReaderDoes() {
    let limits = JSONLimits(maxDepth: 4, maxStringBytes: 8, maxNumberLength: 5, maxElements: 6)
    let cases: [String] = [
      "[[[[1]]]]", "[[[[[1]]]]]", #"["12345678"]"#, #"["123456789"]"#,
      #"["\u00e9\u00e9\u00e9\u00e9"]"#, #"["\u00e9\u00e9\u00e9\u00e9\u00e9"]"#,
      #"["\ud83d\ude00\ud83d\ude00"]"#, #"["\ud83d\ude00\ud83d\ude00e"]"#, #"["\n\n\n\n\n\n\n\n"]"#,
      #"["\n\n\n\n\n\n\n\n\n"]"#, #"{"12345678":1}"#, #"{"123456789":1}"#, "[12345]", "[123456]",
      "[-1234]", "[-12345]", "[1,2,3,4,5,6]", "[1,2,3,4,5,6,7]", #"{"a":1,"b":[2,3,4],"c":5}"#,
      #"{"a":1,"b":[2,3,4],"c":5,"d":6}"#, "[[],{},[]]", #"[[[],[]],{"a":{}}]"#,
    ]
    for text in cases {
      expectAgreement(Array(text.utf8), limits: limits, text)
    }
    for limits in [JSONLimits.default, .unlimited, JSONLimits(maxDepth: 70)] {
      for depth in [63, 64, 65, 69, 70, 71, 511, 512, 513, 1_000] {
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        expectAgreement(Array(text.utf8), limits: limits, "depth \(depth), \(limits.maxDepth)")
        let objects =
          String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
        expectAgreement(Array(objects.utf8), limits: limits, "objects \(depth), \(limits.maxDepth)")
      }
    }
    let negative = JSONLimits(maxStringBytes: -1)
    #expect(!expectAgreement(Array(#"[""]"#.utf8), limits: negative, "a negative limit"))
  }

  /// Each path's verdict on every line of `bytes` checked in one pass and the byte-by-byte
  /// reader's on each line on its own, recorded as a failure when they differ; returns the
  /// reader's.
  @discardableResult
  private func expectLinesAgreement(
    _ bytes: [UInt8], limits: JSONLimits = .default, _ what: @autoclosure () -> String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> Bool {
    let expected = bytes.withUnsafeBytes {
      JSONStructuralPath.readerAcceptsLines($0, limits: limits)
    }
    for path in JSONStructuralPath.available {
      let accepted = bytes.withUnsafeBytes { path.acceptsLines($0, limits: limits) }
      if accepted != expected {
        Issue.record(
          "\(path), lines: \(accepted ? "accepted" : "rejected") \(what())",
          sourceLocation: sourceLocation)
      }
    }
    return expected
  }

  /// Lines checked many at a time (`JSONValidator.linesAreValid`, a log's lines at open) agree
  /// with each line checked on its own: groups of log lines — blank ones, `\r\n` endings, a
  /// line of more tokens than the pass keeps at once, lines nested deeper than 64, strings at
  /// the top — whose bytes are changed, deleted or followed by an inserted byte at random
  /// (newlines among them), after 0 to 63 spaces, under the default limits and tight ones.
  @Test func linesAgreeWithEachLineOnItsOwn() {
    let big = "[" + (0..<1_500).map { #"{"k":\#($0)}"# }.joined(separator: ",") + "]"
    let deep = String(repeating: #"{"a":["#, count: 40) + "1" + String(repeating: "]}", count: 40)
    let lines = [
      #"{"c":"4573652e","kind":"action","seq":1,"time":0.000500,"type":"add","action":{"add":{"title":"Water the plants 🌱 #203"}}}"#,
      #"{"c":"5774ffa9","kind":"action","seq":2,"time":0.001000,"type":"remove","action":{"remove":{"id":1}}}"#,
      #"{"kind":"checkpoint","seq":2,"state":{"todos":[{"id":1,"done":false,"title":"a\"b\\c\u00e9\ud83d\ude00"}],"filter":null}}"#,
      #"  [1,-2.5e+3,true,false,null,{},[]]  "#, #""top""#, "12", "", "   ", "\r", big, deep,
    ]
    var random = SplitMix64(seed: 4_701)
    let alphabet =
      Array(#"{}[]:,"\/u0123456789-.eE atfn"#.utf8) + [
        0x0A, 0x0A, 0x0A, 0x0D, 0x09, 0x00, 0x1F, 0x80, 0xBF, 0xC3, 0xE0, 0xED, 0xF0, 0xFF,
      ]
    let tight = JSONLimits(maxDepth: 50, maxStringBytes: 12, maxNumberLength: 5, maxElements: 20)
    var accepted = 0
    for round in 0..<2_500 {
      var text = [UInt8](repeating: 0x20, count: Int(random.next() % 64))
      for index in 0...Int(random.next() % 5) {
        if index > 0 { text += random.next() % 4 == 0 ? [0x0D, 0x0A] : [0x0A] }
        text += Array(lines[Int(random.next() % UInt64(lines.count))].utf8)
      }
      if random.next() % 2 == 0 { text.append(0x0A) }
      let isChanged = round % 4 != 0
      if isChanged {
        for _ in 0...Int(random.next() % 3) where !text.isEmpty {
          let position = Int(random.next() % UInt64(text.count))
          let byte = alphabet[Int(random.next() % UInt64(alphabet.count))]
          switch random.next() % 3 {
          case 0: text[position] = byte
          case 1: text.remove(at: position)
          default: text.insert(byte, at: position)
          }
        }
      }
      let description = String(decoding: text.prefix(200), as: UTF8.self)
      let valid = expectLinesAgreement(text, description)
      if !isChanged { #expect(valid, "\(description)") }
      if valid { accepted += 1 }
      if text.count < 2_000 { expectLinesAgreement(text, limits: tight, "tight: \(description)") }
    }
    #expect(accepted > 700)
  }

  @Test func theValidatorStillSaysWhereReadingStopped() {
    for path in JSONStructuralPath.available {
      var validator = JSONValidator(path: path)
      let bytes = Array(#"{"a":[1,2,}"#.utf8)
      #expect(bytes.withUnsafeBytes { validator.firstDefect(in: $0) } == 10)
      let good = Array(#"{"a":[1,2]}"#.utf8)
      #expect(good.withUnsafeBytes { validator.firstDefect(in: $0) } == nil)
      #expect([UInt8]().withUnsafeBytes { validator.firstDefect(in: $0) } == 0)
    }
  }
}
