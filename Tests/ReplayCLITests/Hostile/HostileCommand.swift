import Foundation

@testable import ReplayCLI

/// The commands of `replay` that read a log, each as the command line a hostile log is given to.
///
/// `shrink` is left out: it spawns a worker per candidate replay and has its own suite.
enum HostileCommand: String, CaseIterable, Sendable, CustomStringConvertible {
  case info
  case actions
  case state
  case session = "-c 'goto last'"
  case verify
  case profile
  case diff
  case genTest = "gen-test"
  case exportHTML = "export --html"
  case exportReduxDevTools = "export --redux-devtools"
  case tail

  var description: String { rawValue }

  /// The command line for `log`, writing any output file into `scratch` and comparing with
  /// `other` (a sound log of the same app) for `diff`.
  func arguments(log: String, scratch: URL, other: String) -> [String] {
    switch self {
    case .info: return ["info", log]
    case .actions: return ["actions", log]
    case .state: return ["state", log]
    case .session: return [log, "-c", "goto last"]
    case .verify: return ["verify", log]
    case .profile: return ["profile", log, "--repeat", "1"]
    case .diff: return ["diff", log, other]
    case .genTest: return ["gen-test", log]
    case .exportHTML:
      return ["export", log, "--html", scratch.appendingPathComponent("export.html").path]
    case .exportReduxDevTools:
      return [
        "export", log, "--redux-devtools", scratch.appendingPathComponent("devtools.json").path,
      ]
    case .tail: return ["tail", log]
    }
  }

  /// Whether this `replay` has the command: `export --redux-devtools` is registered only once
  /// the shared `export` command lands (until then `export` serves `--html` alone).
  var isAvailable: Bool {
    guard self == .exportReduxDevTools else { return true }
    let export = ReplayProgram.program.commands.first { $0.name == "export" }
    return export?.allOptions.contains { $0.name == "redux-devtools" } == true
  }

  /// Every command this `replay` has.
  static let available = allCases.filter(\.isAvailable)

  /// The commands that open the log with ``ReplayLog`` and must refuse a faulty line with
  /// status 2. `tail` reads with its own follower, which reports faulty lines as warnings.
  var opensTheWholeLog: Bool { self != .tail }
}

/// Replays in this process, one at a time: the replay engine's note for its crash reporter
/// (`StepMarker`) is process-wide, and only one of several replays at once gets it (see
/// ``Hostile/ConcurrentInProcessRunTests``); one at a time, each run's note names its own log.
enum InProcessReplay {
  private static let lock = NSLock()

  /// Runs `body` while no other hostile-input test replays in this process.
  static func serially<Result>(_ body: () throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body()
  }
}

/// One in-process run of a hostile command line: what `replay` returned and wrote.
struct HostileRun: CustomStringConvertible {
  var command: HostileCommand
  var run: ReplayRun

  init(_ command: HostileCommand, log: String, scratch: URL, other: String) {
    self.init(command, arguments: command.arguments(log: log, scratch: scratch, other: other))
  }

  /// Runs `arguments`, which stand for `command`.
  init(_ command: HostileCommand, arguments: [String]) {
    self.command = command
    run = InProcessReplay.serially { ReplayRun(arguments) }
  }

  var status: Int32 { run.status }
  var standardError: String { run.standardError }

  /// The first line of standard error, or `""`.
  var firstErrorLine: String {
    String(run.standardError.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
  }

  var description: String {
    "replay \(command) → \(status)\n--- stderr:\n\(run.standardError.prefix(600))\n--- stdout:\n"
      + "\(run.standardOutput.prefix(300))"
  }
}
