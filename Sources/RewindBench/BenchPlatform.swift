import Foundation
import Rewind

// The C library calls only the harness makes (posix_spawn, waitpid), reached through
// Foundation; the others go through Rewind's platform layer (`LibC`, `Platform`).

/// The system calls the benchmarks measure or need: bare `write(2)`, child processes, peak memory.
enum BenchPlatform {
  /// Opens `path` for appending as the recorder does (`O_APPEND`, created, truncated).
  static func openForAppend(_ path: String) -> Int32 {
    open(path, O_WRONLY | O_CREAT | O_APPEND | O_TRUNC | O_CLOEXEC, mode_t(0o600))
  }

  /// One `write(2)` of `count` bytes at `base`; returns the bytes written or -1.
  @inline(__always)
  static func write(_ fd: Int32, _ base: UnsafeRawPointer, _ count: Int) -> Int {
    LibC.write(fd, base, count)
  }

  static func close(_ fd: Int32) {
    Platform.close(fd)
  }

  /// The process's peak resident set size in bytes.
  static func peakResidentBytes() -> Int { Platform.peakResidentBytes() }

  /// The number of online processors.
  static var processorCount: Int { Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

  /// The path of the running executable.
  static var executablePath: String {
    #if os(Linux)
      if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
        return path
      }
    #endif
    return Bundle.main.executablePath ?? CommandLine.arguments[0]
  }

  /// Whether `path` is an executable file.
  static func isExecutable(_ path: String) -> Bool { access(path, X_OK) == 0 }

  /// Runs `arguments[0]` with `arguments`, standard output into `outputPath` (or `/dev/null`),
  /// standard error inherited; waits for it.
  /// - Returns: The exit status (128 + signal for a signal) and the wall-clock seconds from spawn
  ///   to exit.
  static func run(_ arguments: [String], outputPath: String? = nil, quiet: Bool = false) -> (
    status: Int32, seconds: Double
  ) {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(
      &actions, 1, outputPath ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, mode_t(0o600))
    if quiet { posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0) }
    let argv = arguments.map { strdup($0) } + [nil]
    defer {
      for argument in argv { free(argument) }
    }
    var pid = pid_t()
    let start = DispatchTime.now().uptimeNanoseconds
    let code = posix_spawn(&pid, arguments[0], &actions, nil, argv, environ)
    guard code == 0 else { return (127, 0) }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    let exited = status & 0x7F == 0
    return (exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F), seconds)
  }

  /// Runs a command and returns its standard output, or `nil` when it fails; with `quiet`, its
  /// standard error goes nowhere.
  static func output(of arguments: [String], quiet: Bool = false) -> String? {
    let path =
      NSTemporaryDirectory() + "rewind-bench-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).out"
    defer { unlink(path) }
    guard run(arguments, outputPath: path, quiet: quiet).status == 0 else { return nil }
    return try? String(contentsOfFile: path, encoding: .utf8)
  }

  /// Runs `command` (this process's only child) and prints its peak resident memory in bytes:
  /// `rewind-bench __peak COMMAND…`. Returns the exit status to exit with.
  static func printPeakResident(of command: [String]) -> Int32 {
    guard !command.isEmpty else { return 2 }
    let status = run(command).status
    var usage = rusage()
    #if canImport(Darwin)
      let children = RUSAGE_CHILDREN
    #else
      let children = RUSAGE_CHILDREN.rawValue
    #endif
    guard status == 0, getrusage(children, &usage) == 0 else { return status == 0 ? 1 : status }
    #if canImport(Darwin)
      let bytes = Int(usage.ru_maxrss)
    #else
      let bytes = Int(usage.ru_maxrss) * 1024
    #endif
    print(bytes)
    return 0
  }

  /// Finds `name` on `PATH`.
  static func which(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for directory in path.split(separator: ":") {
      let candidate = "\(directory)/\(name)"
      if isExecutable(candidate) { return candidate }
    }
    return nil
  }
}
