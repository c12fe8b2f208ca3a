/// The fatal signal an app died of, as its recorder wrote it in a `signal` record
/// (``Rewind/RecordingOptions/recordsFatalSignals``): which signal, during which action, and the
/// faulting address when the signal came from a faulting instruction.
public struct RecordedSignal: Sendable, Equatable {
  /// The seq of the action being applied when the signal came (its line is the last action line
  /// the recorder wrote before it).
  public var seq: Int
  /// The signal's name: `SIGILL`, `SIGTRAP`, `SIGABRT`, `SIGSEGV`, `SIGBUS`, `SIGFPE`.
  public var signal: String
  /// The faulting address, as the recorder wrote it (`0x…`), or `nil` for a signal that a
  /// process sent (`abort()`, `kill`).
  public var address: String?
  /// The record's line in the log.
  public var line: Int

  /// Creates a recorded signal.
  public init(seq: Int, signal: String, address: String?, line: Int) {
    self.seq = seq
    self.signal = signal
    self.address = address
    self.line = line
  }
}
