// Fuzzes the log reader: line framing, checksums, seq continuity, header parsing, and decoding
// every action and checkpoint with the todo example's types, in every recovery mode.
import RewindExamples
import RewindReplay

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLogReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  for mode in RecoveryMode.allCases {
    guard let log = try? ReplayLog(name: "fuzz.jsonl", contents: bytes, recovery: mode) else {
      continue
    }
    let app = ReplayApp(name: log.header.app, reducer: todoReducer)
    guard let timeline = try? app.timeline(for: log, usesCheckpoints: mode != .salvage) else {
      continue
    }
    if log.actionCount > 0 {
      for seq in log.firstSeq...log.lastSeq {
        _ = try? log.action(at: seq)
        _ = try? timeline.checkAction(seq)
      }
    }
    for seq in log.checkpointSeqs { _ = try? log.checkpointState(at: seq) }
    // Rebuild states only through actions that cannot trap the example's reducer.
    _ = try? timeline.stateJSON(at: log.positions.lowerBound)
  }
  return 0
}
