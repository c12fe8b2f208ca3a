import RewindJSON

/// What is known about an action that made the app's reducer stop the process (a Swift runtime
/// trap, a `fatalError`, a bad access): the action, the signal, the runtime's message, and the
/// reducer's own frames from a backtrace.
///
/// A replay that isolates the reducer in a child process (the default of `replay`) gets one when
/// the child dies; every front end shows it, and `--json` writes ``json``.
public struct CrashReport: Sendable, Equatable, Codable {
  /// The seq of the action being applied when the process died, when known.
  public var seq: Int?
  /// The action's type (its enum case name), when known.
  public var type: String?
  /// The action's line in the log, when known.
  public var line: Int?
  /// The signal the process died of: `SIGILL`, `SIGTRAP`, `SIGSEGV`, … (or `exit status N`).
  public var signal: String
  /// The Swift runtime's message, like `Index out of range` or a `precondition`'s text; `nil`
  /// when it printed none (a release build's `precondition`, a bad access).
  public var message: String?
  /// Where the runtime says the check failed, like `Swift/Array.swift:1350`.
  public var messageLocation: String?
  /// The app's own frames, innermost first: the reducer's code, without Swift's runtime and
  /// Rewind's replay machinery.
  public var frames: [Frame]
  /// How many frames of the runtime and of Rewind were left out of ``frames``.
  public var foldedFrames: Int

  /// One function on the crashed thread's stack.
  public struct Frame: Sendable, Equatable, Codable {
    /// The demangled function, like `closure #1 in variable initialization expression of todoReducer`.
    public var function: String
    /// The source file, when the binary has debug information.
    public var file: String?
    /// The line in ``file``.
    public var line: Int?

    /// Creates a frame.
    public init(function: String, file: String? = nil, line: Int? = nil) {
      self.function = function
      self.file = file
      self.line = line
    }
  }

  /// Creates a report.
  public init(
    seq: Int?, type: String?, line: Int?, signal: String, message: String? = nil,
    messageLocation: String? = nil, frames: [Frame] = [], foldedFrames: Int = 0
  ) {
    self.seq = seq
    self.type = type
    self.line = line
    self.signal = signal
    self.message = message
    self.messageLocation = messageLocation
    self.frames = frames
    self.foldedFrames = foldedFrames
  }

  /// The last position whose state can be rebuilt: the one before the crashing action.
  public var lastGood: Int? { seq.map { $0 - 1 } }

  /// The report as JSON: `{seq, type, line, signal, message, messageLocation, frames: [{function,
  /// file, line}], foldedFrames}`, with `null` for what is unknown.
  public var json: JSONValue {
    func number(_ value: Int?) -> JSONValue { value.map { .number(String($0)) } ?? .null }
    func string(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }
    return .object([
      JSONMember("seq", number(seq)),
      JSONMember("type", string(type)),
      JSONMember("line", number(line)),
      JSONMember("signal", .string(signal)),
      JSONMember("message", string(message)),
      JSONMember("messageLocation", string(messageLocation)),
      JSONMember(
        "frames",
        .array(
          frames.map {
            JSONValue.object([
              JSONMember("function", .string($0.function)),
              JSONMember("file", string($0.file)),
              JSONMember("line", number($0.line)),
            ])
          })),
      JSONMember("foldedFrames", number(foldedFrames)),
    ])
  }
}
