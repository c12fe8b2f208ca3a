import Foundation
import Rewind
import RewindJSON
import Testing

@testable import RewindServers

/// A ``DAPServer`` run over real pipes on bytes a test writes (from another thread, the input
/// closed afterwards), and the messages it wrote, unframed and checked against the schema.
enum DAPPipeHarness {
  /// Serves `bytes` until the input ends (or the client disconnects) and returns what the
  /// server wrote. The input stays open `holdOpen` seconds after the bytes (a stalled client).
  static func serve(
    _ bytes: [UInt8], holdOpen: Double = 0, partialMessageTimeout: Int32 = 30_000
  ) -> [JSONValue] {
    let input = Pipe()
    let output = Pipe()
    let writer = input.fileHandleForWriting
    Thread.detachNewThread {
      writer.write(Data(bytes))
      if holdOpen > 0 { Thread.sleep(forTimeInterval: holdOpen) }
      try? writer.close()
    }
    let written = Locked<Data?>(nil)
    let reader = output.fileHandleForReading
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      let data = reader.readDataToEndOfFile()
      written.withLock { $0 = data }
      done.signal()
    }
    let session = DAPSession(
      configuration: DAPSession.Configuration(apps: DAPTestClient.apps, isolatesByDefault: false))
    DAPServer(
      input: MessageInput(
        fd: input.fileHandleForReading.fileDescriptor,
        partialMessageTimeoutMilliseconds: partialMessageTimeout),
      output: MessageOutput(fd: output.fileHandleForWriting.fileDescriptor), session: session
    ).run()
    try? output.fileHandleForWriting.close()
    done.wait()
    let messages = unframe(Array(written.withLock { $0 } ?? Data()))
    for message in messages { DAPTestClient.validate(message) }
    return messages
  }

  /// The messages of framed `bytes` (each checked to be framed as the protocol says).
  static func unframe(_ bytes: [UInt8]) -> [JSONValue] {
    var messages: [JSONValue] = []
    var rest = bytes[...]
    let separator = Array("\r\n\r\n".utf8)
    while !rest.isEmpty {
      guard let end = rest.indices.first(where: { rest[$0...].starts(with: separator) }) else {
        Issue.record("output ends inside a header: \(String(decoding: rest, as: UTF8.self))")
        break
      }
      let header = String(decoding: rest[rest.startIndex..<end], as: UTF8.self)
      guard header.hasPrefix("Content-Length: "), let length = Int(header.dropFirst(16)) else {
        Issue.record("bad header '\(header)'")
        break
      }
      let start = end + separator.count
      guard rest.endIndex - start >= length else {
        Issue.record("a truncated body")
        break
      }
      do {
        messages.append(try JSONParser.parse(Array(rest[start..<(start + length)])))
      } catch {
        Issue.record("a body that is not JSON: \(error)")
      }
      rest = rest[(start + length)...]
    }
    return messages
  }

  /// `body` framed.
  static func frame(_ body: String) -> [UInt8] {
    Array("Content-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8)
  }

  /// A request framed.
  static func request(_ seq: Int, _ command: String, _ arguments: String = "{}") -> [UInt8] {
    frame(
      "{\"seq\":\(seq),\"type\":\"request\",\"command\":\"\(command)\",\"arguments\":\(arguments)}")
  }
}
