import Foundation
import Rewind
import RewindReplay

/// One log to read among many: a file, or the rotated files of one recorded session, read as one.
package struct LogTarget: Sendable, Equatable {
  /// Its name in reports: the file's path as found (a folder's path joined with the file's), or
  /// for a rotated session its newest file's.
  package var path: String
  /// Its files, oldest first (one for a file).
  package var files: [String]
  /// The session it is, when it was found as a recorded session of a folder (``files`` then
  /// holds its rotated files).
  package var session: RecordedSession?

  /// A single file.
  package init(file: String) {
    path = file
    files = [file]
    session = nil
  }

  /// A recorded session: named after its newest file.
  package init(session: RecordedSession) {
    path = session.files.last ?? session.id
    files = session.files
    self.session = session
  }

  /// When it was last written (its newest file's modification date), for the newest first.
  package var modified: Date? {
    guard let newest = files.last else { return nil }
    return (try? FileManager.default.attributesOfItem(atPath: newest))?[.modificationDate] as? Date
  }

  /// Writes its files joined into one log at `path` (``RecordedSession/bundle(to:)``), or
  /// returns its only file.
  /// - Throws: The error of reading a file or writing `path`.
  package func singleFile(joiningInto path: () -> String) throws -> String {
    guard files.count > 1, let session else { return files.first ?? self.path }
    return try session.bundle(to: path())
  }
}

/// Finds the logs that paths name: a file is itself; a folder is every `.jsonl` file under it
/// (recursively; hidden files and folders, and the shrunk reproductions `replay shrink` and
/// `triage --shrink` write, `NAME.shrunk.jsonl`, skipped), the rotated files of one recorded
/// session (docs/log-format.md, *Rotation and file names*) joined as one log; a path that does
/// not exist but holds `*`, `?` or `[` is a glob, each of its matches taken as above.
package enum LogSearch {
  /// Why a path names no log.
  package struct Failure: Error, Sendable, Equatable {
    /// The path given.
    package var path: String
    /// What went wrong, and what to give instead.
    package var message: String
  }

  /// The logs `paths` name, in the order given, each folder's sorted by path; a log named twice
  /// is listed once.
  /// - Throws: ``Failure`` for a path that is neither a file, a folder nor a glob with matches.
  package static func targets(_ paths: [String]) throws(Failure) -> [LogTarget] {
    var found: [LogTarget] = []
    for path in paths { found += try self.targets(path) }
    var targets: [LogTarget] = []
    var seen = Set<String>()
    for target in joiningSessions(found) where seen.insert(target.path).inserted {
      targets.append(target)
    }
    return targets
  }

  /// `targets` with the rotated files of one recorded session, when every one of them was named
  /// one by one (a shell's `logs/*.jsonl`, or a glob), replaced by that session as one log, where
  /// its first file was; files of a session named only in part stay logs of their own.
  private static func joiningSessions(_ targets: [LogTarget]) -> [LogTarget] {
    let single = targets.filter { $0.session == nil }.map(\.path)
    let given = Set(single)
    var byDirectory: [String: [String]] = [:]
    for path in single {
      byDirectory[(path as NSString).deletingLastPathComponent, default: []].append(path)
    }
    var sessionOf: [String: LogTarget] = [:]
    for (directory, files) in byDirectory where files.contains(where: isRotatedName) {
      let folder = directory.isEmpty ? "." : directory
      for session in RecordingsFolder(path: folder).sessions() where session.files.count > 1 {
        let target = sessionTarget(session, in: directory)
        guard target.files.allSatisfy(given.contains) else { continue }
        for file in target.files { sessionOf[file] = target }
      }
    }
    guard !sessionOf.isEmpty else { return targets }
    var joined: [LogTarget] = []
    var placed = Set<String>()
    for target in targets {
      guard target.session == nil, let session = sessionOf[target.path] else {
        joined.append(target)
        continue
      }
      if placed.insert(session.path).inserted { joined.append(session) }
    }
    return joined
  }

  /// Whether a file's name is a rotated file's (`NAME.N.jsonl`).
  private static func isRotatedName(_ path: String) -> Bool {
    let stem = (path as NSString).lastPathComponent.dropLast(".jsonl".count)
    return stem.split(separator: ".").last.map { Int($0) != nil } ?? false
  }

  /// `session` of the recordings folder `directory` as one log, its files named under
  /// `directory` as given.
  private static func sessionTarget(_ session: RecordedSession, in directory: String) -> LogTarget {
    let prefix = directory.isEmpty ? "" : directory + "/"
    let files = session.files.map { prefix + ($0 as NSString).lastPathComponent }
    var target = LogTarget(session: session)
    target.path = files.last ?? target.path
    target.files = files
    return target
  }

  /// The logs one path names (see ``LogSearch``).
  /// - Throws: ``Failure`` for a path that is neither a file, a folder nor a glob with matches.
  package static func targets(_ path: String) throws(Failure) -> [LogTarget] {
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
      return isDirectory.boolValue ? folder(path) : [LogTarget(file: path)]
    }
    guard path.contains(where: { "*?[".contains($0) }) else {
      throw Failure(
        path: path,
        message: "no such file or folder: \(path) — give log files, folders of logs "
          + "or a glob ('logs/*.jsonl')")
    }
    let matches = Platform.glob(path)
    guard !matches.isEmpty else {
      throw Failure(path: path, message: "no file matches \(path)")
    }
    var targets: [LogTarget] = []
    for match in matches {
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: match, isDirectory: &isFolder) else { continue }
      targets += isFolder.boolValue ? folder(match) : [LogTarget(file: match)]
    }
    return targets
  }

  /// Every log under `folder` (see ``LogSearch``), sorted by path; none when it holds none.
  package static func folder(_ folder: String) -> [LogTarget] {
    let base = folder.hasSuffix("/") && folder.count > 1 ? String(folder.dropLast()) : folder
    var byDirectory: [String: [String]] = [:]
    let enumerator = FileManager.default.enumerator(
      at: URL(fileURLWithPath: base), includingPropertiesForKeys: [.isRegularFileKey],
      options: [.skipsHiddenFiles])
    let root = URL(fileURLWithPath: base).standardizedFileURL.path
    while let url = enumerator?.nextObject() as? URL {
      guard url.pathExtension == "jsonl", !url.lastPathComponent.hasSuffix(".shrunk.jsonl"),
        (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true
      else { continue }
      // Named under the folder as given (`logs/a/b.jsonl`), not as the system resolved it.
      let full = url.standardizedFileURL.path
      let relative = full.hasPrefix(root + "/") ? String(full.dropFirst(root.count + 1)) : full
      let path = full.hasPrefix(root + "/") ? base + "/" + relative : full
      let directory = (path as NSString).deletingLastPathComponent
      byDirectory[directory, default: []].append(path)
    }
    var targets: [LogTarget] = []
    for (directory, files) in byDirectory {
      // Files named as a recordings folder names them group into sessions; the rest are logs
      // of their own.
      var inSessions = Set<String>()
      if files.contains(where: isRotatedName) {
        for session in RecordingsFolder(path: directory).sessions() where session.files.count > 1 {
          let target = sessionTarget(session, in: directory)
          inSessions.formUnion(target.files)
          targets.append(target)
        }
      }
      targets += files.filter { !inSessions.contains($0) }.map(LogTarget.init(file:))
    }
    return targets.sorted { $0.path < $1.path }
  }
}
