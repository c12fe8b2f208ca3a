import RewindJSON
import RewindReplay
import RewindReplayService

extension DAPSession {
  /// The most frames one `stackTrace` response holds when the client asks for all of them
  /// (`levels` 0 or absent); `totalFrames` tells it there are more, to page with `startFrame`.
  static let maxFrames = 200

  /// `stackTrace`: frame 0 is the action at the cursor, then the actions before it, down to
  /// the initial state (`#0 initial state`); each named `#seq type`. A frame's id is its
  /// position + 1. A frame whose action was recorded with its call site carries that `source`
  /// (found under the source root) and `line`.
  func stackTrace(_ request: DAPRequest) throws(DAPError) -> JSONValue? {
    let service = try service(request)
    let cursor = service.position
    let first = service.log.positions.lowerBound
    let total = cursor - first + 1
    let start = max(0, request.integer("startFrame") ?? 0)
    let levels = request.integer("levels") ?? 0
    let count = min(levels > 0 ? levels : Self.maxFrames, Self.maxFrames, max(0, total - start))
    var frames: [JSONValue] = []
    frames.reserveCapacity(count)
    for index in start..<(start + count) {
      frames.append(frame(at: cursor - index, service: service))
    }
    return .object([
      JSONMember("stackFrames", .array(frames)), JSONMember("totalFrames", .integer(total)),
    ])
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
