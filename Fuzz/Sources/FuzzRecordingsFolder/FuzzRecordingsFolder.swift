// Fuzzes the recordings folder's index: what it reads from each session's files without the
// app's reducer (the header's app and start, the last line's seq and how the session ended —
// closed, crashed with a signal record, cut off, unreadable). The input is split at the first
// byte 0x00 into a rotated file (`stem.1.jsonl`) and the current one (`stem.jsonl`), written to a
// fresh folder; the folder is then listed as `replay` and the app's crash check list it.
import Foundation
import Rewind

/// libFuzzer's entry point: one input, `size` bytes at `data`; returns 0.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRecordingsFolder(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("rewind-fuzz-folder-\(getpid())")
  try? FileManager.default.removeItem(at: folder)
  guard (try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true))
    != nil
  else { return 0 }
  defer { try? FileManager.default.removeItem(at: folder) }
  let stem = "2026-11-25T10-00-00-000Z-todo-1a2b"
  let parts = bytes.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
  if parts.count == 2 {
    try? Data(parts[0]).write(to: folder.appendingPathComponent("\(stem).1.jsonl"))
    try? Data(parts[1]).write(to: folder.appendingPathComponent("\(stem).jsonl"))
  } else {
    try? Data(bytes).write(to: folder.appendingPathComponent("\(stem).jsonl"))
  }
  let recordings = RecordingsFolder(path: folder.path)
  for session in recordings.sessions() {
    _ = (session.app, session.startedAt, session.actionCount, session.lastSeq, session.byteCount)
    _ = session.ending
    _ = session.endedBadly
  }
  _ = recordings.crashOfLastLaunch(app: "todo")
  _ = recordings.previousSession()
  return 0
}
