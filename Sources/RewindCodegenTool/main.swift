import Foundation
import RewindCodegen

// rewind-codegen: writes the direct JSON path of a target's Codable types (what the
// RewindDirectCoding build plugin runs on every build; docs/recording.md).

let usage = """
  usage: rewind-codegen --output FILE [--module NAME] [--main-actor] [--report] SOURCE.swift...
         rewind-codegen --report [--module NAME] [--main-actor] SOURCE.swift...

  Writes FILE: a JSONDirectCodable conformance for each Codable struct and enum of the sources
  that it can read with certainty, writing and reading the JSON of the type's own Codable.
  --module names the sources' module (an extension may be written `extension NAME.Type`).
  --main-actor says the module's default isolation is the main actor: only types declared
  `nonisolated` get a conformance.
  --report prints, for each Codable type, what was generated or why not.
  """

var output: String?
var moduleName: String?
var printsReport = false
var isMainActorByDefault = false
var sources: [String] = []
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
  switch argument {
  case "--output":
    guard let path = arguments.popFirst() else {
      FileHandle.standardError.write(Data("error: --output needs a file\n\n\(usage)\n".utf8))
      exit(2)
    }
    output = path
  case "--module":
    guard let name = arguments.popFirst() else {
      FileHandle.standardError.write(Data("error: --module needs a name\n\n\(usage)\n".utf8))
      exit(2)
    }
    moduleName = name
  case "--report":
    printsReport = true
  case "--main-actor":
    isMainActorByDefault = true
  case "-h", "--help":
    print(usage)
    exit(0)
  default:
    if argument.hasPrefix("-") {
      FileHandle.standardError.write(Data("error: unknown option '\(argument)'\n\n\(usage)\n".utf8))
      exit(2)
    }
    sources.append(argument)
  }
}
guard output != nil || printsReport else {
  FileHandle.standardError.write(Data("error: give --output FILE or --report\n\n\(usage)\n".utf8))
  exit(2)
}

var generator = DirectCodingGenerator(
  moduleName: moduleName, isMainActorByDefault: isMainActorByDefault)
for path in sources {
  do {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    guard let text = String(data: data, encoding: .utf8) else {
      FileHandle.standardError.write(
        Data("error: \(path): not UTF-8 text; a Swift source file is UTF-8\n".utf8))
      exit(1)
    }
    generator.add(source: text, path: path)
  } catch {
    FileHandle.standardError.write(
      Data("error: \(path): cannot read it (\(error.localizedDescription))\n".utf8))
    exit(1)
  }
}
if printsReport {
  for line in generator.report { print(line) }
} else {
  // A file it could not read stops all generation: said whenever it runs, not only on request.
  for line in generator.report where line.contains(": warning: ") {
    FileHandle.standardError.write(Data((line + "\n").utf8))
  }
}
if let output {
  let text = Data(generator.generatedSource.utf8)
  // Unchanged text is not rewritten, so that the target is not recompiled for nothing.
  if (try? Data(contentsOf: URL(fileURLWithPath: output))) != text {
    do {
      try text.write(to: URL(fileURLWithPath: output), options: .atomic)
    } catch {
      FileHandle.standardError.write(
        Data("error: \(output): cannot write it (\(error.localizedDescription))\n".utf8))
      exit(1)
    }
  }
}
