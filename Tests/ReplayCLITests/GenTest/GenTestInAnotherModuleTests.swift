import Foundation
import ReplayCLI
import RewindReplay
import RewindTestSupport
import Testing

/// `gen-test` prints a test that compiles in the app's test target, another module than the
/// app's types, for a model as users write it (`CartModel.swift`: a state with a `public init()`
/// and no memberwise initialiser, structs whose memberwise initialisers are internal): a value
/// that holds a struct is decoded from its JSON, the rest are Swift literals. The test compiles
/// `CartModel.swift` as the module `ShopCore` with `swiftc` and type-checks the printed file
/// against it, warnings as errors.
@Suite struct GenTestInAnotherModuleTests {
  /// A cart log: two lines added (one title holding `"#`, which a raw string must survive), a
  /// coupon, a removal, and the end record (so no worker process, which would not know the app,
  /// is asked whether the last action crashes).
  private static let log = CounterLogLines.text([
    #"{"kind":"header","format":"rewind","version":1,"session":"s","app":"cart","#
      + #""actionType":"CartAction","stateType":"CartState","firstSeq":1,"#
      + #""state":{"lines":[],"total":0}}"#,
    #"{"kind":"action","seq":1,"type":"add","action":{"add":{"_0":{"sku":"A-1","qty":2,"price":350}}}}"#,
    ##"{"kind":"action","seq":2,"type":"add","action":{"add":{"_0":{"sku":"B \"#2","qty":1,"price":1200}}}}"##,
    #"{"kind":"action","seq":3,"type":"apply","action":{"apply":{"_0":"tenOff"}}}"#,
    #"{"kind":"action","seq":4,"type":"remove","action":{"remove":{"sku":"A-1"}}}"#,
    #"{"kind":"end","seq":4,"reason":"closed"}"#,
  ])

  /// What `gen-test` prints for the cart log, with the types' module spelt `ShopCore` (they
  /// live in this test module here; `String(reflecting:)` names whichever module holds them).
  private func generatedTest(in directory: URL) throws -> String {
    let path = directory.appendingPathComponent("cart.jsonl").path
    try Data(Self.log.utf8).write(to: URL(fileURLWithPath: path))
    let output = CapturedOutput()
    let status = ReplayTool.run(
      ["gen-test", path, "--name", "cartReplays"],
      apps: [ReplayApp(name: "cart", reducer: cartReducer, initialState: CartState())],
      output: output, input: ScriptedInput([]))
    #expect(status == 0, "\(output.standardError)")
    return output.standardOutput.replacingOccurrences(of: "ReplayCLITests.", with: "ShopCore.")
      .replacingOccurrences(of: "import ReplayCLITests\n", with: "import ShopCore\n")
  }

  @Test func structsAreDecodedFromJSONAndEnumsAreLiterals() throws {
    let text = try CLIFixture.withTemporaryDirectory { try generatedTest(in: $0) }
    #expect(text.contains("import Foundation\nimport Rewind\nimport ShopCore\nimport Testing\n"))
    #expect(
      text.contains(
        ##"    initialState: try JSONDecoder().decode(ShopCore.CartState.self, from: Data(#"{"lines":[],"total":0}"#.utf8)),"##
      ))
    #expect(
      text.contains(
        ###"  store.dispatch(try JSONDecoder().decode(ShopCore.CartAction.self, from: Data(##"{"add":{"_0":{"sku":"B \"#2","qty":1,"price":1200}}}"##.utf8)))  // 2"###
      ), "\(text)")
    #expect(
      text.contains("  store.dispatch(ShopCore.CartAction.apply(ShopCore.Coupon.tenOff))  // 3"))
    #expect(text.contains(#"  store.dispatch(ShopCore.CartAction.remove(sku: "A-1"))  // 4"#))
    #expect(text.contains("  #expect(store.state == expected)\n"))
    #expect(!text.contains("CartLine("), "no memberwise initialiser is called")
  }

  @Test(.enabled(if: Toolchain.swiftc != nil, "needs swiftc on PATH"))
  func thePrintedTestCompilesAgainstTheModelsModule() throws {
    let swiftc = try #require(Toolchain.swiftc)
    let build = try #require(
      Toolchain.buildDirectory(), "no Modules/Rewind.swiftmodule near the test bundle")
    let model = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("CartModel.swift")
    try CLIFixture.withTemporaryDirectory { directory in
      let generated = directory.appendingPathComponent("CartTest.swift")
      try Data(try generatedTest(in: directory).utf8).write(to: generated)
      let search = [
        "-I", build.appendingPathComponent("Modules").path, "-Xcc",
        "-fmodule-map-file="
          + build.appendingPathComponent("RewindCPU.build/module.modulemap").path,
      ]
      let module = try ChildProcess.run(
        swiftc,
        [
          "-emit-module", "-module-name", "ShopCore", "-parse-as-library", "-swift-version", "6",
          "-emit-module-path", directory.appendingPathComponent("ShopCore.swiftmodule").path,
          model.path,
        ] + search, in: directory)
      #expect(module.status == 0, "ShopCore: \(module.standardError)")
      let test = try ChildProcess.run(
        swiftc,
        ["-typecheck", "-swift-version", "6", "-warnings-as-errors", "-I", directory.path]
          + search + [generated.path], in: directory)
      #expect(test.status == 0, "the generated test: \(test.standardError)")
      #expect(test.standardError.isEmpty, "\(test.standardError)")
    }
  }
}

/// The Swift compiler and this build's modules, for compiling a file the way a user's target
/// would.
enum Toolchain {
  /// `swiftc` on `PATH`, or `nil`.
  static let swiftc: URL? = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    for directory in path.split(separator: ":") {
      let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent("swiftc")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    return nil
  }()

  /// The build directory (`.build/<triple>/debug`) whose `Modules/` holds `Rewind`'s module, found
  /// from the built `replay` executable.
  static func buildDirectory() -> URL? {
    guard var directory = try? CLIFixture.replayExecutable().deletingLastPathComponent() else {
      return nil
    }
    directory.resolveSymlinksInPath()
    for _ in 0..<3 {
      let module = directory.appendingPathComponent("Modules/Rewind.swiftmodule")
      if FileManager.default.fileExists(atPath: module.path) { return directory }
      directory.deleteLastPathComponent()
    }
    return nil
  }
}
