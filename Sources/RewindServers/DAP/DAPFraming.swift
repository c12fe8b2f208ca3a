import RewindJSON

/// The Debug Adapter Protocol's framing: each message is a header block (`Content-Length: N`,
/// other headers ignored, each line ended by `\r\n`, the block by an empty line) followed by `N`
/// bytes of JSON. Reading is bounded: a header line longer than ``maxHeaderLineBytes``, more
/// than ``maxHeaderLines`` lines, or a body longer than ``maxBodyBytes`` is skipped and
/// reported, never held.
package struct DAPFraming {
  /// What reading the next message gave.
  package enum Frame: Sendable {
    /// A message's body, its JSON not yet parsed.
    case body([UInt8])
    /// A message that could not be read; the message says why. Reading goes on after it when
    /// `canContinue`, else the input is over (it ended inside the message).
    case failure(String, canContinue: Bool)
  }

  /// The longest header line read (a longer one is skipped).
  package static let maxHeaderLineBytes = 1024
  /// The most header lines of one message.
  package static let maxHeaderLines = 32
  /// The largest body read: 16 MiB (a larger one is skipped without being held).
  package static let maxBodyBytes = 16 << 20

  /// Where the messages are read from.
  package let input: MessageInput

  /// Framing over `input`.
  package init(input: MessageInput) { self.input = input }

  /// The next message, or `nil` when the input ended between messages.
  package func next() -> Frame? {
    var length: Int?
    var problem: String?
    var lines = 0
    while true {
      let line: [UInt8]
      do throws(MessageInput.Failure) {
        guard
          let read = try input.readLine(
            maxBytes: Self.maxHeaderLineBytes, startsMessage: lines == 0)
        else { return nil }
        line = read
      } catch {
        return failure(error)
      }
      if line.isEmpty {
        // An empty line before any header is only a stray newline between messages.
        if lines == 0 { continue }
        break
      }
      lines += 1
      guard lines <= Self.maxHeaderLines else {
        problem = "a message has more than \(Self.maxHeaderLines) header lines"
        continue
      }
      let text = String(decoding: line, as: UTF8.self)
      guard let colon = text.firstIndex(of: ":") else {
        problem = "the header line '\(text.prefix(80))' has no ':' (expected 'Content-Length: N')"
        continue
      }
      let name = text[..<colon].trimmingSpaces().lowercased()
      guard name == "content-length" else { continue }
      let value = text[text.index(after: colon)...].trimmingSpaces()
      guard let count = Int(value), count >= 0 else {
        problem = "the Content-Length '\(value.prefix(40))' is not a number of bytes"
        continue
      }
      length = count
    }
    if let problem { return .failure(problem + "; the message was dropped", canContinue: true) }
    guard let length else {
      return .failure(
        "a message has no Content-Length header; it was dropped (each message needs "
          + "'Content-Length: N' and an empty line before its N bytes of JSON)", canContinue: true)
    }
    do throws(MessageInput.Failure) {
      guard length <= Self.maxBodyBytes else {
        try input.skip(count: length)
        return .failure(
          "a message of \(length) bytes is over the limit of \(Self.maxBodyBytes) bytes; it was "
            + "skipped", canContinue: true)
      }
      return .body(try input.read(count: length))
    } catch {
      if length > Self.maxBodyBytes, case .endedInsideMessage = error {
        return .failure(
          "a message of \(length) bytes is over the limit of \(Self.maxBodyBytes) bytes, and the "
            + "input ended inside it", canContinue: false)
      }
      return failure(error)
    }
  }

  /// The frame of a failed read.
  private func failure(_ error: MessageInput.Failure) -> Frame {
    switch error {
    case .endedInsideMessage, .readFailed:
      return .failure(error.message, canContinue: false)
    case .tooLong, .timedOut:
      return .failure(error.message, canContinue: true)
    }
  }

  /// The bytes of `message` as one framed message.
  package static func frame(_ message: JSONValue) -> [UInt8] {
    let body = message.serializedBytes
    return Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body
  }
}

extension StringProtocol {
  /// The text without spaces and tabs at either end.
  fileprivate func trimmingSpaces() -> String {
    var text = Substring(self)
    while text.first == " " || text.first == "\t" { text.removeFirst() }
    while text.last == " " || text.last == "\t" { text.removeLast() }
    return String(text)
  }
}
