import Foundation
import Rewind

/// `rewind-testbed signal LOG HOW [CHAIN]`: records the `traps` app with
/// ``RecordingOptions/recordsFatalSignals`` on, dispatches two `add`s, then dies `HOW`:
///
/// - `trap`: an `indexOutOfRange` action (a Swift runtime trap: `SIGILL` or `SIGTRAP`);
/// - `segv`: a write to address 8 from the reducer (`SIGSEGV`);
/// - `abort`: `abort()` from the reducer (`SIGABRT`);
/// - `kill`: `SIGKILL` to itself from the reducer (no handler runs, no line);
///
/// `CHAIN` adds crash reporters around the recorder's handler, each writing one line to stderr
/// when it runs: `before` installs one before recording starts (it must run after the recorder's
/// line is written: the signal goes on to it), `after` one after (it chains to the recorder's, as
/// crash-reporting SDKs do), `both` both.
enum SignalRecordChild {
  static func run(log path: String, how: String, chain: String) throws {
    if chain == "before" || chain == "both" { installReporter(before: true) }
    let store = Store(initialState: TrapState(), reducer: dyingReducer(how))
    let recorder = try store.startRecording(
      to: path, app: "traps",
      options: RecordingOptions(ifExists: .replace, recordsFatalSignals: true))
    if chain == "after" || chain == "both" { installReporter(before: false) }
    store.dispatch(.add)
    store.dispatch(.add)
    store.dispatch(how == "trap" ? .indexOutOfRange : .divideByZero)
    recorder.close()
  }

  /// The traps reducer, with `divideByZero` standing for the death `how` names.
  static func dyingReducer(_ how: String) -> Reducer<TrapState, TrapAction> {
    Reducer { state, action in
      guard action == .divideByZero else {
        trapReducer.reduce(&state, action)
        return
      }
      switch how {
      case "segv": UnsafeMutablePointer<Int>(bitPattern: 8)?.pointee = 1
      case "abort": abort()
      case "kill": kill(getpid(), SIGKILL)
      default: break
      }
    }
  }

  /// The actions the reporters found when they were installed, by signal: a reporter passes the
  /// signal on to them.
  nonisolated(unsafe) static var earlier: [Int32: sigaction] = [:]
  nonisolated(unsafe) static var later: [Int32: sigaction] = [:]

  /// Installs a crash reporter that writes `reporter before ran` or `reporter after ran` to stderr
  /// and passes the signal on to the action it replaced.
  static func installReporter(before: Bool) {
    for number in [SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS] {
      var action = sigaction()
      #if canImport(Darwin)
        action.__sigaction_u.__sa_sigaction = before ? reporterBefore : reporterAfter
      #else
        action.__sigaction_handler.sa_sigaction = before ? reporterBefore : reporterAfter
      #endif
      action.sa_flags = SA_SIGINFO
      sigemptyset(&action.sa_mask)
      var previous = sigaction()
      sigaction(number, &action, &previous)
      if before { earlier[number] = previous } else { later[number] = previous }
    }
  }

  static let reporterBefore:
    @convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?) -> Void = {
      number, info, context in
      report("reporter before ran\n", number, info, context, SignalRecordChild.earlier[number])
    }

  static let reporterAfter:
    @convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?) -> Void = {
      number, info, context in
      report("reporter after ran\n", number, info, context, SignalRecordChild.later[number])
    }

  /// Writes `text`, then calls the handler that was there before (a test process: the
  /// dictionaries were filled before any signal, and a lookup does not allocate).
  static func report(
    _ text: StaticString, _ number: Int32, _ info: UnsafeMutablePointer<siginfo_t>?,
    _ context: UnsafeMutableRawPointer?, _ previous: sigaction?
  ) {
    _ = write(2, text.utf8Start, text.utf8CodeUnitCount)
    guard var previous else { return }
    #if canImport(Darwin)
      let next = previous.__sigaction_u.__sa_sigaction
    #else
      let next = previous.__sigaction_handler.sa_sigaction
    #endif
    if previous.sa_flags & SA_SIGINFO != 0, let next {
      next(number, info, context)
    } else {
      sigaction(number, &previous, nil)
      if info.map({ $0.pointee.si_code <= 0 }) ?? true { raise(number) }
    }
  }
}
