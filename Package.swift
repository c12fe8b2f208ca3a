// swift-tools-version: 6.0
import PackageDescription

// Module layers, dependencies pointing one way; each target declares every module of this package
// that its sources import (ArchitectureDocTests checks it):
//   RewindJSON ← Rewind ← RewindReplay ← RewindReplayService ← RewindServers ← ReplayCLI ← replay
//   RewindCPU ↗    ↖ RewindExamples (counter and todo apps) ↗
//   (RewindCPU ← RewindJSON too: the JSON validator's structural pass)
// RewindReplayService is the replay side every front end shares: it opens logs (app lookup,
// migrations, recovery) and owns crash isolation (the worker process, its typed requests and
// replies, and the platform code only `replay` needs: shared memory, the terminal, polling). It
// is a module of its own, not part of RewindReplay, so that the engine stays a library of pure
// replay (no processes, no terminal) and the command line, the TUI and the protocol servers to
// come all sit on one layer above it.
// StoreRecipes compiles the recipes of docs/recording.md for stores other than Rewind's (a
// ReSwift app, against ReSwiftStandIn: ReSwift's API shape, not its code; a Recombine app,
// against RecombineStandIn; a TCA-style feature; an @Observable store; several stores), and
// SwiduxRecipe the Swidux app's, against SwiduxStandIn (a target of its own: its actions
// conform to Swidux's `Action`, ReSwift's to ReSwift's); no product includes any of them.
// RewindCodegen ← rewind-codegen ← the RewindDirectCoding build plugin generate the direct JSON
// path of an app's Codable types from its sources (and the catalog of its action types, when
// they conform to `Action`); they depend on no other module here.
// RewindCPU is the package's only C: the CPU's CRC-32C instruction and constant-rate counter,
// and the JSON validator's structural pass (SSE2/AVX2, NEON), which Swift code compiled for the
// baseline CPU cannot inline, and atomic words that the
// app-linked modules and the replay engine need below macOS 15 / iOS 18 (where
// `Synchronization.Atomic` starts).
let package = Package(
  name: "Rewind",
  // What the app-linked modules (Rewind, RewindJSON, RewindCPU) support; the replay tools need
  // macOS 13 too. Newer APIs are behind availability, and Scripts/check-availability.py keeps it
  // so (docs/apple.md).
  platforms: [
    .macOS(.v13), .macCatalyst(.v16), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1),
  ],
  products: [
    .library(name: "Rewind", targets: ["Rewind"]),
    .library(name: "RewindReplay", targets: ["RewindReplay"]),
    .library(name: "ReplayCLI", targets: ["ReplayCLI"]),
    .library(name: "RewindExamples", targets: ["RewindExamples"]),
    .executable(name: "replay", targets: ["replay"]),
    .executable(name: "rewind-codegen", targets: ["rewind-codegen"]),
    .plugin(name: "RewindDirectCoding", targets: ["RewindDirectCoding"]),
  ],
  targets: [
    .target(name: "RewindCPU"),
    .target(name: "RewindJSON", dependencies: ["RewindCPU"]),
    .target(name: "Rewind", dependencies: ["RewindJSON", "RewindCPU"]),
    .target(name: "RewindExamples", dependencies: ["Rewind"]),
    .target(name: "RewindReplay", dependencies: ["Rewind", "RewindJSON"]),
    .target(name: "ReSwiftStandIn"),
    .target(name: "RecombineStandIn"),
    .target(name: "SwiduxStandIn"),
    // The generator of direct JSON paths for an app's Codable types (a build plugin over a tool
    // over a library that reads Swift source); it depends on nothing of Rewind's.
    .target(name: "RewindCodegen"),
    .executableTarget(
      name: "rewind-codegen", dependencies: ["RewindCodegen"], path: "Sources/RewindCodegenTool"),
    .plugin(
      name: "RewindDirectCoding", capability: .buildTool(), dependencies: ["rewind-codegen"],
      path: "Sources/RewindDirectCodingPlugin"),
    // Codable types of every shape the generator reads, built with the plugin (its tests).
    .target(name: "CodegenSamples", dependencies: ["Rewind"], plugins: ["RewindDirectCoding"]),
    .target(
      name: "StoreRecipes",
      dependencies: ["Rewind", "RewindExamples", "ReSwiftStandIn", "RecombineStandIn"],
      plugins: ["RewindDirectCoding"]),
    // The Swidux recipe is a target of its own: its actions conform to Swidux's `Action`, and
    // the plugin's generated catalog (`any Action`) can name one such protocol per target.
    .target(
      name: "SwiduxRecipe", dependencies: ["Rewind", "SwiduxStandIn"],
      plugins: ["RewindDirectCoding"]),
    .target(
      name: "RewindReplayService",
      dependencies: ["RewindReplay", "Rewind", "RewindJSON", "RewindCPU"]),
    // The protocol front ends over the replay service: the Debug Adapter Protocol server (an
    // editor's debugger) and the MCP server (a coding agent's tools), and the bounded transport
    // they read and write through.
    .target(
      name: "RewindServers",
      dependencies: ["RewindReplayService", "RewindReplay", "Rewind", "RewindJSON"]),
    .target(
      name: "ReplayCLI",
      dependencies: [
        "RewindServers", "RewindReplayService", "RewindReplay", "Rewind", "RewindJSON",
      ]),
    .executableTarget(
      name: "replay", dependencies: ["ReplayCLI", "RewindReplay", "Rewind", "RewindExamples"]),
    .executableTarget(
      name: "rewind-testbed",
      dependencies: ["Rewind", "RewindExamples", "RewindReplay", "ReplayCLI"],
      path: "Sources/RewindTestbed"),
    .executableTarget(
      name: "rewind-bench",
      dependencies: [
        "Rewind", "RewindJSON", "RewindReplay", "RewindReplayService", "RewindExamples",
        "ReplayCLI", "CodegenSamples", "StoreRecipes", "SwiduxRecipe", "RewindServers",
      ],
      path: "Sources/RewindBench"),
    // What the test targets share: Rewind's own hostile JSON, the repository's folders (and where
    // the third-party data beside it, `../shared/`, is found), and the seeded generator.
    .target(
      name: "RewindTestSupport", dependencies: ["RewindJSON"], path: "Tests/RewindTestSupport"),
    .testTarget(
      name: "RewindCodegenTests",
      dependencies: [
        "RewindCodegen", "CodegenSamples", "Rewind", "RewindJSON", "RewindReplay",
        "RewindTestSupport",
        "rewind-codegen",
      ]),
    .testTarget(name: "RewindJSONTests", dependencies: ["RewindJSON", "RewindTestSupport"]),
    .testTarget(
      name: "RewindTests",
      dependencies: [
        "Rewind", "RewindJSON", "RewindExamples", "RewindTestSupport", "rewind-testbed",
      ]),
    .testTarget(
      name: "RewindReplayTests",
      dependencies: [
        "RewindReplay", "Rewind", "RewindJSON", "RewindExamples", "RewindTestSupport",
      ]),
    .testTarget(
      name: "StoreRecipesTests",
      dependencies: [
        "StoreRecipes", "SwiduxRecipe", "RewindReplay", "Rewind", "RewindJSON", "RewindExamples",
        "ReSwiftStandIn", "RecombineStandIn", "SwiduxStandIn", "RewindTestSupport",
      ]),
    .testTarget(
      name: "RewindServersTests",
      dependencies: [
        "RewindServers", "RewindReplayService", "RewindReplay", "Rewind", "RewindJSON",
        "RewindExamples", "RewindTestSupport", "replay",
      ]),
    // Tests printed by `replay gen-test` for the fixtures (ReplayCLITests checks they are current).
    .testTarget(name: "GeneratedTests", dependencies: ["Rewind", "RewindExamples"]),
    .testTarget(
      name: "ReplayCLITests",
      dependencies: [
        "ReplayCLI", "RewindServers", "RewindReplayService", "RewindReplay", "Rewind", "RewindJSON",
        "RewindExamples", "RewindTestSupport", "replay", "rewind-testbed",
      ]),
  ],
  swiftLanguageModes: [.v6]
)
