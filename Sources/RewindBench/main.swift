// rewind-bench: measures recording, loading, stepping, memory and diff against baselines measured
// in the same run (docs/performance.md).
//
//   swift run -c release rewind-bench [--quick] [--json] [--json-out FILE] [--only SECTIONS]
//                                     [--logs DIR]
//
//   --quick         smaller workloads (100,000-action logs); well under a minute
//   --json          one JSON document with every figure instead of the table
//   --json-out FILE also write that JSON document to FILE
//   --only 1,2,5    run only these sections (1 … 16)
//   --logs DIR      keep the generated logs in DIR and reuse them in later runs
//                   (default: a temporary directory, removed at the end)
import Foundation
import ReplayCLI

let arguments = Array(CommandLine.arguments.dropFirst())
do {
  switch arguments.first {
  case "__memory":
    try MemoryBench.childMain(Array(arguments.dropFirst()))
  case "__profile":
    try ProfileMode.run(Array(arguments.dropFirst()))
  case "__peak":
    // The peak resident memory of one command, this process's only child.
    exit(BenchPlatform.printPeakResident(of: Array(arguments.dropFirst())))
  case "__replay":
    // `replay` when no built binary is next to this one: as the binary runs, reading standard
    // input (the REPL, `replay dap`) and isolating the app's reducer by default.
    ReplayTool.main(apps: ReplayCommand.apps, arguments: Array(arguments.dropFirst()))
  case "__worker", "__follow", "__triage":
    // A crash-isolated worker, when no built replay binary is next to this one: as the replay
    // binary runs one, with its crash reporter (the note of the action a reducer crashed on).
    ReplayTool.main(apps: ReplayCommand.apps, arguments: arguments)
  default:
    let options = try BenchOptions(arguments)
    try BenchRun(options: options).run()
  }
} catch {
  FileHandle.standardError.write(Data("rewind-bench: \(error)\n".utf8))
  exit(2)
}
