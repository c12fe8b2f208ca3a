// swift-tools-version: 6.0
// libFuzzer targets for Rewind. Not part of the main package (they have no `main`): build and run
// them with Scripts/fuzz.sh, which passes `--sanitize=fuzzer --sanitize=address`.
import PackageDescription

let package = Package(
  name: "RewindFuzz",
  dependencies: [.package(name: "Rewind", path: "..")],
  targets: [
    .executableTarget(
      name: "FuzzLogReader",
      dependencies: [
        .product(name: "RewindReplay", package: "Rewind"),
        .product(name: "RewindExamples", package: "Rewind"),
      ]),
    .executableTarget(
      name: "FuzzJSONDecoder",
      dependencies: [.product(name: "RewindReplay", package: "Rewind")]),
    .executableTarget(
      name: "FuzzMigratedLog",
      dependencies: [
        .product(name: "RewindReplay", package: "Rewind"),
        .product(name: "RewindExamples", package: "Rewind"),
      ]),
    .executableTarget(
      name: "FuzzRecordingsFolder",
      dependencies: [.product(name: "Rewind", package: "Rewind")]),
    .executableTarget(
      name: "FuzzJSONStructure",
      dependencies: [.product(name: "RewindReplay", package: "Rewind")]),
    .executableTarget(
      name: "FuzzDevToolsImport",
      dependencies: [.product(name: "RewindReplay", package: "Rewind")]),
  ],
  swiftLanguageModes: [.v6]
)
