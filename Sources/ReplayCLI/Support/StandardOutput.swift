import Foundation
import Rewind

/// The process's standard output and standard error.
///
/// Standard error is unbuffered: each ``write(_:to:)`` goes straight to `write(2)`, so a
/// diagnostic appears even if the process dies right after. Standard output is buffered and
/// written when the buffer fills, at each line feed when it is a terminal, and on ``flush()``.
/// Before anything is written to standard error, buffered standard output is written first, so
/// the two appear in the order they were produced when both go to one terminal or file.
///
/// Call ``flush()`` before reading input and before the process exits; nothing flushes on exit
/// by itself.
package final class StandardOutput: TextOutput {
  private struct Buffer {
    var bytes: [UInt8] = []
    var writeError: Int32?

    mutating func record(_ error: Int32?) {
      if writeError == nil { writeError = error }
    }
  }

  private let buffer = Locked(Buffer())
  private let outputDescriptor: Int32
  private let errorDescriptor: Int32
  private let capacity: Int
  private let flushesEachLine: Bool
  private let outputStyle: TerminalStyle
  private let errorStyle: TerminalStyle

  /// Standard output and standard error of this process.
  ///
  /// - Parameters:
  ///   - environment: The environment that decides colour (`NO_COLOR`, `TERM`).
  ///   - isTerminal: Tells whether a descriptor is a terminal; tests replace it.
  ///   - bufferCapacity: How many bytes of standard output to collect before writing them.
  ///   - outputDescriptor: Where standard output goes; tests pass a pipe.
  ///   - errorDescriptor: Where standard error goes; tests pass a pipe.
  package init(
    environment: [String: String] = ProcessInfo.processInfo.environment,
    isTerminal: (Int32) -> Bool = Platform.isTerminal,
    bufferCapacity: Int = 64 * 1024,
    outputDescriptor: Int32 = 1,
    errorDescriptor: Int32 = 2
  ) {
    let outputIsTerminal = isTerminal(outputDescriptor)
    self.outputDescriptor = outputDescriptor
    self.errorDescriptor = errorDescriptor
    self.capacity = max(1, bufferCapacity)
    self.flushesEachLine = outputIsTerminal
    self.outputStyle = TerminalStyle(
      isColorEnabled: TerminalStyle.isColorAllowed(
        isTerminal: outputIsTerminal, environment: environment))
    self.errorStyle = TerminalStyle(
      descriptor: errorDescriptor, environment: environment,
      isTerminal: isTerminal)
  }

  /// The `errno` of the first write that failed (for example `EPIPE` once a reader such as
  /// `head` has gone), or `nil` while every write has succeeded.
  package var writeError: Int32? {
    buffer.withLock { $0.writeError }
  }

  /// Buffers `text` for standard output, or writes it to standard error at once (as
  /// ``write(bytes:to:)``).
  package func write(_ text: String, to channel: OutputChannel) {
    var text = text
    text.withUTF8 { write(bytes: UnsafeRawBufferPointer($0), to: channel) }
  }

  /// Buffers `bytes` for standard output, or writes them to standard error at once; bytes of
  /// at least a buffer's size go out at once, after what is buffered, without being copied.
  package func write(bytes: UnsafeRawBufferPointer, to channel: OutputChannel) {
    buffer.withLock { buffer in
      if channel == .standardOutput && bytes.count < capacity {
        buffer.bytes.append(contentsOf: bytes)
        if buffer.bytes.count >= capacity || (flushesEachLine && bytes.contains(0x0A)) {
          drain(&buffer)
        }
        return
      }
      drain(&buffer)
      let descriptor = channel == .standardOutput ? outputDescriptor : errorDescriptor
      buffer.record(Platform.writeAll(descriptor, bytes).1)
    }
  }

  /// Writes out buffered standard output.
  package func flush() {
    buffer.withLock { drain(&$0) }
  }

  /// The style for `channel`, decided once when this output was made.
  package func style(for channel: OutputChannel) -> TerminalStyle {
    channel == .standardOutput ? outputStyle : errorStyle
  }

  private func drain(_ buffer: inout Buffer) {
    guard !buffer.bytes.isEmpty else { return }
    let error = buffer.bytes.withUnsafeBytes { Platform.writeAll(outputDescriptor, $0).1 }
    buffer.bytes.removeAll(keepingCapacity: true)
    buffer.record(error)
  }
}
