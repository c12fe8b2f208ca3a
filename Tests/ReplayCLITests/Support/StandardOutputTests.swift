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
}
