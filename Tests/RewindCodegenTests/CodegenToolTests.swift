import Foundation
import Testing

/// The `rewind-codegen` executable, run as the build plugin and a user run it.
@Suite struct CodegenToolTests {
  struct Run {
    var status: Int32
    var output: String
    var errors: String
  }

  static func tool() throws -> URL {
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 {
      let candidate = directory.appendingPathComponent("rewind-codegen")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      directory.deleteLastPathComponent()
    }
    throw CocoaError(.fileNoSuchFile)
  }

  func run(_ arguments: [String]) throws -> Run {
    let process = Process()
    process.executableURL = try Self.tool()
    process.arguments = arguments
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let out = output.fileHandleForReading.readDataToEndOfFile()
    let err = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Run(
      status: process.terminationStatus, output: String(decoding: out, as: UTF8.self),
      errors: String(decoding: err, as: UTF8.self))
  }

  func temporaryFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "rewind-codegen-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }

  @Test func itWritesTheFileAndLeavesItAloneWhenNothingChanged() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let source = folder.appendingPathComponent("Model.swift")
    try "struct Item: Codable { var id: Int }\n".write(
      to: source, atomically: true, encoding: .utf8)
    let output = folder.appendingPathComponent("Generated.swift")
    let first = try run(["--output", output.path, "--report", source.path])
    #expect(first.status == 0)
    #expect(
      first.output == "\(source.path):1: note: Item: generated encodeJSON(to:) and init(json:)\n")
    let text = try String(contentsOf: output, encoding: .utf8)
    #expect(text.contains("extension Item: JSONDirectCodable {"))
    // Marked as written long ago: a rewrite would give it today's date.
    let past = Date(timeIntervalSince1970: 1_000_000_000)
    try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: output.path)
    #expect(try run(["--output", output.path, source.path]).status == 0)
    let again = try FileManager.default.attributesOfItem(atPath: output.path)[.modificationDate]
    #expect(again as? Date == past)
  }

  @Test func aFileWhoseBracesItCannotMatchIsAWarningOnEveryBuild() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let source = folder.appendingPathComponent("Model.swift")
    try "struct Item: Codable { var id: Int }\n}\n".write(
      to: source, atomically: true, encoding: .utf8)
    let output = folder.appendingPathComponent("Generated.swift")
    let result = try run(["--output", output.path, source.path])
    #expect(result.status == 0)
    #expect(
      result.errors
        == "\(source.path):2: warning: a '}' that closes nothing: the generator cannot match this"
        + " file's braces, so it generates nothing for the target (please report the file)\n")
    #expect(!(try String(contentsOf: output, encoding: .utf8)).contains("extension"))
  }

  @Test func aFileItCannotReadIsAnErrorThatNamesIt() throws {
    let result = try run(["--report", "/nonexistent/Model.swift"])
    #expect(result.status == 1)
    #expect(result.errors.hasPrefix("error: /nonexistent/Model.swift: cannot read it ("))
  }

  @Test(arguments: [[], ["--output"], ["--verbose", "A.swift"]])
  func aWrongCommandLineShowsTheUsage(arguments: [String]) throws {
    let result = try run(arguments)
    #expect(result.status == 2)
    #expect(result.errors.hasPrefix("error: "))
    #expect(result.errors.contains("usage: rewind-codegen --output FILE"))
  }
}
