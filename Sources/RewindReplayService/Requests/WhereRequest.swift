import Foundation
import RewindJSON
import RewindReplay

/// Where an action was dispatched, as a path an editor opens: `where [N] [--source DIR]` in a
/// session. The recorded `#fileID` is looked up under DIR, by default the current directory
/// (``SourceLocator``). Answered with a ``WhereResponse``.
package struct WhereRequest: ReplayRequest, Equatable {
  /// The action; `nil` for the one at the cursor.
  package var seq: Int?
  /// The folder of the app's sources; `nil` for the current directory.
  package var sourceRoot: String?

  /// The call site of action `seq`, or of the cursor's action, looked up under `sourceRoot`.
  package init(seq: Int? = nil, sourceRoot: String? = nil) {
    self.seq = seq
    self.sourceRoot = sourceRoot
  }

  package func run(on service: ReplayService) throws(ReplayFailure) -> WhereResponse {
    let debugger = service.debugger
    let site = try service.debug { () throws(DebuggerError) in
      guard
        let seq = seq
          ?? (debugger.position > service.log.positions.lowerBound
            ? debugger.position : nil)
      else { throw .atInitialState(debugger.position) }
      return try debugger.callSite(of: seq)
    }
    let root = sourceRoot ?? FileManager.default.currentDirectoryPath
    return WhereResponse(site: site, path: SourceLocator.locate(site, under: root), root: root)
  }

  /// `where [N]`.
  static let command = ReplayCommand(
    name: "where", alias: "wh", usage: "where [N] [--source DIR]",
    summary: "where the action was dispatched, as path:line",
    details: "Prints where action N (default: the cursor's) was dispatched, as a path:line an "
      + "editor opens, found from the recorded #fileID under DIR (default: the current "
      + "directory), and the 'xed -l' command that opens it in Xcode. Needs a log recorded "
      + "with origins (RecordingOptions.recordsOrigins)."
  ) { words, service throws(ReplayFailure) in
    var words = words
    var root: String?
    if let flag = words.firstIndex(of: "--source") {
      guard flag + 1 < words.count else { throw .usage("--source needs a folder") }
      root = words[flag + 1]
      words.removeSubrange(flag...(flag + 1))
    }
    return WhereRequest(seq: try ReplayCommand.optionalSeq(words, in: service), sourceRoot: root)
  }
}

/// Where an action was dispatched.
package struct WhereResponse: ReplayResponse {
  /// The recorded call site.
  package var site: CallSite
  /// The file found for it, relative to ``root``; `nil` when none was.
  package var path: String?
  /// The folder searched (the current directory).
  package var root: String

  /// ``CallSite/jsonValue`` with `"path"`, the file found, when one was.
  package var jsonValue: JSONValue {
    guard let path, case .object(var members) = site.jsonValue else { return site.jsonValue }
    members.append(JSONMember("path", .string(path)))
    return .object(members)
  }
}
