import RewindJSON
import Testing

/// The schema validator the DAP tests check every message with finds what does not conform.
@Suite struct DAPSchemaValidatorTests {
  /// The problems of the message `text` against its definition.
  static func problems(_ text: String) throws -> [String] {
    let validator = try #require(DAPSchemaValidator.official)
    let message = try JSONParser.parse(text)
    return validator.problems(of: message, against: validator.definitionName(of: message))
  }

  @Test func aConformingStackTraceResponsePasses() throws {
    #expect(
      try Self.problems(
        #"{"seq":3,"type":"response","request_seq":2,"success":true,"command":"stackTrace","#
          + #""body":{"stackFrames":[{"id":1,"name":"f0","line":0,"column":0}]}}"#) == [])
  }

  @Test func aFrameWithoutItsLineFails() throws {
    #expect(
      try Self.problems(
        #"{"seq":3,"type":"response","request_seq":2,"success":true,"command":"stackTrace","#
          + #""body":{"stackFrames":[{"id":1,"name":"f0","column":0}]}}"#)
        == ["$.body.stackFrames[0]: the required property 'line' is missing"])
  }

  @Test func aRequestSeqOfZeroAndAWrongTypeFail() throws {
    #expect(
      try Self.problems(
        #"{"seq":1,"type":"response","request_seq":0,"success":false,"command":"x","#
          + #""message":"m","body":{"error":{"id":"one","format":"m"}}}"#)
        == [
          "$.request_seq: 0.0 is below the minimum 1.0",
          "$.body.error.id: a string, expected integer",
        ])
  }

  @Test func anEventOfTheWrongNameFails() throws {
    let validator = try #require(DAPSchemaValidator.official)
    let event = try JSONParser.parse(
      #"{"seq":1,"type":"event","event":"stoped","body":{"reason":"step"}}"#)
    #expect(
      validator.problems(of: event, against: "StoppedEvent")
        == [#"$.event: "stoped" is not one of ["stopped"]"#])
  }
}
