import Foundation
import RewindJSON
import RewindReplay

extension CrashReport {
  /// Modules whose frames are folded out of a report: Swift's runtime and libraries, and Rewind's
  /// own replay machinery between the worker's loop and the app's reducer.
  package static let foldedModules: Set<String> = [
    "Swift", "_Concurrency", "_StringProcessing", "Foundation", "FoundationEssentials",
    "FoundationInternationalization", "Dispatch", "Synchronization", "Observation", "Rewind",
    "RewindJSON", "RewindReplay", "RewindReplayService", "ReplayCLI",
  ]

  /// The crash reporter's words before the seq of the action.
  package static let markerWords = "\(StepMarker.words)"

  /// Reads what a dead replay worker wrote on stderr: the Swift runtime's fatal-error line, the
  /// crash reporter's note of the action (``StepMarker``), and the backtracer's JSON crash report
  /// (`SWIFT_BACKTRACE=format=json`), each when present.
  ///
  /// - Parameters:
  ///   - stderr: Everything the worker wrote on its standard error.
  ///   - signal: How the worker died (`SIGILL`, `exit status 3`).
  ///   - relativeTo: A folder; source files under it are shown relative to it.
  package init(workerStandardError stderr: String, signal: String, relativeTo folder: String? = nil)
  {
    self.init(seq: nil, type: nil, line: nil, signal: signal)
    var backtrace: Substring?
    for line in stderr.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("{ \"timestamp\"") || line.hasPrefix("{\"timestamp\"") {
        let start = line.startIndex
        backtrace = stderr[start...]
        break
      }
      if message == nil, let (location, text) = Self.runtimeMessage(in: line) {
        messageLocation = location
        message = text
      } else if line.contains(Self.markerWords) {
        readMarker(String(line))
      }
    }
    if let backtrace { readBacktrace(Array(backtrace.utf8), relativeTo: folder) }
  }

  /// `Swift/Array.swift:1350: Fatal error: Index out of range` → the location and the message
  /// (`Precondition failed: …` and `Assertion failed: …` keep their words; a bare `Fatal error`
  /// without text is `fatalError()`).
  package static func runtimeMessage(in line: Substring) -> (String?, String)? {
    for kind in ["Fatal error", "Precondition failed", "Assertion failed"] {
      guard let range = line.range(of: kind) else { continue }
      let before = line[..<range.lowerBound]
      guard before.isEmpty || before.hasSuffix(": ") else { continue }
      let location = before.isEmpty ? nil : String(before.dropLast(2))
      var text = line[range.upperBound...]
      if text.hasPrefix(": ") { text = text.dropFirst(2) }
      let trimmed = text.trimmingCharacters(in: .whitespaces)
      if kind == "Fatal error" { return (location, trimmed.isEmpty ? "fatal error" : trimmed) }
      return (location, trimmed.isEmpty ? kind : "\(kind): \(trimmed)")
    }
    return nil
  }

  /// `… while applying action 38 (type "move") from line 42`.
  private mutating func readMarker(_ text: String) {
    seq = Self.number(after: Self.markerWords, in: text)
    line = Self.number(after: " from line ", in: text)
    if let start = text.range(of: "(type \"")?.upperBound,
      let end = text[start...].range(of: "\")")?.lowerBound
    {
      type = String(text[start..<end])
    }
  }

  private static func number(after marker: String, in text: String) -> Int? {
    guard let start = text.range(of: marker)?.upperBound else { return nil }
    return Int(text[start...].prefix { $0.isNumber })
  }

  /// The crashed thread's frames from the backtracer's JSON report: the app's own kept, the
  /// runtime's and Rewind's counted in ``foldedFrames``.
  private mutating func readBacktrace(_ bytes: [UInt8], relativeTo folder: String?) {
    guard let report = try? JSONParser.parse(bytes),
      case .array(let threads)? = report["threads"],
      let crashed = threads.first(where: { $0["crashed"]?.boolValue == true }) ?? threads.first,
      case .array(let stack)? = crashed["frames"]
    else { return }
    for frame in stack {
      guard let description = frame["description"]?.stringValue else { continue }
      let module = frame["symbol"]?.stringValue.flatMap(Self.module(ofMangled:))
      let image = frame["image"]?.stringValue ?? ""
      let isSystemImage = image.hasPrefix("lib") || image.hasPrefix("ld-")
      if isSystemImage || module == nil || Self.foldedModules.contains(module ?? "") {
        foldedFrames += 1
        continue
      }
      var file = frame["sourceLocation"]?["file"]?.stringValue
      let line = frame["sourceLocation"]?["line"]?.intValue
      if let path = file, let folder, path.hasPrefix(folder + "/") {
        file = String(path.dropFirst(folder.count + 1))
      }
      if file == "//<compiler-generated>" || file == "<compiler-generated>" { file = nil }
      frames.append(
        Frame(
          function: Self.functionName(description), file: file,
          line: file == nil ? nil : line.flatMap { $0 > 0 ? $0 : nil }))
    }
  }

  /// `reduce(_:_:) + 49` → `reduce(_:_:)`.
  package static func functionName(_ description: String) -> String {
    guard let plus = description.range(of: " + ", options: .backwards),
      description[plus.upperBound...].allSatisfy(\.isNumber)
    else { return description }
    return String(description[..<plus.lowerBound])
  }

  /// The module of a Swift mangled name: `$s14RewindExamples…` → `RewindExamples`; `$ss…` (the
  /// standard library's shorthand) → `Swift`; `nil` for a name that is not Swift's.
  package static func module(ofMangled symbol: String) -> String? {
    var rest = Substring(symbol)
    for prefix in ["$s", "_$s", "$S", "_T0"] where rest.hasPrefix(prefix) {
      rest = rest.dropFirst(prefix.count)
      if rest.hasPrefix("s") { return "Swift" }
      if rest.hasPrefix("So") || rest.hasPrefix("SC") { return "__C" }
      let digits = rest.prefix { $0.isASCII && $0.isNumber }
      guard let length = Int(digits), length > 0 else { return nil }
      let name = rest.dropFirst(digits.count).prefix(length)
      return name.count == length ? String(name) : nil
    }
    return nil
  }
}
