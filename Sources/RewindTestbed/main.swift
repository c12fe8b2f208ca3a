// rewind-testbed: writes Fixtures/ and runs child processes for the recorder's crash tests.
//
//   rewind-testbed fixtures DIR            write every fixture log into DIR
//   rewind-testbed crash LOG               record a todo session until the move bug kills it
//   rewind-testbed record LOG POLICY N     record N counter actions, acknowledging each on stdout
//                                          (POLICY: process, rotating, interval, every, buffered)
//   rewind-testbed record-big LOG N        the same with a 400 KiB state (background checkpoints)
//   rewind-testbed dispatch-from-reducer   misuse the store (it must stop with a message)
//   rewind-testbed clock-journal LOG       record with a reducer that reads the clock (docs/determinism.md)
//   rewind-testbed signal LOG HOW [CHAIN]  record with recordsFatalSignals, then die HOW (SignalRecordChild)
//   rewind-testbed folder DIR N HOW       record N todo actions into a recordings folder, end HOW
//   rewind-testbed runaway LOG HOW         record the traps app until a reducer that does not
//                                          return (HOW: hang, grow) gets it killed (RunawayRecordChild)
//   rewind-testbed live LOG N PAUSE_MS [QUEUE]  record N counter actions to LOG and to the live
//                                          viewer of REWIND_LIVE, PAUSE_MS apart (docs/live.md);
//                                          REWIND_LIVE_ACCEPTS_ACTIONS=1 takes the viewer's actions
//   rewind-testbed replay ARGS…            `replay` with replay's apps and the `traps` app (Traps.swift)
//   rewind-testbed peak REPORT ARGS…       the same, writing its peak memory to REPORT at exit
//                                          (PeakMemoryReport.swift)
import Foundation
import ReplayCLI
import Rewind
import RewindExamples
import RewindReplay

let arguments = CommandLine.arguments

// A replay binary: `replay ARGS…`, and the worker processes it starts for itself (`__worker`,
// `__follow`, `__triage`). Its apps are those of Sources/replay/main.swift, and `traps`.
if arguments.count > 1,
  ["replay", "peak", "__worker", "__follow", "__triage"].contains(arguments[1])
{
  var replayArguments = Array(arguments.dropFirst(arguments[1] == "replay" ? 2 : 1))
  if arguments[1] == "peak" {
    guard arguments.count > 2 else {
      FileHandle.standardError.write(Data("usage: rewind-testbed peak REPORT ARGS…\n".utf8))
      exit(2)
    }
    PeakMemoryReport.start(path: arguments[2])
    replayArguments = Array(arguments.dropFirst(3))
  }
  ReplayTool.main(
    apps: [
      ReplayApp(name: "counter", reducer: counterReducer, initialState: CounterState()),
      ReplayApp(
        name: "todo", reducer: todoReducer, initialState: TodoState(),
        build: BuildStamp(schema: todoSchema),
        migrations: todoMigrations),
      ReplayApp(name: "journal", reducer: journalReducer),
      ReplayApp(name: "traps", reducer: trapReducer),
    ],
    arguments: replayArguments, voice: .bundled)
}

do {
  switch (arguments.count > 1 ? arguments[1] : "", arguments.count) {
  case ("fixtures", 3):
    try FixtureWriter.writeAll(to: arguments[2], testbed: arguments[0])
  case ("crash", 3):
    try FixtureWriter.crash(to: arguments[2])
  case ("record", 5):
    guard let count = Int(arguments[4]) else { throw FixtureError("N must be a number") }
    try ChildModes.record(to: arguments[2], policy: arguments[3], count: count)
  case ("dispatch-from-reducer", 2):
    ChildModes.dispatchFromReducer()
  case ("record-big", 4):
    guard let count = Int(arguments[3]) else { throw FixtureError("N must be a number") }
    try ChildModes.recordBig(to: arguments[2], count: count)
  case ("signal", 4), ("signal", 5):
    try SignalRecordChild.run(
      log: arguments[2], how: arguments[3], chain: arguments.count == 5 ? arguments[4] : "none")
  case ("folder", 5):
    guard let count = Int(arguments[3]) else { throw FixtureError("N must be a number") }
    try ChildModes.recordInFolder(arguments[2], count: count, how: arguments[4])
  case ("live", 5), ("live", 6):
    guard let count = Int(arguments[3]), let pause = Int(arguments[4]) else {
      throw FixtureError("N and PAUSE_MS must be numbers")
    }
    try ChildModes.recordLive(
      to: arguments[2], count: count, pause: pause,
      queueCapacity: arguments.count == 6 ? Int(arguments[5]) : nil)
  case ("clock-journal", 3):
    try ChildModes.clockReadingJournal(to: arguments[2])
  case ("runaway", 4):
    try RunawayRecordChild.run(log: arguments[2], how: arguments[3])
  default:
    FileHandle.standardError.write(
      Data(
        "usage: rewind-testbed fixtures DIR | crash LOG | record LOG POLICY N | record-big LOG N | dispatch-from-reducer | clock-journal LOG | folder DIR N HOW | live LOG N PAUSE_MS [QUEUE] | signal LOG HOW [CHAIN] | runaway LOG HOW | replay ARGS… | peak REPORT ARGS…\n"
          .utf8))
    exit(2)
  }
} catch {
  FileHandle.standardError.write(Data("rewind-testbed: \(error)\n".utf8))
  exit(1)
}
