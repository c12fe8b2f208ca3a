#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Musl)
  @preconcurrency import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The signals a crashing program dies of, and a handler for them that passes each one on to the
/// handler installed before it (the Swift runtime's backtracer, a crash-reporting SDK) or to the
/// default action, so the process still dies of the signal, with the report the earlier handler
/// writes.
extension Platform {
  /// The signals by which a program dies of a bug: traps (`SIGILL`, `SIGTRAP` — Swift's runtime
  /// checks), `SIGABRT`, `SIGSEGV`, `SIGBUS`, `SIGFPE`.
  package static let fatalSignals: [Int32] = [SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE]

  /// Signal numbers below this have a slot for the action that was installed before ours.
  private static let actionSlots = 64

  /// The actions installed before ``installFatalSignalHandler(_:)``, by signal number. Written
  /// before the handlers are installed, read only by the handlers: no concurrent write.
  nonisolated(unsafe) private static let previousActions: UnsafeMutablePointer<sigaction> = {
    let actions = UnsafeMutablePointer<sigaction>.allocate(capacity: actionSlots)
    actions.initialize(repeating: sigaction(), count: actionSlots)
    return actions
  }()

  /// The size of the alternate signal stack, enough for the handler after a stack overflow.
  private static let alternateStackSize = 64 << 10

  /// Installs `handler` for every signal of ``fatalSignals``, on an alternate stack for the
  /// calling thread (so that it runs after a stack overflow too), keeping the action each signal
  /// had before for ``passToPreviousHandler(_:sentByProcess:)``.
  ///
  /// `handler` gets the signal number and whether a process sent it (`kill`, `raise`, `abort`)
  /// rather than the CPU raising it at a faulting instruction. It must be async-signal-safe: no
  /// allocation, no lock. It usually ends with ``passToPreviousHandler(_:sentByProcess:)``.
  package static func installFatalSignalHandler(
    _ handler: @convention(c) (Int32, Bool) -> Void
  ) {
    installAlternateStack()
    fatalHandler = handler
    for number in fatalSignals where number < actionSlots {
      var action = sigaction()
      #if canImport(Darwin)
        action.__sigaction_u.__sa_sigaction = dispatchFatalSignal
      #else
        action.__sigaction_handler.sa_sigaction = dispatchFatalSignal
      #endif
      action.sa_flags = SA_SIGINFO | SA_ONSTACK
      sigemptyset(&action.sa_mask)
      _ = sigaction(number, &action, previousActions + Int(number))
    }
  }

  /// The handler given to ``installFatalSignalHandler(_:)``. Set before the handlers are
  /// installed; read only by them.
  nonisolated(unsafe) private static var fatalHandler: (@convention(c) (Int32, Bool) -> Void)?

  /// What the kernel calls: works out who sent the signal and calls ``fatalHandler``.
  private static let dispatchFatalSignal:
    @convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?) -> Void = {
      number, info, _ in
      let code = info?.pointee.si_code ?? 0
      #if canImport(Darwin)
        // Darwin's SI_USER and SI_QUEUE are 0x10001 and 0x10002; faults are small positive codes.
        let sentByProcess = code >= 0x10000
      #else
        // Linux: SI_USER is 0 and SI_TKILL, SI_QUEUE, … are negative; faults are positive.
        let sentByProcess = code <= 0
      #endif
      Platform.fatalHandler?(number, sentByProcess)
    }

  /// From a fatal-signal handler: puts back the action the signal had before ours and lets it
  /// run — at once for a signal a process sent (raised again, delivered when the handler
  /// returns), or, for a fault, when the handler returns and the faulting instruction runs again.
  /// Either way the earlier handler sees the crash as if ours had not been there, and the
  /// process dies of the signal as it would have. Async-signal-safe.
  package static func passToPreviousHandler(_ number: Int32, sentByProcess: Bool) {
    guard number >= 0, number < actionSlots else { return }
    _ = sigaction(number, previousActions + Int(number), nil)
    if sentByProcess { _ = raise(number) }
  }

  /// Gives the calling thread an alternate signal stack, unless it has one.
  private static func installAlternateStack() {
    var current = stack_t()
    guard sigaltstack(nil, &current) == 0, current.ss_flags & Int32(SS_DISABLE) != 0 else { return }
    guard let memory = malloc(alternateStackSize) else { return }
    var stack = stack_t()
    stack.ss_sp = memory
    stack.ss_size = alternateStackSize
    stack.ss_flags = 0
    if sigaltstack(&stack, nil) != 0 { free(memory) }
  }

  /// From a signal handler: restores the default action for `number` and raises it again, so the
  /// process dies of it as it would have. Async-signal-safe.
  package static func dieOfSignal(_ number: Int32) {
    #if canImport(Glibc)
      _ = Glibc.signal(number, SIG_DFL)
    #elseif canImport(Musl)
      _ = Musl.signal(number, SIG_DFL)
    #else
      _ = Darwin.signal(number, SIG_DFL)
    #endif
    _ = raise(number)
  }
}
