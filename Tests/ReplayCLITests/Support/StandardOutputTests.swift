import Foundation
import ReplayCLI
import Testing

@Suite struct StandardOutputTests {
  /// Runs `body` with a `StandardOutput` whose two channels share one pipe, and returns what
  /// reached the pipe after `body` and after the final flush.
  private func throughPipe(
    bufferCapacity: Int = 1024, isTerminal: Bool = false,
    _ body: (StandardOutput) -> Void
  ) throws -> (beforeFlush: String, afterFlush: String) {
    let pipe = Pipe()
    let fd = pipe.fileHandleForWriting.fileDescriptor
    let output = StandardOutput(
      environment: [:], isTerminal: { _ in isTerminal }, bufferCapacity: bufferCapacity,
      outputDescriptor: fd, errorDescriptor: fd)
    body(output)
    // Written around the output's buffer: marks what had reached the pipe before the flush.
    pipe.fileHandleForWriting.write(Data("|".utf8))
    output.flush()
    try pipe.fileHandleForWriting.close()
    let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let parts = text.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false)
    #expect(output.writeError == nil)
    return (String(parts.first ?? ""), String(parts.dropFirst().first ?? ""))
  }

  @Test func standardErrorComesAfterEarlierStandardOutput() throws {
    let (before, after) = try throughPipe { output in
      output.write("out1 ", to: .standardOutput)
      output.write("err1 ", to: .standardError)
      output.write("out2 ", to: .standardOutput)
    }
    #expect(before == "out1 err1 ")
    #expect(after == "out2 ")
  }

  @Test func pipedStandardOutputWaitsForAFlushEvenAtLineFeeds() throws {
    let (before, after) = try throughPipe { output in
      output.writeLine("1 action")
      output.writeLine("2 actions")
    }
    #expect(before == "")
    #expect(after == "1 action\n2 actions\n")
  }

  @Test func standardOutputIsBufferedUntilFullOrFlushed() throws {
    let (before, after) = try throughPipe(bufferCapacity: 8) { output in
      output.write("01234", to: .standardOutput)
      output.write("56789", to: .standardOutput)
      output.write("abc", to: .standardOutput)
    }
    #expect(before == "0123456789")
    #expect(after == "abc")
  }

  @Test func terminalOutputIsWrittenAtEachLineFeed() throws {
    let (before, after) = try throughPipe(isTerminal: true) { output in
      output.write("line\n", to: .standardOutput)
      output.write("(replay) ", to: .standardOutput)
    }
    #expect(before == "line\n")
    #expect(after == "(replay) ")
  }

  /// Bytes are buffered like text; bytes of a buffer's size or more go out at once, after what
  /// was buffered (a whole state is not copied into the buffer); to standard error at once.
  @Test func bytesKeepTheOrderAndLargeOnesAreNotBuffered() throws {
    func write(_ text: String, _ channel: OutputChannel, _ output: StandardOutput) {
      Array(text.utf8).withUnsafeBytes { output.write(bytes: $0, to: channel) }
    }
    let (before, after) = try throughPipe(bufferCapacity: 8) { output in
      write("ab", .standardOutput, output)
      write("0123456789", .standardOutput, output)
      write("cd", .standardOutput, output)
      write("!", .standardError, output)
      write("ef", .standardOutput, output)
    }
    #expect(before == "ab0123456789cd!")
    #expect(after == "ef")
    let (captured, _) = try throughPipe { output in
      let captured = CapturedOutput()
      Array("é\n".utf8).withUnsafeBytes { captured.write(bytes: $0, to: .standardOutput) }
      output.write(captured.standardOutput, to: .standardError)
    }
    #expect(captured == "é\n")
  }
}
