import Foundation
import RewindTestSupport
import Testing

/// `Scripts/check-availability.py`, the Linux-side stand-in for compiling on every Apple
/// platform: clean on the package, and it catches each kind of planted violation — and only
/// those — in a copy of the package's table and `Package.swift`.
@Suite struct AvailabilityCheckTests {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// Runs the script; `nil` when there is no `python3` (a failure under `CI=true`).
  static func run(_ arguments: [String]) throws -> (status: Int32, output: String)? {
    let python = ["/usr/bin/python3", "/usr/local/bin/python3"].first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
    guard let python else {
      if ProcessInfo.processInfo.environment["CI"] == "true" {
        Issue.record("python3 is missing: CI must run Scripts/check-availability.py")
      }
      return nil
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments =
      [root.appendingPathComponent("Scripts/check-availability.py").path]
      + arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    return (ChildExit.wait(for: process).status, String(decoding: data, as: UTF8.self))
  }

  @Test func thePackageUsesNoAPINewerThanItsDeploymentTargets() throws {
    guard let (status, output) = try Self.run([]) else { return }
    #expect(status == 0, "\(output)")
    #expect(output.contains("use no API newer than macOS 13.0, macCatalyst 16.0, iOS 16.0"))
  }

  /// A quotation mark, so that the planted `/proc` paths are not literals of this file itself.
  static let q = "\""

  /// One planted use per line that the check must flag (`// flagged`) or let pass.
  static let planted = """
    import Foundation
    import Synchronization

    let counter = Atomic<Int>(0)  // flagged: Synchronization below macOS 15
    let text = "Atomic<Int>(0) in a string is not code"
    // Atomic<Int>(0) in a comment is not code either

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    func guarded() -> Int {
      let lock = Mutex(0)
      return lock.withLock { $0 }
    }

    func checked() {
      if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) {
        withObservationTracking { _ = 1 } onChange: {}
      }
      withObservationTracking { _ = 1 } onChange: {}  // flagged: Observation unguarded
    }

    @available(macOS 14, iOS 17, *)
    func halfGuarded() {
      withObservationTracking { _ = 1 } onChange: {}  // flagged: tvOS and watchOS unguarded
    }

    func sync(_ fd: Int32) {
      #if os(Linux)
        _ = fdatasync(fd)
      #else
        _ = fcntl(fd, F_FULLFSYNC)
      #endif
      _ = fdatasync(fd)  // flagged: Linux only
    }

    func stack() {
      var old = stack_t()
      #if !(os(tvOS) || os(watchOS))
        _ = sigaltstack(nil, &old)
      #endif
      _ = sigaltstack(nil, &old)  // flagged: prohibited on tvOS and watchOS
    }

    struct Holder {
      let make: (Int) throws(CancellationError) -> Int  // flagged: typed-throws function type
    }

    func memory() -> String? {
      #if os(Linux)
        return try? String(contentsOfFile: \(q)/proc/meminfo\(q), encoding: .utf8)
      #else
        // \(q)/proc/meminfo\(q) in a comment is not code
        return try? String(contentsOfFile: \(q)/proc/meminfo\(q), encoding: .utf8)  // flagged: /proc
      #endif
    }
    """

  @Test func aPlantedUseOfATooNewAPIIsCaughtAndAGuardedOneIsNot() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("rewind-availability-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let module = folder.appendingPathComponent("Sources/Rewind")
    try FileManager.default.createDirectory(at: module, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: Self.root.appendingPathComponent("Package.swift"),
      to: folder.appendingPathComponent("Package.swift"))
    try Self.planted.write(
      to: module.appendingPathComponent("Planted.swift"), atomically: true, encoding: .utf8)
    let tableData = try Data(
      contentsOf: Self.root.appendingPathComponent("Scripts/availability.json"))
    var table = try #require(JSONSerialization.jsonObject(with: tableData) as? [String: Any])
    table["modules"] = [
      "Sources/Rewind": ["macOS", "macCatalyst", "iOS", "tvOS", "watchOS", "visionOS"]
    ]
    let tablePath = folder.appendingPathComponent("availability.json")
    try JSONSerialization.data(withJSONObject: table).write(to: tablePath)

    guard let (status, output) = try Self.run(["--root", folder.path, "--table", tablePath.path])
    else { return }
    #expect(status == 1)
    let flagged = Self.planted.split(separator: "\n", omittingEmptySubsequences: false)
      .enumerated().filter { $0.element.contains("// flagged") }.map { $0.offset + 1 }
    let reported = output.split(separator: "\n").compactMap { line -> Int? in
      guard line.hasPrefix("Sources/Rewind/Planted.swift:") else { return nil }
      return Int(line.split(separator: ":")[1])
    }
    #expect(reported == flagged, "\(output)")
    #expect(output.contains("Planted.swift:4:15: Synchronization"))
    #expect(output.contains("needs macOS 15.0 (the code runs from macOS 13.0)"))
    #expect(output.contains("To fix, use AtomicWord or Locked"))
    #expect(
      output.contains(
        "needs tvOS 17.0 (the code runs from tvOS 16.0), watchOS 10.0 (the code runs from "
          + "watchOS 9.0)"))
    #expect(output.contains("not available on tvOS, watchOS"))
    #expect(
      output.contains(
        "no such files on Apple platforms): not available on iOS, macCatalyst, macOS, tvOS, "
          + "visionOS, watchOS"))
    #expect(output.contains("check-availability: 7 problem(s) in 1 files"))
  }

  @Test func platformsThatDisagreeWithTheTableAreReported() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("rewind-availability-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let package = try String(
      contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
    try package.replacingOccurrences(of: ".iOS(.v16)", with: ".iOS(.v15)")
      .write(to: folder.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
    let tableData = try Data(
      contentsOf: Self.root.appendingPathComponent("Scripts/availability.json"))
    var table = try #require(JSONSerialization.jsonObject(with: tableData) as? [String: Any])
    table["modules"] = [String: Any]()
    let tablePath = folder.appendingPathComponent("availability.json")
    try JSONSerialization.data(withJSONObject: table).write(to: tablePath)

    guard let (status, output) = try Self.run(["--root", folder.path, "--table", tablePath.path])
    else { return }
    #expect(status == 1)
    #expect(
      output.contains(
        "Package.swift: platforms declare iOS 15.0, the availability table 16.0."))
  }
}
