import Foundation
import RewindJSON
import RewindReplay
import RewindReplayService

extension DAPSession {
  /// The most frames one `stackTrace` response holds when the client asks for all of them
  /// (`levels` 0 or absent); `totalFrames` tells it there are more, to page with `startFrame`.
  static let maxFrames = 200

  /// The id of the first frame of a crash's report (the ids below it are positions + 1).
  static let crashFrameBase = 1 << 30

  /// `stackTrace`: frame 0 is the action at the cursor, then the actions before it, down to
  /// the initial state (`#0 initial state`); each named `#seq type`. A frame's id is its
  /// position + 1. A frame whose action was recorded with its call site carries that `source`
  /// (found under the source root) and `line`. Stopped at the reducer's crash, the frames of
  /// its report come first (innermost first, each with its file and line when the binary had
  /// debug information), ids from ``crashFrameBase``.
  func stackTrace(_ request: DAPRequest) throws(DAPError) -> JSONValue? {
    let service = try service(request)
    let cursor = service.position
    let first = service.log.positions.lowerBound
    let crashFrames = crashAtCursor(service)?.frames ?? []
    let total = crashFrames.count + cursor - first + 1
    let start = max(0, request.integer("startFrame") ?? 0)
    let levels = request.integer("levels") ?? 0
    let count = min(levels > 0 ? levels : Self.maxFrames, Self.maxFrames, max(0, total - start))
    var frames: [JSONValue] = []
    frames.reserveCapacity(count)
    for index in start..<(start + count) {
      if index < crashFrames.count, let crash = lastCrash {
        frames.append(frame(crashFrames[index], index: index, of: crash))
      } else {
        frames.append(frame(at: cursor - (index - crashFrames.count), service: service))
      }
    }
    return .object([
      JSONMember("stackFrames", .array(frames)), JSONMember("totalFrames", .integer(total)),
    ])
  }

  /// The crash of the last stop when the cursor is still where it landed.
  func crashAtCursor(_ service: ReplayService) -> CrashReport? {
    guard let lastCrash, lastCrash.lastGood == service.position else { return nil }
    return lastCrash
  }

  /// The frame of the crash report's frame `index`.
  private func frame(_ crashFrame: CrashReport.Frame, index: Int, of crash: CrashReport)
    -> JSONValue
  {
    let action = crash.seq.map { "#\($0) \(crash.type ?? "")" } ?? "crash"
    var members = [
      JSONMember("id", .integer(Self.crashFrameBase + index)),
      JSONMember("name", .string("\(action) ✗ \(crashFrame.function)")),
    ]
    if let file = crashFrame.file {
      let absolute = file.hasPrefix("/") ? file : Self.absolutePath(sourceRoot) + "/" + file
      var source = [
        JSONMember("name", .string(file.split(separator: "/").last.map(String.init) ?? file))
      ]
      if FileManager.default.fileExists(atPath: absolute) {
        source.append(JSONMember("path", .string(absolute)))
      }
      members.append(JSONMember("source", .object(source)))
    }
    members += [
      JSONMember("line", .integer(crashFrame.line ?? 0)),
      JSONMember("column", .integer(crashFrame.line == nil ? 0 : 1)),
    ]
    return .object(members)
  }

  /// The frame of `position`.
  private func frame(at position: Int, service: ReplayService) -> JSONValue {
    var members = [JSONMember("id", .integer(position + 1))]
    guard position > service.log.positions.lowerBound,
      let action = try? service.log.action(at: position)
    else {
      let isInitial = !service.log.isInitialStateMissing
      members += [
        JSONMember(
          "name", .string("#\(position) " + (isInitial ? "initial state" : "first state known"))),
        JSONMember("line", .integer(0)), JSONMember("column", .integer(0)),
      ]
      return .object(members)
    }
    members.append(JSONMember("name", .string("#\(position) \(action.type ?? "(unknown type)")")))
    if let site = try? service.debugger.callSite(of: position) {
      var source = [JSONMember("name", .string(site.fileName))]
      if let path = locate(site) { source.append(JSONMember("path", .string(path))) }
      source.append(JSONMember("origin", .string("dispatched at \(site.file)")))
      members += [
        JSONMember("source", .object(source)),
        JSONMember("line", .integer(site.line ?? 0)),
        JSONMember("column", .integer(site.line == nil ? 0 : 1)),
      ]
    } else {
      members += [JSONMember("line", .integer(0)), JSONMember("column", .integer(0))]
    }
    if action.isSanitized || action.status != .recorded {
      members.append(JSONMember("presentationHint", .string("subtle")))
    }
    return .object(members)
  }

  /// The absolute path of the file of `site` under the source root, when one is found (the
  /// search is made once per file).
  private func locate(_ site: CallSite) -> String? {
    if let known = locatedSources[site.file] { return known }
    let root = Self.absolutePath(sourceRoot)
    let found = SourceLocator.locate(site, under: root).map { relative in
      root.hasSuffix("/") ? root + relative : root + "/" + relative
    }
    locatedSources[site.file] = .some(found)
    return found
  }
}
