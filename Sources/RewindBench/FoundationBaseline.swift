import Foundation
import Rewind
import RewindExamples

/// The "before" path, Foundation's coders: the same file read once, the same line breaks and
/// checksums, but every line decoded with Foundation's `JSONDecoder` and the actions reduced.
enum FoundationBaseline {
  /// A log line as Foundation's `JSONDecoder` reads it: the header's state, an action's payload.
  struct Line: Decodable {
    var kind: String
    var action: TodoAction?
    var state: TodoState?

    enum CodingKeys: String, CodingKey { case kind, action, state }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      kind = try container.decode(String.self, forKey: .kind)
      action = kind == "action" ? try container.decode(TodoAction.self, forKey: .action) : nil
      state = kind == "header" ? try container.decode(TodoState.self, forKey: .state) : nil
    }
  }

  /// Loads the log at `path` and rebuilds every state with Foundation's `JSONDecoder`; returns
  /// the last state.
  static func loadAndRebuild(_ path: String) throws -> TodoState {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    let decoder = JSONDecoder()
    var state: TodoState?
    try forEachLine(of: data) { line in
      guard LogLine.checkChecksum(line) == .valid, let base = line.baseAddress else {
        throw BenchError("bad line in \(path)")
      }
      let bytes = Data(
        bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: line.count,
        deallocator: .none)
      let decoded = try decoder.decode(Line.self, from: bytes)
      if let action = decoded.action {
        guard var current = state else { throw BenchError("an action before the header") }
        state = nil
        todoReducer.reduce(&current, action)
        state = current
      } else if let header = decoded.state {
        state = header
      }
    }
    guard let state else { throw BenchError("no header in \(path)") }
    return state
  }

  /// Parses every line of the log at `path` with `JSONSerialization` (parse only, no decoding);
  /// returns the number of lines.
  static func parseWithJSONSerialization(_ path: String) throws -> Int {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    var count = 0
    try forEachLine(of: data) { line in
      guard let base = line.baseAddress else { return }
      let bytes = Data(
        bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: line.count,
        deallocator: .none)
      _ = try JSONSerialization.jsonObject(with: bytes)
      count += 1
    }
    return count
  }

  /// Calls `body` with each non-empty line of `data`, found with `memchr`.
  static func forEachLine(
    of data: Data, _ body: (UnsafeRawBufferPointer) throws -> Void
  ) throws {
    try data.withUnsafeBytes { buffer in
      var start = 0
      while start < buffer.count {
        let end =
          Platform.firstIndex(of: UInt8(ascii: "\n"), in: buffer, from: start) ?? buffer.count
        if end > start { try body(UnsafeRawBufferPointer(rebasing: buffer[start..<end])) }
        start = end + 1
      }
    }
  }
}
