import ReplayCLI
import Testing

@Suite struct OutputTests {
  @Test func capturedOutputKeepsChannelsApartAndInOrder() {
    let output = CapturedOutput()
    output.writeLine("1 action")
    output.emit(.error("bad line", notes: ["0 actions before it"]))
    output.write("(replay) ", to: .standardError)
    output.writeLine()
    #expect(output.standardOutput == "1 action\n\n")
    #expect(output.standardError == "error: bad line\nnote: 0 actions before it\n(replay) ")
    #expect(
      output.combined == "1 action\nerror: bad line\nnote: 0 actions before it\n(replay) \n")
  }

  @Test func emitUsesTheStandardErrorStyle() {
    let output = CapturedOutput(standardOutputStyle: .plain, standardErrorStyle: .colored)
    output.emit(.warning("careful"))
    #expect(output.standardError == "\u{1B}[1m\u{1B}[33mwarning:\u{1B}[39m\u{1B}[22m careful\n")
    #expect(output.style(for: .standardOutput) == .plain)
    #expect(output.style(for: .standardError) == .colored)
  }

  @Test func flushIsCounted() {
    let output = CapturedOutput()
    output.flush()
    output.flush()
    #expect(output.flushCount == 2)
  }

  @Test func concurrentWritesAreKeptWhole() async {
    let output = CapturedOutput()
    await withTaskGroup(of: Void.self) { group in
      for task in 0..<8 {
        group.addTask {
          for line in 0..<100 { output.writeLine("task \(task) line \(line)") }
        }
      }
    }
    let lines = output.standardOutput.split(separator: "\n")
    #expect(lines.count == 800)
    #expect(lines.allSatisfy { $0.hasPrefix("task ") && $0.contains(" line ") })
  }

  @Test func standardOutputDecidesColourPerDescriptor() {
    let onlyStandardError = StandardOutput(environment: [:]) { $0 == 2 }
    #expect(onlyStandardError.style(for: .standardOutput) == .plain)
    #expect(onlyStandardError.style(for: .standardError) == .colored)
    let noColor = StandardOutput(environment: ["NO_COLOR": "1"]) { _ in true }
    #expect(noColor.style(for: .standardError) == .plain)
  }
}
