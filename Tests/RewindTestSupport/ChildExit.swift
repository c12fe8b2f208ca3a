import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// How a child process a test started ended: Foundation's `Process.waitUntilExit()` can wait
/// forever on Linux for a child that has exited, when its `SIGCHLD` goes unnoticed (a child left
/// a zombie for 30 minutes hung a test run here once). ``wait(for:timeLimit:)`` waits with a
/// limit, and reaps such a child itself.
public struct ChildExit: Sendable, Equatable {
  /// The exit status, or the signal that ended it.
  public var status: Int32
  /// Whether a signal ended it.
  public var isSignal: Bool

  /// An exit with `status`, or (`isSignal`) an end by the signal `status`.
  public init(status: Int32, isSignal: Bool) {
    self.status = status
    self.isSignal = isSignal
  }

  /// `Process.TerminationReason` of ``isSignal``.
  public var reason: Process.TerminationReason { isSignal ? .uncaughtSignal : .exit }

  /// Waits until `process` (started) has ended and returns how; a child still running after
  /// `timeLimit` seconds is killed, and the test gets a failure to report rather than a hang.
  public static func wait(for process: Process, timeLimit: Double = 900) -> ChildExit {
    let pid = process.processIdentifier
    let started = Date()
    var zombieSince: Date?
    while process.isRunning {
      if isZombie(pid) {
        // Exited; give Foundation a second to notice, then reap it here.
        let since = zombieSince ?? Date()
        zombieSince = since
        if Date().timeIntervalSince(since) > 1, let reaped = reap(pid) { return reaped }
      }
      if Date().timeIntervalSince(started) > timeLimit {
        kill(pid, SIGKILL)
        return reap(pid, blocking: true) ?? ChildExit(status: SIGKILL, isSignal: true)
      }
      usleep(5_000)
    }
    return ChildExit(
      status: process.terminationStatus, isSignal: process.terminationReason == .uncaughtSignal)
  }

  /// Whether `pid` has exited without being reaped (Linux; elsewhere never said).
  private static func isZombie(_ pid: pid_t) -> Bool {
    #if os(Linux)
      guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
      else { return false }
      return stat[close...].dropFirst(2).first == "Z"
    #else
      return false
    #endif
  }

  private static func reap(_ pid: pid_t, blocking: Bool = false) -> ChildExit? {
    var status: Int32 = 0
    while true {
      let reaped = waitpid(pid, &status, blocking ? 0 : WNOHANG)
      if reaped == pid { break }
      if reaped < 0 && errno == EINTR { continue }
      return nil
    }
    let signal = status & 0x7F
    return signal == 0
      ? ChildExit(status: (status >> 8) & 0xFF, isSignal: false)
      : ChildExit(status: signal, isSignal: true)
  }
}
