import Foundation
import ReplayCLI
import Rewind
import RewindExamples
import RewindReplay

/// The `replay` tool as the benchmarks run it: the built `replay` binary next to this one, or,
/// when `swift run rewind-bench` did not build it, this binary in its `__replay` mode, which runs
/// the same `ReplayTool` with the same apps as the binary does (standard input read, the app's
/// reducer isolated unless `--no-isolate`).
enum ReplayCommand {
  static let apps = [
    ReplayApp(name: "counter", reducer: counterReducer, initialState: CounterState()),
    ReplayApp(
      name: "todo", reducer: todoReducer, initialState: TodoState(),
      build: BuildStamp(schema: todoSchema),
      migrations: todoMigrations),
  ]

  /// The command line that starts `replay`.
  static var prefix: [String] {
    let own = BenchPlatform.executablePath
    let directory = own.split(separator: "/", omittingEmptySubsequences: false).dropLast()
      .joined(separator: "/")
    let sibling = "\(directory)/replay"
    return BenchPlatform.isExecutable(sibling) ? [sibling] : [own, "__replay"]
  }

  /// The executable a crash-isolated timeline starts as its worker: the built `replay` binary,
  /// or this one (whose `__worker` mode runs the same `ReplayTool`).
  static var workerExecutable: URL {
    let command = prefix
    return URL(fileURLWithPath: command[0])
  }

  /// What ``prefix`` runs, for the notes.
  static var description: String {
    prefix.count == 1 ? "the built replay binary" : "rewind-bench __replay (ReplayTool, same apps)"
  }

  /// Runs `replay` in this process, throwing its output away.
  static func runDiscarding(_ arguments: [String]) -> Int32 {
    ReplayTool.run(arguments, apps: apps, output: DiscardedOutput(), input: ScriptedInput([]))
  }
}

/// Output that goes nowhere.
struct DiscardedOutput: TextOutput {
  func write(_ text: String, to channel: OutputChannel) {}
  func flush() {}
  func style(for channel: OutputChannel) -> TerminalStyle { .plain }
}
