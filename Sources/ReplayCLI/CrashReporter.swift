import Rewind
import RewindReplay
import RewindReplayService

/// Leaves a readable last line on stderr when the app's reducer kills `replay` (a trap, an
/// abort, a bad access): the seq, type and line of the action being applied, prepared before
/// each step by the engine's `StepMarker` — no write per step. Then the signal goes on to the
/// handler installed before this one — the Swift runtime's backtracer, when it is enabled (a
/// replay worker enables it, for the crash report's frames) — and the process dies of it.
enum CrashReporter {
  /// Installs the fatal-signal handler.
  static func install() {
    Platform.addFatalSignalHandler { _, _ in
      Platform.restoreTerminal()
      let (pointer, length) = StepMarker.message
      if length > 0 { Platform.writeRaw(2, pointer, length) }
    }
  }
}
