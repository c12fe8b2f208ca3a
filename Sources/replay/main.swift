// The bundled `replay` binary: the replay tool registered with Rewind's example apps.
// A replay binary for your own app is the same few lines (docs/embedding.md).
import ReplayCLI
import Rewind
import RewindExamples
import RewindReplay

ReplayTool.main(apps: [
  ReplayApp(name: "counter", reducer: counterReducer, initialState: CounterState()),
  ReplayApp(
    name: "todo", reducer: todoReducer, initialState: TodoState(),
    build: BuildStamp(schema: todoSchema), migrations: todoMigrations),
  ReplayApp(name: "journal", reducer: journalReducer),
])
