import Foundation

/// The machine the figures come from.
enum BenchMachine {
  /// `/proc/<name>` on Linux; `nil` elsewhere (no `/proc`) or when it cannot be read.
  private static func linuxFile(_ name: String) -> String? {
    #if os(Linux)
      return try? String(contentsOfFile: "/proc/" + name, encoding: .utf8)
    #else
      return nil
    #endif
  }

  static func describe() -> [(String, String)] {
    let cpuinfo = linuxFile("cpuinfo") ?? ""
    let model =
      cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
      .flatMap { $0.split(separator: ":", maxSplits: 1).last }
      .map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown"
    let memory =
      (linuxFile("meminfo") ?? "")
      .split(separator: "\n").first { $0.hasPrefix("MemTotal:") }
      .map { $0.dropFirst("MemTotal:".count).trimmingCharacters(in: .whitespaces) }
      ?? "\(ProcessInfo.processInfo.physicalMemory / 1024) kB"
    let kernel =
      linuxFile("sys/kernel/osrelease")?.trimmingCharacters(in: .whitespacesAndNewlines)
      ?? ProcessInfo.processInfo.operatingSystemVersionString
    let swift =
      BenchPlatform.which("swift").flatMap { BenchPlatform.output(of: [$0, "--version"]) }?
      .split(separator: "\n").first.map(String.init) ?? "unknown"
    let formatter = ISO8601DateFormatter()
    return [
      ("nproc", String(BenchPlatform.processorCount)),
      ("cpu", model),
      ("memory", memory),
      ("kernel", kernel),
      ("swift", swift),
      ("date", formatter.string(from: Date())),
    ]
  }
}
