import Foundation
import RewindJSON
import RewindReplay

/// Where an action was dispatched, as a path an editor opens: `where [N]` in a session. The
/// recorded `#fileID` is looked up under the current directory (``SourceLocator``). Answered with
/// a ``WhereResponse``.
package struct WhereRequest: ReplayRequest, Equatable {
  /// The action; `nil` for the one at the cursor.
  package var seq: Int?

  /// The call site of action `seq`, or of the cursor's action.
  package init(seq: Int? = nil) { self.seq = seq }

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
    let root = FileManager.default.currentDirectoryPath
    return WhereResponse(site: site, path: SourceLocator.locate(site, under: root), root: root)
  }

  /// `where [N]`.
  static let command = ReplayCommand(
    name: "where", alias: "wh", usage: "where [N]",
    summary: "where the action was dispatched, as path:line",
    details: "Prints where action N (default: the cursor's) was dispatched, as a path:line an "
      + "editor opens, found under the current directory from the recorded #fileID, and the "
      + "'xed -l' command that opens it in Xcode. Needs a log recorded with origins "
      + "(RecordingOptions.recordsOrigins)."
  ) { words, service throws(ReplayFailure) in
    guard let word = words.first else { return WhereRequest() }
    guard words.count == 1 else {
      throw .usage("expected one action's seq, not '\(words.joined(separator: " "))'")
    }
    return WhereRequest(seq: try ReplayCommand.position(word, in: service))
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
