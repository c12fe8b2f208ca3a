import RewindTestSupport
import Testing

@testable import RewindJSON

/// Rewind's own hostile JSON (``HostileJSON``), which every `swift test` runs, with or without
/// the shared JSONTestSuite corpus: each sample is accepted, or rejected at the byte and for the
/// reason the standard and the default limits give.
@Suite struct HostileJSONTests {
  @Test(arguments: HostileJSON.all)
  func parserFollowsTheVerdict(sample: JSONSample) {
    let result = Result { () throws(JSONParseError) in try JSONParser.parse(sample.bytes) }
    switch (sample.verdict, result) {
    case (.accepted, .success):
      break
    case (.accepted, .failure(let error)):
      Issue.record("\(sample.name): \(error)")
    case (.rejected(let offset, let reason), .failure(let error)):
      #expect(error.offset == offset, "\(sample.name): \(error)")
      #expect(error.reason == reason, "\(sample.name): \(error)")
      #expect(error.description.hasPrefix("invalid JSON at byte \(offset): "))
    case (.rejected, .success(let value)):
      Issue.record("\(sample.name) parsed as \(value.jsonText.prefix(80))")
    }
  }

  @Test(arguments: HostileJSON.all.filter { !$0.mustBeRejected })
  func acceptedSamplesSurviveAWriteAndParseRoundTrip(sample: JSONSample) throws {
    let value = try JSONParser.parse(sample.bytes)
    #expect(try JSONParser.parse(value.serializedBytes) == value, "\(sample.name)")
    #expect(try JSONParser.parse(value.prettyText()) == value, "\(sample.name)")
  }

  /// The tape reader (the decoder's fast path) never takes a sample the parser refuses.
  @Test(arguments: HostileJSON.small)
  func tapeReaderRefusesWhatTheParserRefuses(sample: JSONSample) {
    let document = JSONTapeDocument()
    let loaded = sample.bytes.withUnsafeBytes { document.load($0) }
    if sample.mustBeRejected {
      #expect(!loaded, "\(sample.name)")
    }
  }
}
