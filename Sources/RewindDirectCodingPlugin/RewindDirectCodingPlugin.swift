import Foundation
import PackagePlugin

/// Generates, on every build of the target it is applied to, a `JSONDirectCodable` conformance
/// for each of the target's `Codable` structs and enums that `rewind-codegen` can read with
/// certainty: the recorder and the replay engine then take the direct path for them, with the
/// JSON of their own `Codable` (docs/recording.md, "Generated direct coding").
@main struct RewindDirectCodingPlugin: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
    guard let target = target as? SourceModuleTarget else { return [] }
    // A plugin cannot read the target's Swift settings; the manifests' text (`Package.swift`
    // and any `Package@swift-….swift`) says whether a target of the package is built with
    // default main-actor isolation.
    let directory = context.package.directoryURL
    let manifests =
      ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
      .filter { $0.hasPrefix("Package") && $0.hasSuffix(".swift") }
    let manifestText = manifests.compactMap {
      try? String(contentsOf: directory.appendingPathComponent($0), encoding: .utf8)
    }.joined()
    let isMainActorByDefault =
      manifestText.contains("defaultIsolation(MainActor")
      || manifestText.contains("default-isolation")
    return [
      Self.command(
        tool: try context.tool(named: "rewind-codegen").url,
        workDirectory: context.pluginWorkDirectoryURL, targetName: target.name,
        moduleName: target.moduleName,
        isMainActorByDefault: isMainActorByDefault,
        sources: target.sourceFiles(withSuffix: "swift").map(\.url))
    ]
  }

  /// The one command: `rewind-codegen --output FILE --module NAME SOURCES…`, run again when a
  /// source changes.
  static func command(
    tool: URL, workDirectory: URL, targetName: String, moduleName: String,
    isMainActorByDefault: Bool, sources: [URL]
  ) -> Command {
    let output = workDirectory.appendingPathComponent("\(targetName)+RewindDirectCoding.swift")
    return .buildCommand(
      displayName: "Generating the direct JSON path of \(targetName)'s Codable types",
      executable: tool,
      arguments: ["--output", output.path, "--module", moduleName]
        + (isMainActorByDefault ? ["--main-actor"] : []) + sources.map(\.path),
      inputFiles: sources,
      outputFiles: [output])
  }
}

#if canImport(XcodeProjectPlugin)
  import XcodeProjectPlugin

  // An Xcode app target (not compiled in Rewind's CI, which has no Xcode). Its build settings
  // are not visible here either; Xcode 26's app templates isolate to the main actor by default,
  // so only `nonisolated` types are generated.
  extension RewindDirectCodingPlugin: XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws
      -> [Command]
    {
      let sources = target.inputFiles.filter {
        $0.type == .source && $0.url.pathExtension == "swift"
      }
      return [
        Self.command(
          tool: try context.tool(named: "rewind-codegen").url,
          workDirectory: context.pluginWorkDirectoryURL, targetName: target.displayName,
          moduleName: target.displayName, isMainActorByDefault: true, sources: sources.map(\.url))
      ]
    }
  }
#endif
