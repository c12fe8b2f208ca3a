// The terminal half of Platform.swift: every C library call a full-screen or line-editing
// front end needs.
import Foundation  // and through it the C library (Glibc, Musl or Darwin)
import Rewind

// MARK: - Terminal: raw mode, window size, signals, polling
//
// Added for `replay tui` and the line editor of `replay LOG`. Everything a full-screen or
// line-editing front end needs from the C library, so no other file has to know `termios`.

extension Platform {
  /// The terminal state that ``restoreTerminal()`` puts back, kept where a signal handler can
  /// read it without allocating or locking.
  ///
  /// Written only by the main thread (``enterRawMode(_:keepsOutputProcessing:restoreBytes:)``,
  /// ``restoreTerminal()``) and read by signal handlers that interrupt that same thread, so
  /// there is no concurrent access to guard: `nonisolated(unsafe)` says so to the compiler.
  private enum RawModeStorage {
    /// Whether raw mode is on (1) or off (0), the terminal's descriptor, and how many restore
    /// bytes there are. A constant initializer, so the value is in the binary from the start: a
    /// fatal-signal handler may read it before any raw mode was entered without running any
    /// initializer. Each field is an aligned `Int32`, written with one store.
    nonisolated(unsafe) static var flags: (isActive: Int32, fd: Int32, restoreCount: Int32) = (
      0, -1, 0
    )
    /// The most restore bytes kept.
    static let restoreCapacity = 64
    /// The terminal mode before raw mode (read only while `flags.isActive` is 1, so after it
    /// was set up).
    nonisolated(unsafe) static let savedMode = UnsafeMutablePointer<termios>.allocate(capacity: 1)
    /// Escape sequences written before the mode is restored (read only while active).
    nonisolated(unsafe) static let restoreBytes = UnsafeMutablePointer<UInt8>.allocate(
      capacity: restoreCapacity)
  }

  /// The self-pipe that the `SIGWINCH` handler writes to, `(-1, -1)` before
  /// ``installTerminalSignalHandlers()``: set by the main thread before the handler is
  /// installed, only read by the handler; a constant initializer, like `RawModeStorage.flags`.
  nonisolated(unsafe) private static var signalPipe: (read: Int32, write: Int32) = (-1, -1)

  /// Puts the terminal on `fd` in raw mode: bytes arrive one by one, unechoed, and Ctrl-C,
  /// Ctrl-Z, Ctrl-S and Ctrl-Q arrive as bytes instead of acting.
  ///
  /// Saves the previous mode and `restoreBytes` (escape sequences that undo what the caller does
  /// to the screen, such as leaving the alternate screen) for ``restoreTerminal()``, which puts
  /// both back — also from a signal handler.
  /// - Parameters:
  ///   - fd: A terminal, usually 0 (standard input).
  ///   - keepsOutputProcessing: Keep output post-processing (a written line feed moves to the
  ///     start of the next line), for a line editor; a full-screen program turns it off.
  ///   - restoreBytes: Written by ``restoreTerminal()`` before the mode is restored; at most 64.
  /// - Returns: Whether raw mode is on: `false` when `fd` is not a terminal.
  package static func enterRawMode(
    _ fd: Int32, keepsOutputProcessing: Bool, restoreBytes: [UInt8] = []
  ) -> Bool {
    var mode = termios()
    guard tcgetattr(fd, &mode) == 0 else { return false }
    RawModeStorage.savedMode.pointee = mode
    let count = min(restoreBytes.count, RawModeStorage.restoreCapacity)
    for index in 0..<count { RawModeStorage.restoreBytes[index] = restoreBytes[index] }
    RawModeStorage.flags.fd = fd
    RawModeStorage.flags.restoreCount = Int32(count)
    var raw = mode
    raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
    if !keepsOutputProcessing { raw.c_oflag &= ~tcflag_t(OPOST) }
    raw.c_cflag |= tcflag_t(CS8)
    raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
    withUnsafeMutableBytes(of: &raw.c_cc) { bytes in
      bytes[Int(VMIN)] = 1
      bytes[Int(VTIME)] = 0
    }
    guard tcsetattr(fd, TCSANOW, &raw) == 0 else { return false }
    RawModeStorage.flags.isActive = 1
    return true
  }

  /// Undoes ``enterRawMode(_:keepsOutputProcessing:restoreBytes:)``: writes its restore bytes
  /// to standard output and puts the saved terminal mode back. Does nothing when raw mode is
  /// off, so calling it twice, or in a process that never entered raw mode, is harmless.
  ///
  /// Async-signal-safe (`write(2)` and `tcsetattr(3)` only): call it first in a fatal-signal
  /// handler so a crash leaves a usable terminal and its message on the normal screen.
  package static func restoreTerminal() {
    guard RawModeStorage.flags.isActive == 1 else { return }
    RawModeStorage.flags.isActive = 0
    let fd = RawModeStorage.flags.fd
    let count = Int(RawModeStorage.flags.restoreCount)
    if count > 0 { _ = write(1, RawModeStorage.restoreBytes, count) }
    _ = tcsetattr(fd, TCSANOW, RawModeStorage.savedMode)
  }

  /// The size of the terminal on `fd` in columns and rows, or `nil` when it is not a terminal
  /// (`ioctl(TIOCGWINSZ)`).
  package static func windowSize(_ fd: Int32) -> (columns: Int, rows: Int)? {
    var size = winsize()
    guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0 else { return nil }
    return (Int(size.ws_col), Int(size.ws_row))
  }

  /// `SIGWINCH`, the signal of a resized window, as ``takeSignals()`` reports it.
  package static let windowChangeSignal: Int32 = SIGWINCH

  /// Installs the handlers of an interactive terminal program and returns the descriptor to
  /// wait on for ``takeSignals()`` (or -1 when no pipe could be made; resizes then go unseen).
  ///
  /// - `SIGWINCH` writes its number to a self-pipe, so a program waiting in
  ///   ``waitForInput(_:timeoutMilliseconds:)`` wakes up and redraws.
  /// - `SIGINT` and `SIGTERM` call ``restoreTerminal()`` and let the process die of the signal,
  ///   as it would have without the handler — at once, even while a long rebuild runs.
  ///
  /// Call ``removeTerminalSignalHandlers()`` when done.
  package static func installTerminalSignalHandlers() -> Int32 {
    if signalPipe.read < 0 {
      var descriptors: [Int32] = [-1, -1]
      if pipe(&descriptors) == 0 {
        for fd in descriptors {
          _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
          _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        signalPipe = (descriptors[0], descriptors[1])
      }
    }
    setHandler(SIGWINCH) { number in
      let saved = Platform.errno
      var byte = UInt8(truncatingIfNeeded: number)
      let pipe = Platform.signalPipe.write
      if pipe >= 0 { _ = write(pipe, &byte, 1) }
      Platform.setErrno(saved)
    }
    for number in [SIGINT, SIGTERM] {
      setHandler(number) { number in
        Platform.restoreTerminal()
        Platform.dieOfSignal(number)
      }
    }
    return signalPipe.read
  }

  /// Puts back the default actions of `SIGWINCH`, `SIGINT` and `SIGTERM`.
  package static func removeTerminalSignalHandlers() {
    for number in [SIGWINCH, SIGINT, SIGTERM] { restoreDefaultAction(number) }
  }

  /// From a signal handler: restores the default action for `number` and raises it again, so the
  /// process dies of it as it would have. Async-signal-safe.
  package static func dieOfSignal(_ number: Int32) {
    restoreDefaultAction(number)
    _ = raise(number)
  }

  /// Sets the action of `number` back to `SIG_DFL`. Async-signal-safe.
  private static func restoreDefaultAction(_ number: Int32) {
    LibC.signal(number, nil)
  }

  /// The signals noted by the handlers since the last call (``windowChangeSignal`` for a
  /// resize), read from the self-pipe without waiting.
  package static func takeSignals() -> [Int32] {
    guard signalPipe.read >= 0 else { return [] }
    var signals: [Int32] = []
    var buffer = [UInt8](repeating: 0, count: 64)
    while true {
      let n = buffer.withUnsafeMutableBytes {
        LibC.read(signalPipe.read, $0.baseAddress, $0.count)
      }
      guard n > 0 else { break }
      signals += buffer[0..<n].map { Int32($0) }
    }
    return signals
  }

  /// Waits until one of `descriptors` can be read, or `timeoutMilliseconds` pass (-1: no
  /// limit). A signal ends the wait early.
  /// - Returns: For each descriptor, whether it can be read now (or is at its end or failed).
  package static func waitForInput(_ descriptors: [Int32], timeoutMilliseconds: Int32) -> [Bool] {
    var entries = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
    let n = poll(&entries, nfds_t(entries.count), timeoutMilliseconds)
    guard n > 0 else { return descriptors.map { _ in false } }
    return entries.map { $0.revents != 0 }
  }

  /// Reads whatever is available on `fd`, up to `buffer.count` bytes, retrying `EINTR`.
  /// - Returns: The count read, 0 at the end of input, or `-errno`.
  package static func readAvailable(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int
  {
    guard let base = buffer.baseAddress else { return 0 }
    while true {
      let n = LibC.read(fd, base, buffer.count)
      if n >= 0 { return n }
      if errno != EINTR { return -Int(errno) }
    }
  }

  /// Installs `handler` for one signal.
  private static func setHandler(_ number: Int32, _ handler: @convention(c) (Int32) -> Void) {
    LibC.signal(number, handler)
  }

  /// Sets `errno` (a signal handler must leave it as it found it).
  private static func setErrno(_ value: Int32) {
    LibC.errno = value
  }
}
