import Foundation
import Rewind
import RewindReplay

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
  /// or invalid input.
  public static func main(apps: [ReplayApp]) -> Never {
    CrashReporter.install()
    let output = StandardOutput()
    let status = run(
      Array(CommandLine.arguments.dropFirst()), apps: apps, output: output,
      input: Platform.isTerminal(0) && Platform.isTerminal(1)
        ? TerminalLineInput() : StandardInput())
    output.flush()
    exit(status)
  }

  /// Runs `replay` in process, for tests and embedding: `arguments` without the program name.
  /// - Returns: The exit status.
  package static func run(
    _ arguments: [String], apps: [ReplayApp], output: any TextOutput, input: any LineInput
  ) -> Int32 {
    if arguments.first == WorkerMode.command {
      return WorkerMode.run(Array(arguments.dropFirst()), apps: apps)
    }
    let program = ReplayProgram.program
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
      output.writeLine(program.helpText(for: command))
      return ExitStatus.success
    case .run(let command, let parsed):
      let context = CommandContext(
        arguments: parsed, apps: apps, output: output, input: input, program: program,
        command: command)
      return context.runCommand()
    }
  }
}

/// The exit statuses of `replay`.
enum ExitStatus {
  static let success: Int32 = 0
  static let different: Int32 = 1
  static let trouble: Int32 = 2
}
