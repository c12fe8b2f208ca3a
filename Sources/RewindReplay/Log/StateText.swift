/// A state's JSON text: bytes of its own (a state a timeline encoded), or where a log's bytes
/// hold it (a header's or a checkpoint's state), kept without a copy for as long as this is.
package struct StateText: Sendable {
  private enum Storage: Sendable {
    case bytes([UInt8])
    case inLog(LogBytes, Range<Int>)
  }

  private let storage: Storage

  /// The text `bytes`.
  package init(_ bytes: [UInt8]) {
    storage = .bytes(bytes)
  }

  /// The text at `range` of `log`'s bytes.
  init(in log: LogBytes, at range: Range<Int>) {
    storage = .inLog(log, range)
  }

  /// Calls `body` with the text's bytes (valid only during the call) and returns what it
  /// returns.
  package func withUnsafeBytes<R, E: Error>(
    _ body: (UnsafeRawBufferPointer) throws(E) -> R
  ) throws(E) -> R {
    switch storage {
    case .bytes(let bytes):
      let result = bytes.withUnsafeBytes { bytes in Result { () throws(E) in try body(bytes) } }
      return try result.get()
    case .inLog(let log, let range):
      return try body(log.slice(range.lowerBound, range.upperBound))
    }
  }
}
