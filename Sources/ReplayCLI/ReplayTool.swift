import Foundation
import Rewind
import RewindReplay
import RewindReplayService

/// The `replay` command-line tool. A replay binary is this, called with the apps it knows:
///
/// ```swift
/// import ReplayCLI
/// import MyApp
///
/// ReplayTool.main(apps: [ReplayApp(name: "myapp", reducer: appReducer)])
/// ```
public enum ReplayTool {
  /// Runs `replay` with the process's arguments, standard input and output, then exits with its
  /// status: 0 success, 1 a difference found (`diff`, `verify`), 2 a usage error or unreadable
  /// or invalid input, 3 the app's reducer crashed on an action (the command stopped before
  /// it: `state` printed the last good state, a session landed there).
  ///
  /// Its messages, hints, help and examples use the binary's own name (as it was started), and
  /// log names of the user's own: this package's `Fixtures/` logs only when run in its checkout,
  /// where pasting such an example works.
  public static func main(apps: [ReplayApp]) -> Never {
    main(apps: apps, arguments: Array(CommandLine.arguments.dropFirst()))
  }

  /// Runs `replay` with `arguments` (without the program name) as ``main(apps:)`` does, for a
  /// binary that is a replay tool among other things. Its worker processes are the running
  /// executable with `__worker` as the first argument: route that to this function too.
  ///
  /// - Parameter voice: How the binary speaks of itself; by default by the name it was started
  ///   as, its examples naming this package's `Fixtures/` only where they are.
  package static func main(
    apps: [ReplayApp], arguments: [String], voice: ProgramVoice? = nil
  ) -> Never {
    CrashReporter.install()
    let output = StandardOutput()
    let voice =
      voice
      ?? ProgramVoice(
        invokedAs: CommandLine.arguments.first, citesFixtures: ProgramVoice.fixturesAreHere(),
        apps: apps)
    let status = run(
      arguments, apps: apps, output: output,
      input: Platform.isTerminal(0) && Platform.isTerminal(1)
        ? TerminalLineInput() : StandardInput(), isolatesByDefault: true, voice: voice)
    output.flush()
    exit(status)
  }

  /// Runs `replay` in process, for tests and embedding: `arguments` without the program name.
  ///
  /// - Parameter isolatesByDefault: Whether the app's reducer runs in a child process unless
  ///   `--no-isolate` is given (the `replay` binary: ``main(apps:)``), or only with `--isolate`
  ///   (in process, where the running executable may not be a replay binary that can be a
  ///   worker).
  /// - Parameter voice: The binary's name and examples (``ProgramVoice``).
  /// - Returns: The exit status.
  package static func run(
    _ arguments: [String], apps: [ReplayApp], output plainOutput: any TextOutput,
    input: any LineInput, isolatesByDefault: Bool = false, voice: ProgramVoice = .bundled
  ) -> Int32 {
    let output: any TextOutput =
      voice == .bundled ? plainOutput : VoicedOutput(plainOutput, voice: voice)
    if arguments.first == WorkerMode.command {
      return WorkerMode.run(Array(arguments.dropFirst()), apps: apps)
    }
    if arguments.first == FollowerWorkerMode.command {
      return FollowerWorkerMode.run(Array(arguments.dropFirst()), apps: apps)
    }
    if arguments.first == TriageWorkerMode.command {
      return TriageWorkerMode.run(Array(arguments.dropFirst()), apps: apps)
    }
    var program = ReplayProgram.program
    program.name = voice.name
    let invocation: Invocation
    do {
      invocation = try program.parse(arguments)
    } catch {
      output.writeLine(
        program.render(error, style: output.style(for: .standardError)), to: .standardError)
      return ExitStatus.trouble
    }
    switch invocation {
    case .help(let command):
      output.writeLine(voice.speaking(program.helpText(for: command)))
      return ExitStatus.success
    case .run(let command, let parsed):
      let context = CommandInvocation(
        arguments: parsed, apps: apps, output: output, input: input, program: program,
        command: command, isolatesByDefault: isolatesByDefault)
      return context.runCommand()
    }
  }
}
