/// (11) `replay history LOG PATH` — every action that changed one value, in one pass over the
/// log — against a full rebuild of the same log in process (`replay verify LOG --no-isolate`:
/// every action decoded and reduced, every checkpoint compared); whole processes started the
/// same way. 11a follows a member of the root (`filter`); 11b an identity step into the todo
/// array (`todos[id=12].title`), which reads each element's `id` at every position. 11c searches
/// every state of the log for a text none has (`search -n`), the whole walk in the worker.
struct HistoryBench {
  let log: BenchLog
  let repetitions: Int

  func run() throws -> [Row] {
    let replay = ReplayCommand.prefix
    let rebuild = replay + ["verify", log.path, "--no-isolate"]
    let filter = replay + ["history", log.path, "filter"]
    let identity = replay + ["history", log.path, "todos[id=12].title"]
    let search = replay + [log.path, "-c", "search -n no-todo-has-this"]
    for command in [rebuild, filter, identity, search] {
      let check = BenchPlatform.run(command)
      // The search finds nothing, by design: a session command that fails exits with 2.
      guard check.status == (command == search ? 2 : 0) else {
        throw BenchError("\(command.joined(separator: " ")) failed: \(check.status)")
      }
    }
    let samples = try interleaved(
      repetitions,
      [
        { try OpenBench.seconds(filter) }, { try OpenBench.seconds(rebuild) },
        { try OpenBench.seconds(identity) }, { try OpenBench.seconds(search, expecting: 2) },
      ])
    let note =
      "\(grouped(log.actionCount)) actions, \(log.stateSize.rawValue) state; the history in the "
      + "worker process (the default), one request; \(ReplayCommand.description)"
    return [
      Row(
        id: "11a",
        title: "`replay history LOG filter` vs a full rebuild (`replay verify --no-isolate`)",
        subject: Figure(label: "history filter", unit: .seconds, sample: samples[0]),
        baseline: Figure(label: "verify --no-isolate", unit: .seconds, sample: samples[1]),
        target: .ratioAtMost(2), note: note),
      Row(
        id: "11b",
        title: "`replay history LOG 'todos[id=12].title'` vs a full rebuild",
        subject: Figure(label: "history todos[id=12].title", unit: .seconds, sample: samples[2]),
        baseline: Figure(label: "verify --no-isolate", unit: .seconds, sample: samples[1]),
        note: note + "; each todo's id read at every position"),
      Row(
        id: "11c",
        title: "state search across the whole log (`search -n TEXT`, no match) vs a full rebuild",
        subject: Figure(label: "search -n", unit: .seconds, sample: samples[3]),
        baseline: Figure(label: "verify --no-isolate", unit: .seconds, sample: samples[1]),
        target: .ratioAtMost(3),
        note: "\(grouped(log.actionCount)) actions, \(log.stateSize.rawValue) state; every state "
          + "encoded and its text scanned, in the worker, one request; "
          + "\(ReplayCommand.description)"),
    ]
  }
}
