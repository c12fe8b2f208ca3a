import Foundation
import Testing

@testable import RewindServers

/// The bounded transport both servers read through: lines and bodies, limits, ends and timeouts.
@Suite struct MessageInputTests {
  /// A pipe whose write end gets `bytes` from another thread (a pipe holds 64 KiB; closed
  /// afterwards unless `keepsOpen`) and an input on its read end.
  static func input(
    _ bytes: [UInt8], keepsOpen: Bool = false, timeout: Int32 = 30_000
  ) -> (MessageInput, Pipe) {
    let pipe = Pipe()
    let writer = pipe.fileHandleForWriting
    Thread.detachNewThread {
      writer.write(Data(bytes))
      if !keepsOpen { try? writer.close() }
    }
    return (
      MessageInput(
        fd: pipe.fileHandleForReading.fileDescriptor, partialMessageTimeoutMilliseconds: timeout),
      pipe
    )
  }

  @Test func linesLoseTheirNewlinesAndCarriageReturns() throws {
    let (input, pipe) = Self.input(Array("one\r\ntwo\n\nlast".utf8))
    defer { _ = pipe }
    #expect(try input.readLine(maxBytes: 10, startsMessage: true) == Array("one".utf8))
    #expect(try input.readLine(maxBytes: 10, startsMessage: true) == Array("two".utf8))
    #expect(try input.readLine(maxBytes: 10, startsMessage: true) == [])
    #expect(try input.readLine(maxBytes: 10, startsMessage: true) == Array("last".utf8))
    #expect(try input.readLine(maxBytes: 10, startsMessage: true) == nil)
    #expect(input.offset == 14)
  }

  @Test func aLongLineIsSkippedAndTheNextOneReads() throws {
    let long = [UInt8](repeating: UInt8(ascii: "x"), count: 200_000)
    let (input, pipe) = Self.input(Array("ok\n".utf8) + long + Array("\nafter\n".utf8))
    defer { _ = pipe }
    #expect(try input.readLine(maxBytes: 100, startsMessage: true) == Array("ok".utf8))
    #expect(throws: MessageInput.Failure.tooLong(limit: 100, offset: 3)) {
      try input.readLine(maxBytes: 100, startsMessage: true)
    }
    #expect(try input.readLine(maxBytes: 100, startsMessage: true) == Array("after".utf8))
  }

  @Test func bodiesReadAndSkipByCount() throws {
    let (input, pipe) = Self.input(Array("0123456789abc".utf8))
    defer { _ = pipe }
    #expect(try input.read(count: 4) == Array("0123".utf8))
    try input.skip(count: 6)
    #expect(try input.read(count: 3) == Array("abc".utf8))
    #expect(throws: MessageInput.Failure.endedInsideMessage(offset: 13)) {
      try input.read(count: 1)
    }
  }

  @Test func aTruncatedBodyEndsInsideTheMessage() throws {
    let (input, pipe) = Self.input(Array("abc".utf8))
    defer { _ = pipe }
    #expect(throws: MessageInput.Failure.endedInsideMessage(offset: 3)) {
      try input.read(count: 10)
    }
  }

  @Test func aStalledMessageTimesOut() throws {
    let (input, pipe) = Self.input(
      Array("Content-Length: 5\r\n".utf8), keepsOpen: true, timeout: 50)
    defer { _ = pipe }
    #expect(
      try input.readLine(maxBytes: 100, startsMessage: true) == Array("Content-Length: 5".utf8))
    #expect(throws: MessageInput.Failure.timedOut(milliseconds: 50, offset: 19)) {
      try input.readLine(maxBytes: 100, startsMessage: false)
    }
  }
}
