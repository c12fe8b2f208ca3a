import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The built `replay` binary run as a child process, for inputs that could hang it or make it
/// allocate without bound: a time limit, and the child's own peak resident memory.
///
/// The binary run is `rewind-testbed peak REPORT ARGS…`: a replay binary with the same apps that
/// writes its own peak (`VmHWM` on Linux, `ru_maxrss` elsewhere) to REPORT as it exits. The
/// parent cannot measure it on Linux: `wait4`'s `ru_maxrss` includes the test runner's own
/// high-water mark (glibc's `posix_spawn` shares the parent's address space until `exec`, which
/// folds that mark into the child's), and sampling `/proc/<pid>/status` misses a peak reached
/// after the last sample. When the child leaves no report (a signal, the time limit) the peak is
/// the highest `VmHWM` sampled every 10 ms on Linux, `ru_maxrss` elsewhere.
enum ReplayProcess {
  struct Outcome: CustomStringConvertible {
    /// The exit status, when the process exited.
    var status: Int32?
    /// The signal that ended it, when one did.
    var signal: Int32?
    /// Whether it ran past the time limit and was killed.
    var timedOut: Bool
    var standardOutput: String
    var standardError: String
    /// The most memory the process had resident at once, in bytes.
    var peakResidentBytes: Int
    var seconds: Double

    /// The first line of standard error, or `""`.
    var firstErrorLine: String {
      String(standardError.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
    }

    var peakMiB: Int { peakResidentBytes >> 20 }

    var description: String {
      let end =
        timedOut
        ? "killed after the time limit" : signal.map { "signal \($0)" } ?? "status \(status ?? -1)"
      return "\(end) in \(String(format: "%.1f", seconds)) s, peak \(peakMiB) MiB\n--- stderr:\n"
        + "\(standardError.prefix(600))\n--- stdout:\n\(standardOutput.prefix(300))"
    }
  }

  /// The child could not be started.
  struct SpawnFailed: Error, CustomStringConvertible {
    var description: String
  }

  /// Runs `replay arguments` with standard input from `/dev/null` and its output in files in
  /// `directory`, killing it after `timeLimit` seconds.
  static func run(_ arguments: [String], timeLimit: Double, in directory: URL) throws -> Outcome {
    let executable = try Self.executable()
    let name = UUID().uuidString
    let outPath = directory.appendingPathComponent("\(name).out").path
    let errPath = directory.appendingPathComponent("\(name).err").path
    let peakPath = directory.appendingPathComponent("\(name).peak").path
    defer {
      for path in [outPath, errPath, peakPath] { try? FileManager.default.removeItem(atPath: path) }
    }
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = "1"
    environment["SWIFT_BACKTRACE"] = "enable=no"
    let argv = ([executable, "peak", peakPath] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for string in argv + envp { free(string) }
    }

    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)

    let started = Date()
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
    guard spawned == 0 else {
      throw SpawnFailed(
        description: "posix_spawn \(executable) failed: \(String(cString: strerror(spawned)))")
    }
    var status: Int32 = 0
    var usage = rusage()
    var timedOut = false
    var highWater = 0
    while true {
      highWater = max(highWater, Self.residentHighWater(of: pid) ?? 0)
      let reaped = wait4(pid, &status, WNOHANG, &usage)
      if reaped == pid { break }
      if reaped < 0 && errno != EINTR { break }
      if Date().timeIntervalSince(started) > timeLimit {
        kill(pid, SIGKILL)
        _ = wait4(pid, &status, 0, &usage)
        timedOut = true
        break
      }
      usleep(10_000)
    }
    let seconds = Date().timeIntervalSince(started)
    let signal = status & 0x7F
    #if canImport(Darwin)
      let sampled = Int(usage.ru_maxrss)  // bytes
    #else
      let sampled = highWater
    #endif
    let reported = (try? String(contentsOfFile: peakPath, encoding: .utf8)).flatMap {
      Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
    }
    let peak = reported ?? sampled
    return Outcome(
      status: signal == 0 ? (status >> 8) & 0xFF : nil,
      signal: signal == 0 ? nil : signal,
      timedOut: timedOut,
      standardOutput: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
      standardError: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "",
      peakResidentBytes: peak, seconds: seconds)
  }

  /// The binary run: `$REWIND_HOSTILE_TESTBED` when set — a release build of `rewind-testbed`,
  /// which makes the same checks several times faster (`.ci/run` sets it) — else the
  /// `rewind-testbed` built with the tests.
  static func executable() throws -> String {
    if let path = ProcessInfo.processInfo.environment["REWIND_HOSTILE_TESTBED"], !path.isEmpty {
      return path
    }
    return try CLIFixture.executable("rewind-testbed").path
  }

  /// The most memory the live process `pid` has had resident, in bytes (Linux), or `nil`.
  private static func residentHighWater(of pid: pid_t) -> Int? {
    #if os(Linux)
      guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
      else { return nil }
      let kilobytes = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).compactMap {
        Int($0)
      }
      .first
      return kilobytes.map { $0 * 1024 }
    #else
      return nil  // no /proc: the peak is not measured there
    #endif
  }
}
