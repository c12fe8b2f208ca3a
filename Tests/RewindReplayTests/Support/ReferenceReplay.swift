import Foundation
import Rewind

/// Rebuilds the states of a log without the replay engine: every complete action line is decoded
/// with Foundation's `JSONDecoder` and dispatched to a fresh ``Store``.
enum ReferenceReplay {
  private struct Record<State: Decodable, Action: Decodable>: Decodable {
    var kind: String
    var seq: Int?
    var state: State?
    var action: Action?
  }

  /// The header's state and the actions of the complete lines (those ending in a line feed).
  static func decode<State: Decodable, Action: Decodable>(
    _ bytes: [UInt8], as _: State.Type, _: Action.Type
  ) throws -> (initial: State, actions: [Action]) {
    let decoder = JSONDecoder()
    var initial: State?
    var actions: [Action] = []
    for line in LogLines(bytes).lines where line.isComplete {
      let record = try decoder.decode(Record<State, Action>.self, from: Data(line.content))
      switch record.kind {
      case "header": initial = record.state
      case "action":
        guard let action = record.action else { throw ReferenceError.noAction(line.number) }
        actions.append(action)
      default: continue
      }
    }
    guard let initial else { throw ReferenceError.noHeader }
    return (initial, actions)
  }

  /// The state at every position: `[0]` is `initial`, `[n]` the state after `actions[n - 1]`.
  static func states<State: Sendable, Action: Sendable>(
    initial: State, reducer: Reducer<State, Action>, actions: some Sequence<Action>
  ) -> [State] {
    let store = Store(initialState: initial, reducer: reducer)
    var states = [store.state]
    for action in actions {
      store.dispatch(action)
      states.append(store.state)
    }
    return states
  }

  enum ReferenceError: Error {
    case noHeader
    case noAction(Int)
  }
}

/// The lines of a log's bytes, with their numbers and byte offsets, split independently of the
/// reader.
struct LogLines {
  struct Line {
    /// From 1.
    var number: Int
    /// The offset of its first byte.
    var start: Int
    /// The bytes without the line feed.
    var content: [UInt8]
    /// Whether a line feed ends it.
    var isComplete: Bool

    var kind: String? {
      let text = String(decoding: content, as: UTF8.self)
      guard let range = text.range(of: #""kind":""#) else { return nil }
      return String(text[range.upperBound...].prefix(while: { $0 != "\"" }))
    }
  }

  var lines: [Line] = []
  /// `actionsBefore[n - 1]`: how many complete action lines come before line `n` (one entry more
  /// than there are lines).
  private var actionsBefore: [Int] = []

  init(_ bytes: [UInt8]) {
    var start = 0
    var number = 0
    var actions = 0
    while start < bytes.count {
      number += 1
      let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n"))
      let end = newline ?? bytes.count
      let line = Line(
        number: number, start: start, content: Array(bytes[start..<end]), isComplete: newline != nil
      )
      lines.append(line)
      actionsBefore.append(actions)
      if line.isComplete && line.kind == "action" { actions += 1 }
      start = end + 1
    }
    actionsBefore.append(actions)
  }

  /// The line holding byte `offset` (a line feed belongs to the line it ends).
  /// - Complexity: O(log n) in the number of lines.
  func line(containing offset: Int) -> Line? {
    var low = 0
    var high = lines.count
    while low < high {
      let mid = (low + high) / 2
      if lines[mid].start <= offset { low = mid + 1 } else { high = mid }
    }
    return low > 0 ? lines[low - 1] : nil
  }

  /// How many complete action lines come before line `number`.
  func actionCount(before number: Int) -> Int {
    actionsBefore[min(max(number, 1), actionsBefore.count) - 1]
  }
}
