import Foundation
import Rewind
import RewindJSON
import RewindReplay
import RewindReplayService

extension CommandInvocation {
  /// `replay tail -f LOG [--diff] [--type NAME] [--path PATH] [-n N] [--timeout S]`.
  func runTail() throws(CommandFailure) -> Int32 {
    let path = arguments.positional("LOG") ?? ""
    // --diff and --path run the reducer in a child process first (unless --no-isolate): a trap
    // there is reported, and `tail` goes on without states until a new file starts.
    StepMarker.setLog(path)
    let follow = arguments.flag("follow")
    let showDiff = arguments.flag("diff")
    let type = arguments.string("type")
    let count: Int
    let timeout: Int?
    do throws(UsageError) {
      count = try arguments.int("lines") ?? 10
      timeout = try arguments.int("timeout")
    } catch {
      throw .diagnostic(Diagnostic.error(error.message))
    }
    var watched: JSONPath?
    if let text = arguments.string("path") {
      do throws(StatePathError) { watched = try JSONPath.parse(text) } catch {
        throw .diagnostic(Diagnostic.error(inert(error.description)))
      }
    }
    if case .success(let file) = Platform.openForReading(path) {
      Platform.close(file.fd)
      guard file.isRegular else { throw .replay(.notARegularFile(path: path, kind: file.kind)) }
    }
    guard Platform.fileIdentity(path) != nil || follow else {
      throw .replay(.cannotOpen(path: path, reason: Platform.describe(errno: Platform.noSuchFile)))
    }
    let needsStates = showDiff || watched != nil
    let tail = LogTail(path: path, waitsForStates: needsStates)
    var follower: (any StateFollower)?
    // The current file's migrations, when the app is registered and its schema is older: each
    // action is shown and applied as the app reads it today, marked "(migrated)".
    var migration: MigrationChain?
    var notedBuild = false
    var notedWaiting = false
    var backlog: [String] = []
    var inBacklog = true
    var idle = 0
    func emit(_ text: String) {
      if inBacklog {
        backlog.append(text)
        if backlog.count > count { backlog.removeFirst(backlog.count - count) }
      } else {
        output.writeLine(text)
      }
    }
    var sawHeader = false
    // Whether the actions are a catalog's (their type filter also takes an enum's case name).
    var inCatalog = false
    while true {
      let events = tail.poll()
      for event in events {
        if case .header = event { sawHeader = true }
        // A fault after a header that waits for its state is told like any other.
        var followsAHeader = false
        if case .fault(let fault) = event, let line = tail.headerLine, fault.line > line {
          followsAHeader = true
        }
        if !sawHeader && !followsAHeader {
          switch event {
          case .restarted, .end: break
          case .fault(let fault):
            throw .replay(
              .notARewindLog(
                path: path, reason: "line \(fault.line) is not a header: \(fault.reason.summary)"))
          default:
            throw .replay(.notARewindLog(path: path, reason: "the first line is not a header"))
          }
        }
        switch event {
        case .header(let header):
          inCatalog = header.recordsCatalogActions
          let app = ReplayApp.recording(header, among: apps)
          migration = nil
          if let app {
            if case .migrate(let chain) = app.migrationPlan(for: header) { migration = chain }
            // Said once, up front, like every command; a new file of the same build says nothing.
            if !notedBuild, let note = BuildComparison.note(header: header, path: path, app: app) {
              output.emit(note)
              notedBuild = true
            }
          }
          // A rotated file whose state follows continues the states already followed; one
          // whose state did not come whole is shown without states.
          if needsStates, header.stateFollows, follower == nil {
            output.emit(
              Diagnostic.warning(
                "the initial state of \(inert(path)) from seq \(header.firstSeq) is not known: "
                  + "its actions are shown without --diff or --path"))
          }
          if needsStates, !header.stateFollows {
            guard let app else {
              throw .diagnostic(
                Diagnostic.error(
                  "--diff and --path need the app's reducer, and this replay binary does not know "
                    + "the app \"\(inert(header.app))\"",
                  hints: [
                    Diagnostic.Hint("build a replay binary for it", comment: "docs/embedding.md")
                  ]))
            }
            do {
              let state =
                try migration?.migratedState(
                  header.state, in: path, line: 1, what: "header's initial state")
                ?? header.state
              let local = try app.follower(initialState: state)
              follower =
                isolates ? IsolatedFollower(local: local, app: app, log: path) : local
            } catch {
              throw .replay(error)
            }
          }
          if !inBacklog {
            output.writeLine("-- \(inert(path)): new file from seq \(header.firstSeq)")
          }
        case .action(let recorded):
          let action: RecordedAction
          do {
            action = try migration?.migrated(recorded, in: path) ?? recorded
          } catch {
            throw .replay(error)
          }
          var changes: [JSONChange]?
          if let current = follower, let payload = action.payload {
            let before = current.stateJSON
            let after: JSONValue
            do {
              after = try current.apply(
                payload, seq: action.seq, type: action.type, line: action.line)
            } catch {
              guard case .reducerCrashed = error else { throw .replay(error) }
              // The app's reducer traps on this action: say so, and follow the actions alone.
              let crash = error.diagnostic
              output.emit(
                Diagnostic.warning(
                  crash.message, at: crash.location,
                  notes: crash.notes + [
                    "states are no longer followed: the actions from here on are shown without "
                      + "--diff or --path, until a new file of the recording starts"
                  ], hints: crash.hints))
              follower = nil
              emit(ActionFormatter.line(action))
              continue
            }
            if let watched {
              guard before.valueIfPresent(at: watched) != after.valueIfPresent(at: watched) else {
                continue
              }
            }
            changes = JSONDiff.diff(before, after)
          }
          if let type, !action.isOfType(type, inCatalog: inCatalog) { continue }
          var text = ActionFormatter.line(action)
          if showDiff, changes != nil {
            text +=
              "\n"
              + inert(JSONDiff.render(changes), keepingNewlines: true).split(separator: "\n")
              .map { "        \($0)" }.joined(separator: "\n")
          }
          emit(text)
        case .end(let reason):
          if reason == "closed" {
            for line in backlog { output.writeLine(line) }
            output.writeLine("-- the recording ended (end record)")
            return ExitStatus.success
          }
        case .fault(let fault):
          output.emit(fault.warning)
        case .restarted:
          // Another file: its header starts the states again (or shows it has none).
          follower = nil
          if !inBacklog {
            output.writeLine(
              "-- \(inert(path)) was replaced or truncated: reading it from the start")
          }
        }
      }
      if inBacklog {
        for line in backlog { output.writeLine(line) }
        backlog.removeAll()
        inBacklog = false
        if !follow {
          guard sawHeader else {
            if let seq = tail.awaitedStateSeq {
              throw .replay(.headerStateMissing(path: path, seq: seq))
            }
            let size = Platform.fileIdentity(path)?.size ?? 0
            throw .replay(
              size == 0
                ? .emptyLog(path: path)
                : .notARewindLog(path: path, reason: "it has no complete header line"))
          }
          return ExitStatus.success
        }
      }
      if let seq = tail.awaitedStateSeq, !notedWaiting {
        notedWaiting = true
        output.emit(
          Diagnostic(
            .note, at: nil,
            "\(inert(path)) begins at seq \(seq + 1), with its initial state written after its "
              + "first actions: waiting for it (--diff and --path start from it)"))
      }
      output.flush()
      idle = events.isEmpty ? idle + 1 : 0
      if let timeout, idle * 100 >= timeout * 1000 { return ExitStatus.success }
      Platform.sleep(milliseconds: 100)
    }
  }
}
