import RewindReplay

/// The command-line grammar of `replay`: the root form `replay LOG` and the subcommands.
enum ReplayProgram {
  static let recovery = OptionSpec.option(
    "recovery", valueName: "MODE",
    kind: .choice(RecoveryMode.allCases.map(\.rawValue)), defaultValue: "tail",
    help: "What to do with faulty lines: drop a bad last line (tail), fail on any (strict), "
      + "stop at the first (prefix), or skip them (salvage).")
  static let json = OptionSpec.flag("json", help: "Print JSON that jq can read.")
  /// `--overwrite` of the commands that write a file: replace a file that is a Rewind log.
  static let overwrite = OptionSpec.flag(
    "overwrite",
    help: "Replace the output file even when it is a Rewind log (never the log being read).")
  static let log = ArgumentSpec("LOG", help: "A Rewind log (.jsonl).")
  static let isolate = OptionSpec.flag(
    "isolate",
    help: "Run the app's reducer in a child process (the default of the replay binary), so a "
      + "reducer that traps (the crash the log recorded) is reported and replay goes on.")
  static let noIsolate = OptionSpec.flag(
    "no-isolate",
    help: "Run the app's reducer in this process (to debug replay itself, or where a child "
      + "process cannot start); a reducer that traps then ends replay.")
  /// The options that choose where the app's reducer runs.
  static let isolation = [isolate, noIsolate]

  static let session = CommandSpec(
    name: "",
    abstract: "Open an interactive session on a log.",
    discussion: "Reads commands from standard input when it is not a terminal. Type 'help' in "
      + "the session for its commands: next, back, goto, print, action, list, info, find, quit.",
    arguments: [log],
    options: [
      .option(
        "command", short: "c", valueName: "CMD", isRepeatable: true,
        help: "Run this session command, print its output, and exit."),
      .flag(
        "json",
        help: "Print each command's result, or its error, as one line of JSON, with no banner "
          + "and no echo of the commands: for scripts and tools. Without -c, reads the commands "
          + "from standard input, one per line."),
      recovery,
    ] + isolation,
    examples: [
      .init("replay Fixtures/todo-crash.jsonl", "step through a crash log"),
      .init("replay Fixtures/todo-session.jsonl -c 'goto 12' -c 'print todos.count'"),
      .init(
        "replay Fixtures/todo-session.jsonl --json -c 'watch todos.count' -c continue | jq -c .",
        "the same session as JSON lines"),
    ])

  static let info = CommandSpec(
    name: "info",
    abstract: "Describe a log: app, types, actions, checkpoints, how it ended, bad lines.",
    discussion: "For a cut-off log of an app this binary knows, replays the last action in a "
      + "worker process and says whether the reducer crashes there ('crashed at'); "
      + "--no-isolate leaves that out.",
    arguments: [log], options: [json, recovery] + isolation,
    examples: [.init("replay info Fixtures/todo-crash.jsonl --json | jq .cleanEnd")])

  static let actions = CommandSpec(
    name: "actions",
    abstract: "List the recorded actions.",
    arguments: [log],
    options: [
      .option("from", valueName: "N", kind: .integer(), help: "First seq to list."),
      .option("to", valueName: "M", kind: .integer(), help: "Last seq to list."),
      .option("type", valueName: "NAME", help: "Only actions of this type (enum case name)."),
      json, recovery,
    ],
    examples: [
      .init("replay actions Fixtures/todo-session.jsonl --type move"),
      .init("replay actions Fixtures/todo-session.jsonl --from 10 --to 20 --json"),
    ])

  static let state = CommandSpec(
    name: "state",
    abstract: "Print the state at a position (default: the last).",
    arguments: [log],
    options: [
      .option(
        "at", valueName: "N|first|last",
        help: "Position: 0 is the initial state, N the state "
          + "after action N; 'first' or 'last'."),
      .option(
        "path", valueName: "PATH",
        help: "Only this part of the state: todos[2].title, "
          + "filter, todos.count."),
      json, recovery,
    ] + isolation,
    examples: [
      .init("replay state Fixtures/todo-session.jsonl --at 12 --path todos.count"),
      .init("replay state Fixtures/counter.jsonl --json"),
    ])

  static let diff = CommandSpec(
    name: "diff",
    abstract: "Compare two sessions of one app: where they diverge, what each has alone, and "
      + "how their states differ.",
    discussion: "Exit status: 0 when the logs are equivalent (same actions, same final state), "
      + "1 when they differ, 2 on trouble. Works without the app's reducer too (actions only).",
    arguments: [
      ArgumentSpec("A", help: "The first log."), ArgumentSpec("B", help: "The second log."),
    ],
    options: [json, recovery] + isolation,
    examples: [
      .init("replay diff Fixtures/todo-session.jsonl Fixtures/todo-session-b.jsonl"),
      .init("replay diff A.jsonl B.jsonl --json | jq .firstDivergence"),
    ])

  static let verify = CommandSpec(
    name: "verify",
    abstract: "Re-run a log through the current reducer and compare with every checkpoint.",
    discussion: "Exit status: 0 when every checkpoint is reproduced, 1 at the first divergence "
      + "(with the state diff and the range of actions that contains the first difference) or "
      + "when actions no longer decode, 2 on trouble.",
    arguments: [log],
    options: [json, recovery] + isolation,
    examples: [.init("replay verify Fixtures/todo-session.jsonl")])

  static let compat = CommandSpec(
    name: "compat",
    abstract: "Check which recorded actions and states still decode with today's types, without "
      + "running the reducer.",
    discussion: "Decodes every action line and every state (header, checkpoints) of each log, "
      + "through the app's schema migrations unless --no-migrations, and reports per action type "
      + "how many lines fail, the first seq, the coding path and the reason. A folder checks "
      + "every log in it. Exit status: 0 when everything decodes, 1 when something does not, 2 "
      + "when a log cannot be opened or its app is unknown to this binary.",
    arguments: [
      ArgumentSpec("LOG", help: "Rewind logs (.jsonl), or folders of them.", isRepeatable: true)
    ],
    options: [
      json, recovery,
      .flag(
        "no-migrations",
        help: "Decode the lines as they were recorded, to see what the migrations are for."),
    ],
    examples: [
      .init("replay compat Fixtures/todo-v1.jsonl"),
      .init("replay compat Fixtures/todo-v1.jsonl --no-migrations --json"),
    ])

  static let triage = CommandSpec(
    name: "triage",
    abstract: "Replay many logs crash-safe and group them by what happened: which crash, stopped "
      + "elsewhere, clean, unreadable, unknown app.",
    discussion: "Takes log files, folders (searched recursively for .jsonl files; the rotated "
      + "files of one recorded session are joined) and globs. Each log is replayed from its "
      + "initial state by worker processes, one per core, each serving log after log; a log "
      + "that crashes the reducer, hangs past --time-limit or grows past --memory-limit ends "
      + "only its worker. Crashes are grouped by the action type, the runtime's message and the "
      + "innermost app frame. Per bucket: the count, first and last recording date, builds and "
      + "the log with the fewest actions; --shrink writes a shrunk reproduction beside it. "
      + "--records writes one JSON line per log (docs/triage.md). Exit status: 0 when every log "
      + "is clean or stopped elsewhere, 1 when one crashes, is unreadable or of an unknown app, "
      + "2 when no log was found or an output cannot be written.",
    arguments: [
      ArgumentSpec(
        "PATH", help: "Log files, folders of logs, or globs ('logs/*.jsonl').", isRepeatable: true)
    ],
    options: [
      json,
      .option(
        "records", valueName: "FILE|-",
        help: "Write one JSON line per log to FILE (- for standard output, instead of the table)."),
      .flag(
        "shrink",
        help: "Shrink each crash bucket's log to the fewest actions that still crash on the same "
          + "action type, written beside it as NAME.shrunk.jsonl."),
      .option(
        "jobs", valueName: "N", kind: .integer(minimum: 1),
        help: "Worker processes at once (default: the number of cores)."),
      .option(
        "time-limit", valueName: "SECONDS", kind: .integer(minimum: 1), defaultValue: "60",
        help: "The longest one log may take; past it, the log is unreadable (time limit)."),
      .option(
        "memory-limit", valueName: "MB", kind: .integer(minimum: 64), defaultValue: "2048",
        help: "The most memory a worker may hold for one log; past it, the log is unreadable "
          + "(memory limit)."),
      recovery,
    ],
    examples: [
      .init("replay triage ~/Downloads/crash-logs", "every .jsonl log under the folder"),
      .init("replay triage 'logs/*.jsonl' --records records.jsonl", "and one JSON line per log"),
      .init("replay triage Fixtures --shrink", "with a shrunk reproduction of each crash"),
    ])

  static let shrink = CommandSpec(
    name: "shrink",
    abstract: "Find a small subsequence of a log's actions that still reaches a condition, and "
      + "write it as a new log.",
    discussion: "Delta debugging (ddmin) over the recorded actions, each candidate replayed in a "
      + "child process so a trapping reducer is survived. COND is 'crash' (the reducer traps), "
      + "'type=NAME' (it traps in an action of that type), or 'PATH OP VALUE' (holds for the "
      + "final state). The result is a valid log: fresh header, continuous seqs, no checkpoints.",
    arguments: [log],
    options: [
      .option("until", valueName: "COND", defaultValue: "crash", help: "The condition to keep."),
      .option(
        "output", short: "o", valueName: "OUT",
        help: "Where to write the shrunk log "
          + "(default: LOG with .shrunk.jsonl)."),
      .option(
        "max-replays", valueName: "N", kind: .integer(minimum: 1), defaultValue: "2000",
        help: "The most replays to try."),
      overwrite,
      recovery,
    ],
    examples: [
      .init("replay shrink Fixtures/todo-crash.jsonl --until crash -o /tmp/min.jsonl"),
      .init("replay shrink Fixtures/todo-session.jsonl --until 'todos.count >= 10'"),
    ])

  static let genTest = CommandSpec(
    name: "gen-test",
    abstract: "Print a Swift Testing test that replays a stretch of the log with the app's types.",
    discussion: "The test builds a Store from the state at position N, dispatches the actions "
      + "N+1…M, and asserts the final state: values as Swift literals, or decoded from JSON with "
      + "the app's Codable when they hold a struct (whose memberwise initialiser is internal to "
      + "the app's module). "
      + "When M is the action a cut-off log stopped at and it crashes, the test expects the "
      + "crash (an exit test). Paste it into your test target.",
    arguments: [log],
    options: [
      .option(
        "from", valueName: "N", kind: .integer(minimum: 0),
        help: "Start from the state at N (default: the initial state)."),
      .option(
        "to", valueName: "M", kind: .integer(minimum: 0),
        help: "Replay up to action M (default: the last)."),
      .option("name", valueName: "NAME", help: "The test function's name."),
      .option(
        "reducer", valueName: "EXPR", help: "The reducer expression (default: <app>Reducer)."),
      recovery,
    ] + isolation,
    examples: [.init("replay gen-test Fixtures/counter.jsonl --name counterSessionReplays")])

  static let history = CommandSpec(
    name: "history",
    abstract: "List every action that changed the value at a path, with before and after.",
    discussion: "One pass over the log, oldest first: each action that changed the value at PATH "
      + "or anything under it, and the diff under PATH. An identity step follows an array "
      + "element wherever it moves: todos[id=42].title is the title of the todo whose id is 42. "
      + "A crash of the app's reducer ends the history at the last good state (exit status 3).",
    arguments: [log, ArgumentSpec("PATH", help: "The value's path: filter, todos[id=3].title.")],
    options: [
      .option(
        "from", valueName: "N|first|last", help: "Start at position N (default: the first)."),
      .option("to", valueName: "M|first|last", help: "End at position M (default: the last)."),
      .option(
        "limit", valueName: "K", kind: .integer(minimum: 1),
        help: "Stop after K changes."),
      json, recovery,
    ] + isolation,
    examples: [
      .init("replay history Fixtures/todo-session.jsonl filter"),
      .init("replay history Fixtures/todo-session.jsonl 'todos[id=3].title' --json"),
    ])

  static let profile = CommandSpec(
    name: "profile",
    abstract: "Time what each action costs the app's reducer, per action type, slowest first.",
    discussion: "Replays the log from its initial state --repeat times, timing only each "
      + "reducer call and keeping each action's least time, and reports per action type the "
      + "count, total, median (p50), p99 and longest, then the slowest actions. An action the "
      + "reducer crashes on is not timed (the profile stops before it); without a worker "
      + "process, neither is the last action of a cut-off log. --compare reads a report saved "
      + "with --json from another build and flags each type whose median is at least 1.25 "
      + "times the baseline's and 1 µs longer. Exit status: 0, or 1 when --compare found a "
      + "type slower, 2 on trouble (an unreadable baseline too), 3 when the reducer crashed on "
      + "an action.",
    arguments: [log],
    options: [
      .option(
        "repeat", valueName: "N", kind: .integer(minimum: 1), defaultValue: "3",
        help: "Replay the log N times; each action's time is the least of them."),
      .option(
        "top", valueName: "K", kind: .integer(minimum: 0), defaultValue: "10",
        help: "List the K slowest actions."),
      .option("type", valueName: "NAME", help: "Only actions of this type."),
      .option(
        "compare", valueName: "BASELINE", help: "Compare with a report saved with --json."),
      json, recovery,
    ] + isolation,
    examples: [
      .init("replay profile Fixtures/todo-session.jsonl"),
      .init(
        "replay profile LOG --json > base.json", "then, from another build: --compare base.json"),
    ])

  static let importCommand = CommandSpec(
    name: "import",
    abstract: "Turn a Redux DevTools file into a Rewind log.",
    discussion: "Reads what the extension's Export button writes for a Redux app (the actions, "
      + "and preloadedState when the app had one) or a lifted state (from 'replay export', a "
      + "monitor or @redux-devtools/remote), decoding jsan references, and writes a log for app "
      + "NAME. A lifted state's states become checkpoints every 100 actions, so 'replay verify' "
      + "checks that this app's reducer computes them; its timestamps become the log's times. "
      + "What a Rewind log cannot hold (an action's meta, NaN, a function) is an error naming "
      + "where it is, unless --lenient (docs/interop.md).",
    arguments: [ArgumentSpec("FILE", help: "A Redux DevTools file (.json).")],
    options: [
      .option("app", valueName: "NAME", help: "The app whose reducer replays the log."),
      .option("output", short: "o", valueName: "LOG", help: "The log to write."),
      .option(
        "initial-state", valueName: "FILE",
        help: "The state before the first action, as JSON (instead of the file's, or the app's "
          + "default)."),
      .flag(
        "lenient",
        help: "Drop or replace what a Rewind log cannot hold, with a warning for each."),
      overwrite,
    ],
    examples: [
      .init("replay import /tmp/todo.json --app todo -o /tmp/todo.jsonl"),
      .init(
        "replay import Fixtures/redux-devtools/actions-export.json --app todo -o /tmp/todo.jsonl"),
    ])

  static let tail = CommandSpec(
    name: "tail",
    abstract: "Print the last actions of a log; with -f, follow it while an app records it.",
    discussion: "Like tail -f: prints each new action as it is appended, optionally with the "
      + "state diff it caused (--diff) or only actions of a type (--type) or that change a "
      + "path (--path). A line still being written is waited for, never reported as corrupt; a "
      + "rotated or truncated file is read again from its start. Stops at the end record of a "
      + "closed recording, on Ctrl-C, or after --timeout seconds without new lines.",
    arguments: [log],
    options: [
      .flag("follow", short: "f", help: "Keep reading as the log grows."),
      .flag("diff", help: "Show what each action changed (needs the app's reducer)."),
      .option("type", valueName: "NAME", help: "Only actions of this type."),
      .option("path", valueName: "PATH", help: "Only actions that change the value at PATH."),
      .option(
        "lines", short: "n", valueName: "N", kind: .integer(minimum: 0),
        help: "How many existing actions to show first (default 10)."),
      .option(
        "timeout", valueName: "SECONDS", kind: .integer(minimum: 1),
        help: "Stop after this long without new lines."),
    ] + isolation,
    examples: [
      .init("replay tail -f /tmp/session.jsonl --diff"),
      .init("replay tail -f /tmp/session.jsonl --path todos.count"),
    ])

  static let tui = CommandSpec(
    name: "tui",
    abstract: "Open the full-screen debugger on a log: actions, state tree, diff, timeline.",
    discussion: "Needs a terminal. Keys: ←/→ step, g goto, / find, w watch, c/C continue, "
      + "d diff, : any session command, ? help, q quit. With --listen, instead of LOG: waits for "
      + "a running app as 'replay listen' does and shows its actions as they arrive (the cursor "
      + "follows the end unless moved; watchpoints and breakpoints stop the view, not the app); "
      + "with several apps connected, a / A switch between them, and ':dispatch ACTION' sends an "
      + "action into an app that accepts them.",
    arguments: [
      ArgumentSpec("LOG", help: "A Rewind log (.jsonl); not with --listen.", isOptional: true)
    ],
    options: [
      .flag("listen", help: "Watch a running app instead of a log (options as replay listen).")
    ] + liveOptions + [recovery] + isolation,
    examples: [
      .init("replay tui Fixtures/todo-session.jsonl"),
      .init("replay tui Fixtures/todo-crash.jsonl", "land on the recorded crash"),
      .init("replay tui --listen", "a running app, on /tmp/rewind-$USER.sock (docs/live.md)"),
    ])

  static let dap = CommandSpec(
    name: "dap",
    abstract: "Serve the Debug Adapter Protocol, for an editor's debugger (docs/editors.md).",
    discussion: "Speaks DAP on standard input and output; the editor's launch configuration names "
      + "the log (\"log\": \"session.jsonl\"). Step back, reverse continue, data breakpoints on "
      + "state paths, function breakpoints on action types, the reducer's crash as an exception.",
    options: [
      .option(
        "port", valueName: "N", kind: .integer(minimum: 0),
        help: "Listen on 127.0.0.1:N (0: any free port) for one client at a time instead.")
    ] + isolation,
    examples: [
      .init("replay dap", "the adapter an editor starts"),
      .init("replay dap --port 4711", "for a client that attaches to a port"),
    ])

  static let mcp = CommandSpec(
    name: "mcp",
    abstract: "Serve the Model Context Protocol on stdio, for a coding agent (docs/editors.md).",
    discussion: "Read-only tools over one log, or every .jsonl log under a folder: logs, info, "
      + "actions, action, state (a level at a time), diff, history, search, crash, verify, "
      + "where, profile; the logs as resources. Speaks MCP 2026-07-28 and, through "
      + "initialize, 2025-11-25 and earlier. The app's reducer runs in a worker process, so a "
      + "crash is a report, not the server's end.",
    arguments: [ArgumentSpec("LOG", help: "A log file, or a folder of logs.")],
    options: [recovery] + isolation,
    examples: [
      .init("replay mcp Fixtures/todo-crash.jsonl", "what an agent's MCP client starts"),
      .init("replay mcp ~/Library/Logs/MyApp/Recordings", "every log under a folder"),
    ])

  /// The options of `replay listen` and `replay tui --listen`: where to listen, the token,
  /// `--save`, the line limit and how long to wait for an app.
  static let liveOptions: [OptionSpec] = [
    .option(
      "socket", valueName: "PATH",
      help: "Listen on this Unix-domain socket (default /tmp/rewind-$USER.sock)."),
    .option(
      "port", valueName: "N", kind: .integer(minimum: 0),
      help: "Listen on TCP port N instead (0: any free port)."),
    .option(
      "host", valueName: "HOST",
      help: "With --port: the address to listen on (default 127.0.0.1, loopback only)."),
    .option(
      "token", valueName: "TOKEN",
      help: "The token apps must present (default: REWIND_LIVE_TOKEN, else a new random one)."),
    .option("save", valueName: "FILE", help: "Save the first app's session to FILE (a new log)."),
    .option(
      "max-line", valueName: "BYTES", kind: .integer(minimum: 4096),
      help: "The longest line accepted (default 67108864); a longer one is refused."),
    .option(
      "timeout", valueName: "SECONDS", kind: .integer(minimum: 1),
      help: "Give up when no app has connected after this long."),
  ]

  static let listen = CommandSpec(
    name: "listen",
    abstract: "Watch a running app: wait for its recorder to connect and open a live session.",
    discussion: "The app's recorder connects out (RecordingOptions.liveViewer, or REWIND_LIVE and "
      + "REWIND_LIVE_TOKEN in its environment) and streams its log; each app's session is saved "
      + "as a log and the session opens on the first one. Before each command, the actions "
      + "that arrived are read (the cursor follows the end unless moved; watchpoints and "
      + "breakpoints stop the view there); 'wait [N]' waits for N more, 'apps' lists the apps "
      + "connected and 'app N' switches. Listens on loopback unless --host says otherwise; every "
      + "connection must present the token printed (docs/live.md).",
    options: liveOptions + [
      .option(
        "command", short: "c", valueName: "CMD", isRepeatable: true,
        help:
          "Run this session command once an app connected (wait N waits for actions), then exit."),
      .flag("json", help: "Print each command's result as one line of JSON."),
      recovery,
    ] + isolation,
    examples: [
      .init("replay listen", "on /tmp/rewind-$USER.sock, for a simulator's app"),
      .init("replay listen --port 9091 --save live.jsonl", "TCP on loopback, saving the session"),
      .init("replay listen -c 'wait 10' -c 'print todos.count'", "a script over a live app"),
    ])

  static let program = ProgramSpec(
    name: "replay",
    abstract: "Rebuild every state of a recorded Rewind session and travel through them.",
    rootCommand: session,
    commands: [
      info, actions, state, history, diff, verify, compat, triage, profile, shrink, genTest, export,
      importCommand, tail, tui, dap, mcp, listen,
    ],
    examples: [
      .init("replay Fixtures/todo-crash.jsonl"),
      .init("replay info Fixtures/todo-session.jsonl"),
    ])
}
