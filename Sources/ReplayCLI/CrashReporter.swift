import Rewind
import RewindReplay

/// Leaves a readable last line on stderr when the app's reducer kills `replay` (a trap, an
/// abort, a bad access): the seq, type and line of the action being applied, prepared before
/// each step by the engine's `StepMarker` — no write per step.
enum CrashReporter {
  /// Installs the fatal-signal handlers.
  static func install() {
    Platform.installFatalSignalHandler { signal in
      Platform.restoreTerminal()
      let (pointer, length) = StepMarker.message
      if length > 0 { Platform.writeRaw(2, pointer, length) }
      Platform.dieOfSignal(signal)
    }
  }
}
