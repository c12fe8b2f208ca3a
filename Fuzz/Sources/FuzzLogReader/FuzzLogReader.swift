// Fuzzes the log reader: line framing, checksums, seq continuity, header parsing, and decoding
// every action and checkpoint with the todo example's types, in every recovery mode; rebuilding
// every state through the fast path (actions decoded straight from the line's bytes, through the
// example's direct path), which must give the state that `init(from:)` gives; and comparing the
// log with itself as `replay diff` does (actions as bytes).
import Rewind
import RewindExamples
import RewindJSON
import RewindReplay

/// The todo reducer without its deliberate crash: a `move` out of range does nothing.
private let safeTodoReducer = Reducer<TodoState, TodoAction> { state, action in
  // After removing the todo at `from`, `insert(at: to)` needs `to` in 0...count - 1.
  if case .move(let from, let to) = action,
    !state.todos.indices.contains(from) || !state.todos.indices.contains(to)
  {
    return
  }
  todoReducer.reduce(&state, action)
}

/// A todo action decoded through its `init(from:)` only, never its direct path.
private struct CodableOnlyAction: Codable, Sendable {
  var action: TodoAction
  init(from decoder: any Decoder) throws { action = try TodoAction(from: decoder) }
  func encode(to encoder: any Encoder) throws { try action.encode(to: encoder) }
}

private let codableOnlyReducer = Reducer<TodoState, CodableOnlyAction> { state, action in
  safeTodoReducer.reduce(&state, action.action)
}

/// libFuzzer's entry point: one input, `size` bytes at `data`; returns 0.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLogReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  for mode in RecoveryMode.allCases {
    guard let log = try? ReplayLog(name: "fuzz.jsonl", contents: bytes, recovery: mode) else {
      continue
    }
    // The header's state, kept as text, reads as the whole first line parsed says it is.
    if let line = bytes.split(separator: 0x0A).first(where: { $0.contains { $0 > 0x20 } }),
      case .some(.object(let members)) = try? JSONParser.parse(
        Array(line), limits: ReaderLimits.default.json),
      let recorded = members.first(where: { $0.key == "state" })?.value,
      recorded != log.header.state
    {
      fatalError("the header's state reads as \(log.header.state), parsed whole \(recorded)")
    }
    let app = ReplayApp(name: log.header.app, reducer: todoReducer)
    guard let timeline = try? app.timeline(for: log, usesCheckpoints: mode != .salvage) else {
      continue
    }
    if log.actionCount > 0 {
      for seq in log.firstSeq...log.lastSeq {
        _ = try? log.action(at: seq)
        _ = try? timeline.checkActions(seq...seq)
      }
    }
    for seq in log.checkpointSeqs { _ = try? log.checkpointState(at: seq) }
    // Rebuild states only through actions that cannot trap the example's reducer.
    _ = try? timeline.stateJSON(at: log.positions.lowerBound)
    let safe = ReplayApp(name: log.header.app, reducer: safeTodoReducer)
    if let rebuild = try? safe.timeline(for: log, usesCheckpoints: false) {
      _ = try? rebuild.stateJSON(at: log.positions.upperBound)
    }
    // The direct path and init(from:) must rebuild the same last state, or both fail.
    let direct = try? Timeline(log: log, reducer: safeTodoReducer, usesCheckpoints: false)
      .state(at: log.positions.upperBound)
    let codable = try? Timeline(log: log, reducer: codableOnlyReducer, usesCheckpoints: false)
      .state(at: log.positions.upperBound)
    if direct != codable {
      fatalError(
        "the direct path rebuilt \(String(describing: direct)), init(from:) \(String(describing: codable))"
      )
    }
    if let diff = try? LogDiff(log, log, timelines: nil), !diff.hunks.isEmpty {
      fatalError("a log differs from itself: \(diff.hunks)")
    }
  }
  return 0
}
