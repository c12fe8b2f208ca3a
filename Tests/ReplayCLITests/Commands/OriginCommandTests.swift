import Foundation
import RewindJSON
import Testing

/// Where actions came from, in a log recorded with origins (`Fixtures/todo-origins.jsonl`: the
/// todo screen's controls, and the auto-clear middleware's `clearCompleted` after a `toggle`).
@Suite struct OriginCommandTests {
  private let log = CLIFixture.path("todo-origins.jsonl")

  @Test func actionShowsItsCallSiteItsCauseAndWhatItCaused() {
    let run = ReplayRun([log, "-c", "action 38", "-c", "action 39"])
    #expect(run.status == 0)
    let lines = run.outputLines
    #expect(lines.contains("dispatched at RewindExamples/TodoScreen.swift:18"))
    #expect(lines.contains("caused        action 39 clearCompleted"))
    #expect(lines.contains("caused by     action 38 toggle"))
    #expect(run.standardError == "")
  }

  @Test func theJSONFormHasTheSiteTheCauseAndTheEffects() throws {
    let cause = try JSONParser.parse(ReplayRun([log, "--json", "-c", "action 38"]).standardOutput)
    #expect(cause["site"] == .string("RewindExamples/TodoScreen.swift:18"))
    #expect(
      cause["caused"]
        == .array([
          .object([JSONMember("seq", .number("39")), JSONMember("type", .string("clearCompleted"))])
        ]))
    let effect = try JSONParser.parse(ReplayRun([log, "--json", "-c", "action 39"]).standardOutput)
    #expect(effect["cause"] == .number("38"))
    #expect(effect["causeType"] == .string("toggle"))
  }

  @Test func listTreeShowsEachEffectUnderItsCause() {
    let run = ReplayRun([log, "-c", "goto 39", "-c", "list 3 --tree"])
    #expect(run.status == 0)
    let listed = run.outputLines.suffix(3).map { $0.replacingOccurrences(of: "  ", with: " ") }
    #expect(listed.count == 3)
    #expect(listed[0].contains("38") && listed[0].contains("toggle"))
    #expect(listed[1].hasPrefix("> 39") && listed[1].contains("└ clearCompleted"))
    #expect(!listed[1].contains("← 38"))  // the indent says it
    // The flat list names the cause instead.
    let flat = ReplayRun([log, "-c", "goto 39", "-c", "list 1"]).outputLines.last ?? ""
    #expect(
      flat.contains("clearCompleted") && flat.contains("← 38")
        && flat.contains("@ TodoScreen.swift:58"))
  }

  @Test func whereFindsTheSourceFileAndTheLineIsTheDispatch() throws {
    let root = CLIFixture.packageRoot.path
    let run = ReplayRun([log, "-c", "where 39 --source \(root)"])
    #expect(run.status == 0)
    let first = run.outputLines.dropFirst().first ?? ""  // after the echoed command
    #expect(first == "Sources/RewindExamples/TodoScreen.swift:58", "\(run.outputLines)")
    #expect(run.outputLines.contains("  Xcode: xed -l 58 Sources/RewindExamples/TodoScreen.swift"))
    // The recorded line is the middleware's dispatch.
    let source = try String(
      contentsOf: CLIFixture.packageRoot.appendingPathComponent(
        "Sources/RewindExamples/TodoScreen.swift"), encoding: .utf8)
    let line = source.split(separator: "\n", omittingEmptySubsequences: false)[57]
    #expect(line.contains("context.dispatch(.clearCompleted)"))
    let json = try JSONParser.parse(
      ReplayRun([log, "--json", "-c", "where 39 --source \(root)"]).standardOutput)
    #expect(json["file"] == .string("RewindExamples/TodoScreen.swift"))
    #expect(json["line"] == .number("58"))
    #expect(json["path"] == .string("Sources/RewindExamples/TodoScreen.swift"))
  }

  @Test func aLogWithoutOriginsSaysHowToRecordThem() {
    let run = ReplayRun([CLIFixture.path("todo-session.jsonl"), "-c", "where 5"])
    #expect(run.status != 0)
    #expect(
      run.standardError.contains(
        "action 5 has no call site: the log was recorded without origins (turn on "
          + "RecordingOptions.recordsOrigins"))
    // And the old fixtures list as they always did.
    let listed = ReplayRun([CLIFixture.path("todo-session.jsonl"), "-c", "list 3"]).standardOutput
    #expect(!listed.contains("@ ") && !listed.contains("← "))
  }
}
