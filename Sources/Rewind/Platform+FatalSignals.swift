import Foundation  // and through it the C library (Glibc, Musl or Darwin)

/// The signals a crashing program dies of, and handlers for them that run and then pass each
/// signal on to the action it had before (the Swift runtime's backtracer, a crash-reporting SDK,
/// or the default action), so the process still dies of the signal, with the report the earlier
/// handler writes.
extension Platform {
  /// The signals by which a program dies of a bug: traps (`SIGILL`, `SIGTRAP` — Swift's runtime
  /// checks), `SIGABRT`, `SIGSEGV`, `SIGBUS`, `SIGFPE`.
  package static let fatalSignals: [Int32] = [SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE]

  /// The numbers of the fatal signals, by name.
  package enum SignalNumber {
    /// `SIGILL`: an illegal instruction (Swift's traps on x86-64).
    package static let illegalInstruction = SIGILL
    /// `SIGTRAP`: a breakpoint trap (Swift's traps on arm64).
    package static let trap = SIGTRAP
    /// `SIGABRT`: `abort()`.
    package static let abort = SIGABRT
    /// `SIGSEGV`: a bad memory access, or a stack overflow.
    package static let segmentationFault = SIGSEGV
    /// `SIGBUS`: a misaligned or unmapped access.
    package static let busError = SIGBUS
    /// `SIGFPE`: an arithmetic fault.
    package static let floatingPointError = SIGFPE
  }

  /// A fatal-signal handler: the signal number and the faulting address (0 when the signal was
  /// sent rather than raised by a faulting instruction, or the platform does not say). It must be
  /// async-signal-safe: no allocation, no lock, no lazy global.
  package typealias FatalSignalHandler = @convention(c) (_ signal: Int32, _ address: UInt) -> Void

  /// Signal numbers below this have a slot for the action that was installed before ours.
  private static let actionSlots = 64
  /// The most handlers ``addFatalSignalHandler(_:)`` keeps.
  private static let handlerSlots = 8

  /// Everything the kernel-called dispatcher reads, set up before the first handler is installed.
  /// Written only under ``registration``; the dispatcher reads the handlers below ``handlerCount``.
  private struct Registry {
    /// The actions installed before ours, by signal number.
    let previousActions: UnsafeMutablePointer<sigaction>
    /// The handlers, in the order added.
    let handlers: UnsafeMutablePointer<FatalSignalHandler?>
  }

  nonisolated(unsafe) private static let registry: Registry = {
    let actions = UnsafeMutablePointer<sigaction>.allocate(capacity: actionSlots)
    actions.initialize(repeating: sigaction(), count: actionSlots)
    let handlers = UnsafeMutablePointer<FatalSignalHandler?>.allocate(capacity: handlerSlots)
    handlers.initialize(repeating: nil, count: handlerSlots)
    return Registry(previousActions: actions, handlers: handlers)
  }()
  /// How many handlers are set (release on add, acquire in the dispatcher).
  private static let handlerCount = AtomicWord(0)
  /// Serializes ``addFatalSignalHandler(_:)``; `true` once the dispatcher is installed.
  private static let registration = Locked(false)

  /// The size of the alternate signal stack, enough for the handlers after a stack overflow.
  private static let alternateStackSize = 64 << 10

  /// Adds `handler` for every signal of ``fatalSignals``; handlers run in the order added, then
  /// the signal goes on to the action it had before the first was added.
  ///
  /// The first call installs the dispatcher with `sigaction` (on an alternate stack, so that it
  /// runs after a stack overflow too), keeping the actions installed before it; later calls only
  /// add to the list. A handler installed by someone else *after* this one must chain to it
  /// (crash-reporting SDKs do) for it to run. The calling thread gets an alternate signal stack
  /// when it has none.
  ///
  /// - Returns: `false` when the list is full (``handlerSlots`` handlers).
  @discardableResult
  package static func addFatalSignalHandler(_ handler: FatalSignalHandler) -> Bool {
    _ = registry
    installAlternateStack()
    return registration.withLock { isInstalled in
      let count = handlerCount.load()
      guard count < handlerSlots else { return false }
      registry.handlers[count] = handler
      handlerCount.store(count + 1)
      guard !isInstalled else { return true }
      isInstalled = true
      for number in fatalSignals where number < actionSlots {
        var action = sigaction()
        #if canImport(Darwin)
          action.__sigaction_u.__sa_sigaction = dispatchFatalSignal
        #else
          action.__sigaction_handler.sa_sigaction = dispatchFatalSignal
        #endif
        action.sa_flags = SA_SIGINFO | SA_ONSTACK
        sigemptyset(&action.sa_mask)
        _ = sigaction(number, &action, registry.previousActions + Int(number))
      }
      return true
    }
  }

  /// What the kernel calls: runs every handler, then puts back the action the signal had before
  /// and lets it run — at once for a signal a process sent (`kill`, `raise`, `abort`: raised
  /// again, delivered when this returns), or, for a fault, when this returns and the faulting
  /// instruction runs again. Either way the earlier handler sees the crash as if ours had not
  /// been there.
  private static let dispatchFatalSignal:
    @convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?) -> Void = {
      number, info, _ in
      let code = info?.pointee.si_code ?? 0
      #if canImport(Darwin)
        // Darwin's SI_USER and SI_QUEUE are 0x10001 and 0x10002; faults are small positive codes.
        let sentByProcess = code >= 0x10000
        let address = sentByProcess ? 0 : UInt(bitPattern: info?.pointee.si_addr)
      #else
        // Linux: SI_USER is 0 and SI_TKILL, SI_QUEUE, … are negative; faults are positive.
        let sentByProcess = code <= 0
        let address =
          sentByProcess ? 0 : UInt(bitPattern: info?.pointee._sifields._sigfault.si_addr)
      #endif
      let count = Platform.handlerCount.load()
      for index in 0..<count { Platform.registry.handlers[index]?(number, address) }
      guard number >= 0, number < Platform.actionSlots else { return }
      _ = sigaction(number, Platform.registry.previousActions + Int(number), nil)
      if sentByProcess { _ = raise(number) }
    }

  /// Gives the calling thread an alternate signal stack, unless it has one.
  private static func installAlternateStack() {
    #if os(tvOS) || os(watchOS)
      // `sigaltstack` is prohibited there: a handler runs on the faulting thread's stack, so a
      // stack overflow is not recorded.
      return
    #else
      installAlternateStackNow()
    #endif
  }

  #if !(os(tvOS) || os(watchOS))
    private static func installAlternateStackNow() {
      var current = stack_t()
      guard sigaltstack(nil, &current) == 0, current.ss_flags & Int32(SS_DISABLE) != 0 else {
        return
      }
      guard let memory = malloc(alternateStackSize) else { return }
      var stack = stack_t()
      stack.ss_sp = memory
      stack.ss_size = alternateStackSize
      stack.ss_flags = 0
      if sigaltstack(&stack, nil) != 0 { free(memory) }
    }
  #endif
}
