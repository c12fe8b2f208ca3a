import Rewind
import RewindJSON
import RewindReplay
import RewindReplayService

/// One invocation of `replay`: its parsed arguments, the known apps, and where to write; it runs
/// the command named. Each command's work is in a file of its own (`InfoCommand.swift`,
/// `SessionCommand.swift`…), as an extension.
struct CommandInvocation {
  let arguments: ParsedArguments
  let apps: [ReplayApp]
  let output: any TextOutput
  let input: any LineInput
  let program: ProgramSpec
  let command: CommandSpec
  /// Whether the app's reducer runs in a child process unless `--no-isolate` is given.
  var isolatesByDefault = false
  /// Files made for this command (a folder's session joined), removed when it ends.
  let temporaryFiles = TemporaryFiles()

  /// Runs the command and returns the exit status.
  func runCommand() -> Int32 {
    defer { temporaryFiles.removeAll() }
    do throws(CommandFailure) {
      switch command.name {
      case ReplayProgram.info.name: return try runInfo()
      case ReplayProgram.actions.name: return try runActions()
      case ReplayProgram.state.name: return try runState()
      case ReplayProgram.history.name: return try runHistory()
      case ReplayProgram.diff.name: return try runDiff()
      case ReplayProgram.verify.name: return try runVerify()
      case ReplayProgram.compat.name: return try runCompat()
      case ReplayProgram.triage.name: return try runTriage()
      case ReplayProgram.profile.name: return try runProfile()
      case ReplayProgram.shrink.name: return try runShrink()
      case ReplayProgram.genTest.name: return try runGenTest()
      case ReplayProgram.export.name: return try runExport()
      case ReplayProgram.importCommand.name: return try runImport()
      case ReplayProgram.tail.name: return try runTail()
      case ReplayProgram.tui.name: return try runTUI()
      case ReplayProgram.dap.name: return try runDAP()
      case ReplayProgram.mcp.name: return try runMCP()
      case ReplayProgram.listen.name: return try runListen()
      default: return try runSession()
      }
    } catch {
      output.emit(error.diagnostic)
      return ExitStatus.trouble
    }
  }

  /// Whether the command declares the option `name` (asking for an undeclared one is a bug).
  func declares(_ name: String) -> Bool {
    command.allOptions.contains { $0.name == name }
  }

  var recovery: RecoveryMode {
    arguments.string("recovery").flatMap(RecoveryMode.init(rawValue:)) ?? .tail
  }

  var wantsJSON: Bool { arguments.flag("json") }

  /// Whether this command runs the app's reducer in a child process: `--isolate`, or the
  /// default of the `replay` binary unless `--no-isolate`.
  var isolates: Bool {
    guard declares("isolate") else { return false }
    if arguments.flag("isolate") { return true }
    return isolatesByDefault && !arguments.flag("no-isolate")
  }

  /// Where this command runs the app's reducer (``isolates``); `interactive` for a session.
  func isolation(interactive: Bool = false) -> OpenedLog.Isolation {
    isolates ? .worker(interactive: interactive) : .inProcess
  }

  /// Opens the `LOG` argument; `interactive` for a session (see ``OpenedLog``).
  ///
  /// - Parameter needsInitialState: Whether the command needs the state before the first action
  ///   (it replays from there, or writes it): a file whose initial state never came
  ///   (``ReplayLog/isInitialStateMissing``) is then refused, saying how to read it.
  func openLog(
    _ argument: String = "LOG", usesCheckpoints: Bool = true, interactive: Bool = false,
    needsInitialState: Bool = false
  ) throws(CommandFailure) -> OpenedLog {
    let path = logPath(argument)
    do throws(ReplayError) {
      let opened = try OpenedLog(
        path: path, recovery: recovery, apps: apps, usesCheckpoints: usesCheckpoints,
        isolation: isolation(interactive: interactive))
      if needsInitialState && opened.log.isInitialStateMissing {
        throw opened.log.initialStateError
      }
      if let note = opened.buildNote { output.emit(note) }
      opened.showProgress(on: output)
      return opened
    } catch {
      throw .replay(error)
    }
  }

  /// The file a log argument names: itself, or for a recordings folder its newest session (with
  /// a note on stderr saying so).
  func logPath(_ argument: String) -> String {
    let (path, note) = RecordingsFolderArgument.resolve(
      arguments.positional(argument) ?? "", temporaryFiles: temporaryFiles)
    if let note { output.emit(note) }
    return path
  }

  /// Opens the `A` argument for its service and reads `B`, one after the other (opening a large
  /// log already keeps both cores busy: one reads it while the other indexes it); fails with
  /// `A`'s error first. Notes on either log's build are given here. Each open also finds its
  /// actions' identities, which the diff compares (`identifiesActions`).
  func openLogPair() throws(CommandFailure) -> (a: OpenedLog, b: ReplayLog) {
    var logs: [ReplayLog] = []
    for name in ["A", "B"] {
      do throws(ReplayError) {
        let log = try ReplayLog(path: logPath(name), recovery: recovery, identifiesActions: true)
        // The initial states are compared.
        if log.isInitialStateMissing { throw log.initialStateError }
        logs.append(log)
      } catch {
        throw .replay(error)
      }
    }
    let a = OpenedLog(log: logs[0], apps: apps, isolation: isolation())
    if let note = a.buildNote { output.emit(note) }
    if let app = ReplayApp.recording(logs[1].header, among: apps),
      let note = BuildComparison.note(log: logs[1], app: app)
    {
      output.emit(note)
    }
    // B's timeline, opened by the request, reports its progress where A's does.
    a.showProgress(on: output)
    return (a, logs[1])
  }

  /// Reports the faults that the recovery mode let past, as warnings on stderr.
  func reportFaults(_ log: ReplayLog) {
    for fault in log.faults {
      var warning = fault.warning
      switch log.recovery {
      case .tail:
        warning.notes = ["the last line was dropped: the app was cut off while writing it"]
      case .prefix: warning.notes = ["stopped here: the lines from this one on were dropped"]
      case .salvage:
        if case .seqGap = fault.reason {
          warning.notes = ["the missing actions are skipped; later states are flagged as suspect"]
        } else {
          warning.notes = ["skipped this line; later states are flagged as suspect"]
        }
      case .strict: break
      }
      output.emit(warning)
    }
  }

  /// The position a command's argument names (`12`, `first`, `last`), as the debugger reads it.
  func parsePosition(_ text: String, in log: ReplayLog) throws(CommandFailure) -> Int {
    do { return try Debugger.position(text, in: log) } catch {
      if case .positionOutOfRange(let n, let valid) = error {
        throw .replay(.positionOutOfRange(n, valid: valid))
      }
      throw .diagnostic(Diagnostic.error(inert(error.message)))
    }
  }
}
