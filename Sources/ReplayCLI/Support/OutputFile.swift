import Foundation
import Rewind
import RewindReplayService

/// A file a command writes (`export --html`, `--redux-devtools`, `import -o`, `shrink -o`):
/// written whole or not at all, and never over what it would destroy — the log being read, or
/// any other Rewind log, which may be the only copy of a crash a user sent.
enum OutputFile {
  /// Writes `bytes` to `path`, atomically (``stream(to:inputs:replacesLogs:_:)`` for a file
  /// made a piece at a time).
  ///
  /// - Parameters:
  ///   - inputs: The files the command reads; `path` must be none of them.
  ///   - replacesLogs: Whether an existing Rewind log at `path` may be replaced (`--overwrite`,
  ///     or a file the command itself names by default, such as `shrink`'s).
  /// - Throws: A diagnostic when `path` is an input, a folder, or (unless `replacesLogs`) an
  ///   existing Rewind log, when its folder does not exist, or when the write fails; nothing is
  ///   written then.
  static func write(
    _ bytes: some ContiguousBytes, to path: String, inputs: [String], replacesLogs: Bool
  ) throws(CommandFailure) {
    try stream(to: path, inputs: inputs, replacesLogs: replacesLogs) {
      writer throws(CommandFailure) in try writer.write(bytes)
    }
  }

  /// Throws what ``write(_:to:inputs:replacesLogs:)`` would refuse `path` for, before the work
  /// of making what is to be written.
  static func check(_ path: String, inputs: [String], replacesLogs: Bool) throws(CommandFailure) {
    if let target = Platform.fileIdentity(path) {
      let isInput = inputs.contains { input in
        Platform.fileIdentity(input).map { $0.device == target.device && $0.inode == target.inode }
          ?? false
      }
      if isInput {
        throw .diagnostic(
          .error(
            "will not write \(inert(path)): it is a file this command reads, and writing would "
              + "replace it",
            hints: [Diagnostic.Hint("choose another output file")]))
      }
      var isDirectory: ObjCBool = false
      if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
        isDirectory.boolValue
      {
        throw .diagnostic(
          .error(
            "cannot write \(inert(path)): it is a folder",
            hints: [Diagnostic.Hint("give a file name in it, such as \(inert(path))/out")]))
      }
      if !replacesLogs && isRewindLog(path) {
        throw .diagnostic(
          .error(
            "will not write \(inert(path)): it is a Rewind log already, and writing would lose "
              + "that recording",
            hints: [
              Diagnostic.Hint("choose another output file, or add --overwrite if you mean it")
            ]))
      }
    }
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory),
      isDirectory.boolValue
    else {
      throw .diagnostic(
        .error(
          "cannot write \(inert(path)): the folder \(inert(folder)) does not exist",
          hints: [Diagnostic.Hint("mkdir -p \(inert(folder))", comment: "creates it")]))
    }
  }

  /// Whether the file at `path` starts like a Rewind log: a header line, checksummed or not.
  private static func isRewindLog(_ path: String) -> Bool {
    guard let handle = FileHandle(forReadingAtPath: path) else { return false }
    defer { try? handle.close() }
    let start = (try? handle.read(upToCount: 64)) ?? Data()
    let text = String(decoding: start, as: UTF8.self)
    if text.hasPrefix(#"{"kind":"header""#) { return true }
    // `{"c":"xxxxxxxx","kind":"header"`: the checksum, then the same.
    return text.hasPrefix(#"{"c":""#) && text.dropFirst(15).hasPrefix(#","kind":"header""#)
  }
}
