import Foundation
import RewindJSON
import RewindReplay
import RewindReplayService

/// The logs an MCP server can see — one file, or the `.jsonl` files of a folder — and the
/// replay service of each, opened when a tool first asks for it and kept for the next few.
///
/// Nothing here writes: a log is only read (its app's reducer runs in a worker process, unless
/// isolation is off, so that a reducer that crashes is a crash report, not the server's end).
package final class MCPLogCatalog {
  /// One log the server can see.
  package struct Entry: Sendable, Equatable {
    /// Its name in tools' `log` argument: the path relative to the folder (the file's name for
    /// one log).
    package var name: String
    /// Its path.
    package var path: String
    /// Its size in bytes.
    package var byteCount: Int
    /// When it was last written.
    package var modified: Date?

    /// Its resource address: a `file://` URI of its absolute path.
    package var uri: String { URL(fileURLWithPath: path).standardizedFileURL.absoluteString }
  }

  /// Why a tool's `log` argument names no log it can read.
  package struct Failure: Error, Sendable {
    /// What went wrong and how to fix it.
    package var message: String
  }

  /// The most logs a folder lists (the newest first beyond it are not listed).
  package static let maxEntries = 10_000
  /// How many opened logs are kept at once.
  package static let keptServices = 4

  /// The logs, newest first.
  package let entries: [Entry]
  /// Whether the server was given a folder (else one log).
  package let isFolder: Bool
  /// The folder or file given.
  package let root: String
  /// The apps this binary knows.
  private let apps: [ReplayApp]
  /// How logs are opened.
  private let recovery: RecoveryMode
  /// Where reducers run.
  private let isolation: OpenedLog.Isolation
  /// The services opened, the most recently used last.
  private var services: [(name: String, service: ReplayService)] = []

  /// The logs at `path`: the file itself, or every `.jsonl` file under the folder (recursively,
  /// hidden folders skipped), newest first.
  /// - Throws: ``Failure`` when `path` is neither a file nor a folder, or the folder holds no log.
  package init(
    path: String, apps: [ReplayApp], recovery: RecoveryMode, isolation: OpenedLog.Isolation
  ) throws(Failure) {
    self.apps = apps
    self.recovery = recovery
    self.isolation = isolation
    root = path
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw Failure(
        message: "no such file or folder: \(path) — give a log file or a folder of logs")
    }
    isFolder = isDirectory.boolValue
    if !isFolder {
      entries = [Self.entry(path: path, name: URL(fileURLWithPath: path).lastPathComponent)]
      return
    }
    let base = URL(fileURLWithPath: path).standardizedFileURL
    var found: [Entry] = []
    let enumerator = FileManager.default.enumerator(
      at: base, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
    while let url = enumerator?.nextObject() as? URL {
      guard url.pathExtension == "jsonl" else { continue }
      let full = url.standardizedFileURL.path
      var name = full
      if full.hasPrefix(base.path + "/") { name = String(full.dropFirst(base.path.count + 1)) }
      found.append(Self.entry(path: full, name: name))
    }
    guard !found.isEmpty else {
      throw Failure(message: "no .jsonl logs in the folder \(path)")
    }
    found.sort {
      ($0.modified ?? .distantPast, $1.name) > ($1.modified ?? .distantPast, $0.name)
    }
    entries = Array(found.prefix(Self.maxEntries))
  }

  /// The entry of the file at `path`.
  private static func entry(path: String, name: String) -> Entry {
    let attributes = try? FileManager.default.attributesOfItem(atPath: path)
    return Entry(
      name: name, path: path, byteCount: (attributes?[.size] as? Int) ?? 0,
      modified: attributes?[.modificationDate] as? Date)
  }

  /// The entry a tool's `log` argument names: its name, its path, or its URI; `nil` for the one
  /// log of a server given one file.
  /// - Throws: ``Failure`` naming the logs there are, when none matches or none was named in a
  ///   folder.
  package func entry(named name: String?) throws(Failure) -> Entry {
    guard let name else {
      if entries.count == 1, let only = entries.first { return only }
      throw Failure(
        message: "'log' is required: this server sees \(entries.count) logs (the 'logs' tool "
          + "lists them; the newest is '\(entries.first?.name ?? "")')")
    }
    if let match = entries.first(where: { $0.name == name || $0.path == name || $0.uri == name }) {
      return match
    }
    let names = entries.prefix(5).map { "'\($0.name)'" }.joined(separator: ", ")
    let suggestion = closestMatch(to: name, in: entries.prefix(1000).map(\.name))
    throw Failure(
      message: "no log named '\(name)'"
        + (suggestion.map { " — did you mean '\($0)'?" } ?? "")
        + " (logs here: \(names)\(entries.count > 5 ? ", …" : ""); the 'logs' tool lists them)")
  }

  /// The replay service of `entry`, opened the first time (kept for the next few calls).
  /// - Throws: ``Failure`` with the reader's message when the log does not open.
  package func service(for entry: Entry) throws(Failure) -> ReplayService {
    if let index = services.firstIndex(where: { $0.name == entry.name }) {
      let kept = services.remove(at: index)
      services.append(kept)
      return kept.service
    }
    let opened: OpenedLog
    do {
      opened = try OpenedLog(
        path: entry.path, recovery: recovery, apps: apps, isolation: isolation)
    } catch {
      var message = "\(entry.name): \(error.message)"
      if let location = error.location { message = "\(location): \(error.message)" }
      if let hint = error.hint { message += " (hint: \(hint))" }
      throw Failure(message: message)
    }
    let service = ReplayService(opened: opened)
    if services.count >= Self.keptServices { services.removeFirst() }
    services.append((entry.name, service))
    return service
  }
}
