import Foundation
import Rewind

/// The lines typed in earlier sessions, kept in a file in the user's home directory
/// (`~/.rewind_replay_history`), newest last, at most ``capacity`` lines, readable by the user
/// alone (mode 0600).
///
/// A history that cannot be read starts empty, and one that cannot be written is kept for this
/// session only: neither is worth an error message.
package struct LineHistory: Sendable {
  /// The most lines kept.
  package static let capacity = 1000

  /// The lines, oldest first.
  package private(set) var entries: [String]
  /// The file, or `nil` to keep the history in memory.
  package let path: String?

  /// `$HOME/.rewind_replay_history`, or `nil` without a home directory.
  package static func defaultPath(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> String? {
    guard let home = environment["HOME"], !home.isEmpty else { return nil }
    return (home.hasSuffix("/") ? home : home + "/") + ".rewind_replay_history"
  }

  /// Loads the history at `path` (nothing when `nil`, missing or unreadable). Lines holding
  /// control characters are dropped.
  package init(path: String?) {
    self.path = path
    guard let path, let data = FileManager.default.contents(atPath: path) else {
      entries = []
      return
    }
    let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    entries = Array(
      lines.filter { line in
        !line.isEmpty && !line.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
      }.suffix(Self.capacity))
  }

  /// Adds `line`, without trailing whitespace, as the newest entry and saves the file. Blank
  /// lines and a repeat of the newest entry are not added.
  package mutating func add(_ typed: String) {
    var line = typed
    while line.last?.isWhitespace == true { line.removeLast() }
    guard !line.trimmingWhitespace().isEmpty, entries.last != line,
      !line.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
    else { return }
    entries.append(line)
    if entries.count > Self.capacity { entries.removeFirst(entries.count - Self.capacity) }
    save()
  }

  /// Writes the file through a temporary file renamed over it, so a reader never sees half a
  /// history. Failures are ignored.
  private func save() {
    guard let path else { return }
    let temporary = "\(path).\(ProcessInfo.processInfo.processIdentifier).tmp"
    let fd = Platform.openForAppend(temporary, exclusive: false)
    guard fd >= 0 else { return }
    let bytes = Array(entries.map { $0 + "\n" }.joined().utf8)
    let (_, error) = bytes.withUnsafeBytes { Platform.writeAll(fd, $0) }
    Platform.close(fd)
    guard error == nil, Platform.rename(temporary, to: path) == 0 else {
      Platform.removeFile(temporary)
      return
    }
  }
}
