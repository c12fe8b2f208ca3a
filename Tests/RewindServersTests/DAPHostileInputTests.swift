import Foundation
import RewindJSON
import Testing

@testable import RewindServers

/// Hostile and broken input to a ``DAPServer`` over pipes: each bad message is reported (an
/// `output` event when no request could be read, a failed response when one could) and the
/// server reads on; nothing crashes, hangs or holds an oversized body.
@Suite struct DAPHostileInputTests {
  /// The `output` text of the event `message` is, or `nil`.
  static func output(_ message: JSONValue) -> String? {
    guard message["event"] == .string("output") else { return nil }
    return message["body"]?["output"]?.stringValue
  }

  @Test func aHeaderWithoutAColonIsReportedAndTheNextMessageIsRead() throws {
    let messages = DAPPipeHarness.serve(
      Array("garbage line\r\n\r\n".utf8) + DAPPipeHarness.request(1, "initialize"))
    try #require(messages.count == 2)
    #expect(
      Self.output(messages[0])?.hasPrefix(
        "error: a message could not be read: the header line 'garbage line' has no ':' "
          + "(expected 'Content-Length: N'); the message was dropped.") == true)
    #expect(messages[1]["command"] == .string("initialize"))
    #expect(messages[1]["success"] == .bool(true))
  }

  @Test func aContentLengthThatIsNoNumberIsReported() {
    let messages = DAPPipeHarness.serve(
      Array("Content-Length: many\r\n\r\n".utf8) + DAPPipeHarness.request(1, "threads"))
    #expect(
      Self.output(messages.first ?? .null)?.contains(
        "the Content-Length 'many' is not a number of bytes") == true)
    #expect(messages.last?["command"] == .string("threads"))
  }

  @Test func aMessageWithoutContentLengthIsReported() {
    let messages = DAPPipeHarness.serve(
      Array("Content-Type: application/json\r\n\r\n".utf8) + DAPPipeHarness.request(1, "threads"))
    #expect(Self.output(messages.first ?? .null)?.contains("has no Content-Length header") == true)
    #expect(messages.last?["command"] == .string("threads"))
  }

  @Test func aTerabyteContentLengthIsSkippedWithoutBeingHeld() {
    let started = Date()
    let messages = DAPPipeHarness.serve(
      Array("Content-Length: 1099511627776\r\n\r\n{\"seq\":1}".utf8))
    #expect(messages.count == 1)
    #expect(
      Self.output(messages.first ?? .null)?.contains(
        "a message of 1099511627776 bytes is over the limit of 16777216 bytes, and the input "
          + "ended inside it") == true)
    #expect(Date().timeIntervalSince(started) < 10)
  }

  @Test func aBodyOverTheLimitIsSkippedAndReadingGoesOn() {
    let body = [UInt8](repeating: UInt8(ascii: " "), count: DAPFraming.maxBodyBytes + 1)
    let messages = DAPPipeHarness.serve(
      Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body
        + DAPPipeHarness.request(7, "threads"))
    #expect(messages.count == 2)
    #expect(
      Self.output(messages.first ?? .null)?.contains(
        "a message of 16777217 bytes is over the limit of 16777216 bytes; it was skipped")
        == true)
    #expect(messages.last?["request_seq"] == .integer(7))
  }

  @Test func aTruncatedBodyEndsTheSessionWithAReport() {
    let messages = DAPPipeHarness.serve(Array("Content-Length: 100\r\n\r\n{\"seq\":1,".utf8))
    #expect(messages.count == 1)
    #expect(
      Self.output(messages.first ?? .null)?.contains("the input ended inside a message") == true)
  }

  @Test func aStalledMessageTimesOutAndTheServerGoesOn() {
    let messages = DAPPipeHarness.serve(
      Array("Content-Length: 50\r\n\r\n{\"seq\"".utf8), holdOpen: 0.5, partialMessageTimeout: 100)
    #expect(
      Self.output(messages.first ?? .null)?.contains("was not finished within 100 ms") == true)
  }

  @Test func aBodyThatIsNotJSONIsReported() {
    let messages = DAPPipeHarness.serve(
      DAPPipeHarness.frame("{not json") + DAPPipeHarness.request(2, "threads"))
    #expect(Self.output(messages.first ?? .null)?.contains("its body is not JSON") == true)
    #expect(messages.last?["request_seq"] == .integer(2))
  }

  @Test func jsonThatIsNoRequestIsReportedAndARequestWithoutCommandFails() {
    let messages = DAPPipeHarness.serve(
      DAPPipeHarness.frame("[1,2]") + DAPPipeHarness.frame("{\"seq\":5,\"type\":\"request\"}"))
    #expect(messages.count == 2)
    #expect(Self.output(messages.first ?? .null)?.contains("the message is not a request") == true)
    #expect(messages.last?["success"] == .bool(false))
    #expect(messages.last?["request_seq"] == .integer(5))
  }

  @Test func aRequestWithoutAPositiveSeqGetsNoResponse() {
    let messages = DAPPipeHarness.serve(
      DAPPipeHarness.request(0, "threads") + DAPPipeHarness.request(-3, "threads"))
    #expect(messages.count == 2)
    #expect(messages.allSatisfy { $0["event"] == .string("output") })
    #expect(
      Self.output(messages.first ?? .null)?.contains("an integer \"seq\" of 1 or more") == true)
  }

  @Test func aBurstOfAThousandRequestsIsAnsweredInOrder() {
    var bytes: [UInt8] = []
    for seq in 1...1000 {
      bytes += DAPPipeHarness.request(seq, seq % 2 == 0 ? "threads" : "noSuchCommand")
    }
    let messages = DAPPipeHarness.serve(bytes)
    #expect(messages.count == 1000)
    #expect(messages.map { $0["request_seq"]?.intValue ?? 0 } == Array(1...1000))
    #expect(messages.map { $0["seq"]?.intValue ?? 0 } == Array(1...1000))
    #expect(messages.filter { $0["success"] == .bool(true) }.count == 500)
  }

  @Test func disconnectEndsTheServerBeforeTheInputEnds() {
    let messages = DAPPipeHarness.serve(
      DAPPipeHarness.request(1, "disconnect") + DAPPipeHarness.request(2, "threads"))
    #expect(messages.map { $0["command"]?.stringValue } == ["disconnect"])
  }
}
