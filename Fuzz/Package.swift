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
  ],
  swiftLanguageModes: [.v6]
)
