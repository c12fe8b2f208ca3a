import Foundation

/// The machine the figures come from.
enum BenchMachine {
  static func describe() -> [(String, String)] {
    let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
    let model =
      cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
      .flatMap { $0.split(separator: ":", maxSplits: 1).last }
      .map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown"
    let memory =
      ((try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8)) ?? "")
      .split(separator: "\n").first { $0.hasPrefix("MemTotal:") }
      .map { $0.dropFirst("MemTotal:".count).trimmingCharacters(in: .whitespaces) } ?? "unknown"
    let kernel =
      (try? String(contentsOfFile: "/proc/sys/kernel/osrelease", encoding: .utf8))?
      .trimmingCharacters(in: .whitespacesAndNewlines) ?? "unknown"
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
