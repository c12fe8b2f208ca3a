import Foundation
import Testing

/// docs/architecture.md stays true: every file it names exists, and what it says of the modules
/// holds — each target declares what it imports, crash isolation lives in RewindReplayService,
/// and the modules an app links hold no code only `replay` needs.
@Suite struct ArchitectureDocTests {
  @Test func everyFileTheMapNamesExists() throws {
    let root = CLIFixture.packageRoot
    let text = try String(
      contentsOf: root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
    // Paths in backticks: `Sources/…`, `Tests/…`, `Scripts/…`, `docs/…`.
    var named: [String] = []
    for piece in text.split(separator: "`").enumerated() where piece.offset % 2 == 1 {
      let path = String(piece.element)
      if ["Sources/", "Tests/", "Scripts/", "docs/"].contains(where: path.hasPrefix),
        !path.contains(" ")
      {
        named.append(path)
      }
    }
    #expect(named.count > 30, "the map names \(named.count) files")
    let missing = named.filter {
      !FileManager.default.fileExists(atPath: root.appendingPathComponent($0).path)
    }
    #expect(missing.isEmpty, "docs/architecture.md names files that do not exist: \(missing)")
  }

  /// A target of `Package.swift`: its name, the modules it depends on, and its folder.
  struct Target {
    var name: String
    var dependencies: Set<String>
    var path: String
    var isTest: Bool
  }

  /// The targets `Package.swift` declares, read from its text (each `.target(`,
  /// `.executableTarget(` or `.testTarget(` call: `name:`, `dependencies: [...]`, `path:`).
  static func targets() throws -> [Target] {
    let text = try String(
      contentsOf: CLIFixture.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
    var targets: [Target] = []
    for kind in [".target(", ".executableTarget(", ".testTarget("] {
      for piece in text.components(separatedBy: kind).dropFirst() {
        // The call's text: up to the next declaration of a target.
        let call = piece.components(separatedBy: "\n    .").first ?? piece
        func quoted(after label: String) -> String? {
          guard let range = call.range(of: label + " \"") else { return nil }
          return String(call[range.upperBound...].prefix { $0 != "\"" })
        }
        guard let name = quoted(after: "name:") else { continue }
        var dependencies: Set<String> = []
        if let range = call.range(of: "dependencies: [") {
          let list = call[range.upperBound...].prefix { $0 != "]" }
          for (index, part) in list.split(separator: "\"", omittingEmptySubsequences: false)
            .enumerated() where index % 2 == 1
          {
            dependencies.insert(String(part))
          }
        }
        let isTest = kind == ".testTarget("
        targets.append(
          Target(
            name: name, dependencies: dependencies,
            path: quoted(after: "path:") ?? (isTest ? "Tests/\(name)" : "Sources/\(name)"),
            isTest: isTest))
      }
    }
    return targets
  }

  /// The modules of this package that the Swift files under `path` import.
  static func imports(under path: String, among modules: Set<String>) -> Set<String> {
    let root = CLIFixture.packageRoot.appendingPathComponent(path)
    var found: Set<String> = []
    let files = FileManager.default.enumerator(atPath: root.path)
    while let file = files?.nextObject() as? String {
      guard file.hasSuffix(".swift"),
        let text = try? String(
          contentsOf: root.appendingPathComponent(file), encoding: .utf8)
      else { continue }
      for line in text.split(separator: "\n") {
        let words = line.split(separator: " ")
        guard let index = words.firstIndex(of: "import"), index + 1 < words.count,
          words[..<index].allSatisfy({ $0.hasPrefix("@") })
        else { continue }
        let module = String(words[index + 1])
        if modules.contains(module) { found.insert(module) }
      }
    }
    return found
  }

  @Test func everyTargetDeclaresTheModulesItImports() throws {
    let targets = try Self.targets()
    #expect(targets.count > 15, "read \(targets.count) targets from Package.swift")
    let libraries = Set(targets.filter { !$0.isTest }.map(\.name))
    for target in targets {
      let imported = Self.imports(under: target.path, among: libraries).subtracting([target.name])
      let undeclared = imported.subtracting(target.dependencies)
      #expect(
        undeclared.isEmpty,
        "\(target.name) imports \(undeclared.sorted()) without declaring them in Package.swift")
    }
  }

  /// The layers point one way: the engine knows nothing of the service, the service nothing of
  /// the command line, and the modules an app links nothing of replay.
  @Test func theLayersPointOneWay() throws {
    let targets = Dictionary(
      uniqueKeysWithValues: try Self.targets().map { ($0.name, $0) })
    let below: [(String, [String])] = [
      ("RewindJSON", ["Rewind", "RewindReplay", "RewindReplayService", "ReplayCLI"]),
      ("Rewind", ["RewindReplay", "RewindReplayService", "ReplayCLI"]),
      ("RewindReplay", ["RewindReplayService", "ReplayCLI"]),
      ("RewindReplayService", ["ReplayCLI"]),
    ]
    for (module, above) in below {
      let target = try #require(targets[module])
      #expect(target.dependencies.isDisjoint(with: above), "\(module) depends on a layer above it")
    }
  }

  /// Crash isolation lives in RewindReplayService: the command line starts no process and speaks
  /// no worker protocol of its own; the modules an app links hold no terminal or shared-memory
  /// code.
  @Test func isolationAndReplaysPlatformCodeLiveInTheService() throws {
    for (file, text) in Self.texts(under: "Sources/ReplayCLI") {
      for word in ["Process()", "WorkerProcess(", "posix_spawn"] {
        #expect(!text.contains(word), "\(file) holds \(word): isolation belongs in the service")
      }
    }
    for module in ["Sources/Rewind", "Sources/RewindJSON"] {
      for (file, text) in Self.texts(under: module) {
        for word in ["termios", "tcsetattr", "SharedMemory", "MAP_SHARED"] {
          #expect(!text.contains(word), "\(file) holds \(word): only replay needs it")
        }
      }
    }
    let service = Self.texts(under: "Sources/RewindReplayService").map(\.0)
    for file in [
      "Sources/RewindReplayService/Platform/Platform+Terminal.swift",
      "Sources/RewindReplayService/Platform/Platform+SharedMemory.swift",
      "Sources/RewindReplayService/Isolation/WorkerRequest.swift",
      "Sources/RewindReplayService/OpenedLog.swift",
    ] {
      #expect(service.contains(file), "\(file) is not in the service")
    }
  }

  /// Each Swift file under `path` (its path from the package's root) and its text.
  static func texts(under path: String) -> [(String, String)] {
    let folder = CLIFixture.packageRoot.appendingPathComponent(path)
    var result: [(String, String)] = []
    let files = FileManager.default.enumerator(atPath: folder.path)
    while let file = files?.nextObject() as? String {
      guard file.hasSuffix(".swift"),
        let text = try? String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
      else { continue }
      result.append(("\(path)/\(file)", text))
    }
    return result
  }

  /// The map's "request" section holds: every request under `Requests/` is in the one command
  /// table, the session runs commands only through it (no `switch` of command names), and the
  /// TUI keeps no debugger of its own — no cursor it sets, no timeline, diff or command text.
  @Test func frontEndsOnlyTranslateRequestsOfTheOneTable() throws {
    let requests = Self.texts(under: "Sources/RewindReplayService/Requests")
    let table = try #require(
      requests.first { $0.0.hasSuffix("/ReplayCommandTable.swift") }?.1)
    var declared: [String] = []
    for (_, text) in requests {
      for piece in text.components(separatedBy: "package struct ").dropFirst() {
        let name = String(piece.prefix { $0.isLetter || $0.isNumber })
        if piece.dropFirst(name.count).hasPrefix(": ReplayRequest") { declared.append(name) }
      }
    }
    #expect(declared.count >= 14, "requests found: \(declared)")
    for name in declared {
      #expect(table.contains("\(name)."), "\(name) is not in ReplayCommandTable")
    }
    let session = try #require(
      Self.texts(under: "Sources/ReplayCLI/Session").first {
        $0.0.hasSuffix("/ReplaySession.swift")
      }?.1)
    #expect(!session.contains("case \""), "ReplaySession switches on command names")
    for (file, text) in Self.texts(under: "Sources/ReplayCLI/TUI") {
      for word in [
        ".execute(", "Debugger(", "JSONDiff.diff(", "stateJSONText", ".reach(", "\"goto \\(",
        "\"find \\(", "\"find -b", "\"watch \\(", "\"continue\"", "ReplaySession",
      ] {
        #expect(!text.contains(word), "\(file) holds \(word): the TUI only sends requests")
      }
    }
  }
}
