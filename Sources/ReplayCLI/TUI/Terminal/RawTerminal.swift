import Rewind
import RewindReplayService

/// The controlling terminal in raw mode: keys in, bytes out, resizes noticed.
///
/// Standard input is put in raw mode by ``open(fullScreen:)`` and put back by ``close()`` —
/// and, on `SIGINT` and `SIGTERM`, by the signal handlers of
/// ``Platform/installTerminalSignalHandlers()``; a crash is covered when the fatal-signal handler
/// calls ``Platform/restoreTerminal()``. Only one `RawTerminal` may be open at a time.
final class RawTerminal {
  /// What woke the reader up.
  enum Event: Equatable {
    /// A key was pressed.
    case key(TerminalKey)
    /// The window changed size.
    case resize
    /// Standard input ended (the terminal went away).
    case endOfInput
  }

  /// Escape sequences that switch to the alternate screen, hide the cursor and clear.
  static let enterFullScreen = Array("\u{1B}[?1049h\u{1B}[?25l\u{1B}[H\u{1B}[J".utf8)
  /// Escape sequences that undo ``enterFullScreen``: plain attributes, cursor shown, normal
  /// screen back.
  static let leaveFullScreen = Array("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l".utf8)

  /// How long to wait for the rest of an escape sequence before taking Escape alone.
  private static let escapeTimeoutMilliseconds: Int32 = 30

  /// Standard input, where keys come from.
  private let inputFD: Int32 = 0
  /// Standard output, where the screen goes.
  private let outputFD: Int32 = 1
  /// The read end of the signal self-pipe, or -1.
  private let signalFD: Int32
  /// Whether the alternate screen is in use.
  private let isFullScreen: Bool
  /// Decodes the bytes read into keys.
  private var decoder = KeyDecoder()
  /// Whether ``close()`` has yet to run.
  private var isOpen = true

  /// A terminal already put in raw mode by ``open(fullScreen:)``.
  private init(signalFD: Int32, isFullScreen: Bool) {
    self.signalFD = signalFD
    self.isFullScreen = isFullScreen
  }

  /// Puts the terminal in raw mode and installs the signal handlers; with `fullScreen`, also
  /// switches to the alternate screen. Returns `nil` when standard input or output is not a
  /// terminal.
  static func open(fullScreen: Bool) -> RawTerminal? {
    guard Platform.isTerminal(0), Platform.isTerminal(1) else { return nil }
    let restore = fullScreen ? leaveFullScreen : []
    guard Platform.enterRawMode(0, keepsOutputProcessing: !fullScreen, restoreBytes: restore)
    else { return nil }
    let signalFD = Platform.installTerminalSignalHandlers()
    let terminal = RawTerminal(signalFD: signalFD, isFullScreen: fullScreen)
    if fullScreen { terminal.write(enterFullScreen) }
    return terminal
  }

  /// Restores the terminal's mode (and screen) and the default signal actions. Idempotent.
  func close() {
    guard isOpen else { return }
    isOpen = false
    Platform.restoreTerminal()
    Platform.removeTerminalSignalHandlers()
  }

  deinit { close() }

  /// The window's size, or 80×24 when it cannot be read.
  var size: (columns: Int, rows: Int) {
    Platform.windowSize(outputFD) ?? Platform.windowSize(inputFD) ?? (80, 24)
  }

  /// Writes bytes to standard output.
  func write(_ bytes: [UInt8]) {
    guard !bytes.isEmpty else { return }
    _ = bytes.withUnsafeBytes { Platform.writeAll(outputFD, $0) }
  }

  /// Writes text to standard output.
  func write(_ text: String) {
    write(Array(text.utf8))
  }

  /// Waits for keys or a resize, and returns everything that is ready: several keys when they
  /// came together (a paste, a held arrow key), so the caller redraws once for all of them.
  ///
  /// - Parameter timeoutMilliseconds: With a value of 0 or more, returns no events once that
  ///   long passed without any (a live view looks for new actions in between); -1 waits for
  ///   ever.
  func nextEvents(timeoutMilliseconds: Int32 = -1) -> [Event] {
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let timeout = decoder.hasPending ? Self.escapeTimeoutMilliseconds : timeoutMilliseconds
      let descriptors = signalFD >= 0 ? [inputFD, signalFD] : [inputFD]
      let ready = Platform.waitForInput(descriptors, timeoutMilliseconds: timeout)
      var events: [Event] = []
      if ready.count > 1, ready[1], Platform.takeSignals().contains(Platform.windowChangeSignal) {
        events.append(.resize)
      }
      if ready[0] {
        let count = buffer.withUnsafeMutableBytes { Platform.readAvailable(inputFD, into: $0) }
        if count <= 0 { return events + [.endOfInput] }
        decoder.feed(buffer[0..<count])
        events += decoder.keys().map(Event.key)
      } else if !ready.contains(true), decoder.hasPending {
        events += decoder.flushPending().map(Event.key)
      }
      if !events.isEmpty { return events }
      if timeoutMilliseconds >= 0, !ready.contains(true) { return [] }
    }
  }
}
