import Foundation
import RewindJSON
import RewindReplay
import Testing

@testable import ReplayCLI

/// A file begun by a rotation whose initial state never came (its header says the state follows;
/// the app stopped before the `state` record was written): the newest file of a crash log sent
/// alone. It opens: what needs no state (`info`, `actions`, `compat`) works, states from its first
/// checkpoint on are rebuilt, and a state before it — or a command that needs the initial state
/// (`verify`, `export`, `shrink`, `diff`) — fails saying what is missing and how to read it.
@Suite struct MissingInitialStateTests {
  static let lines = [
    #"{"kind":"header","format":"rewind","version":2,"session":"s","app":"counter","#
      + #""actionType":"CounterAction","stateType":"CounterState","#
      + #""recordedAt":"2026-11-21T10:00:00Z","firstSeq":4,"stateFollows":true}"#,
    #"{"kind":"action","seq":4,"type":"increment","action":{"increment":{}}}"#,
    #"{"kind":"checkpoint","seq":4,"state":{"count":4}}"#,
    #"{"kind":"action","seq":5,"type":"increment","action":{"increment":{}}}"#,
    #"{"kind":"action","seq":6,"type":"increment","action":{"increment":{}}}"#,
  ]

  static func write() throws -> String {
    let path = try PowerTools.temporaryDirectory().appendingPathComponent("newest.jsonl").path
    try (lines.joined(separator: "\n") + "\n").write(
      toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  @Test func theLogOpensAndRebuildsFromItsFirstCheckpoint() throws {
    let log = try ReplayLog(path: try Self.write())
    #expect(log.isInitialStateMissing)
    #expect(log.header.state == .null)
    #expect(log.positions == 3...6)
    #expect(log.checkpointSeqs == [4])
    guard case .headerStateMissing(_, let seq) = log.initialStateError else {
      Issue.record("\(log.initialStateError)")
      return
    }
    #expect(seq == 3)
    let app = try #require(PowerTools.apps.first)
    let timeline = try app.timeline(for: log)
    #expect(try timeline.stateJSON(at: 6) == .object([JSONMember("count", .number("6"))]))
    #expect(try timeline.stateJSON(at: 4) == .object([JSONMember("count", .number("4"))]))
    #expect(throws: ReplayError.self) { try timeline.stateJSON(at: 3) }
    #expect(throws: DebuggerError.self) {
      try Debugger.state(of: log, timeline: nil, at: 3)
    }
  }

  @Test func whatNeedsNoInitialStateWorks() throws {
    let path = try Self.write()
    let info = PowerTools.run(["info", path, "--no-isolate"])
    #expect(info.status == 0, "\(info.err)")
    #expect(
      info.out.contains(
        "initial state:  not in the file (the app stopped before the rotation wrote it); "
          + "states that can be rebuilt: from the checkpoint at seq 4 on"))
    let json = PowerTools.run(["info", path, "--json", "--no-isolate"])
    #expect(json.out.contains(#""initialStateMissing":true"#))
    let actions = PowerTools.run(["actions", path])
    #expect(actions.status == 0, "\(actions.err)")
    #expect(actions.out.split(separator: "\n").count == 3)
    let compat = PowerTools.run(["compat", path])
    #expect(compat.status == 0, "\(compat.out) \(compat.err)")
    let last = PowerTools.run(["state", path, "--json", "--no-isolate"])
    #expect(last.status == 0, "\(last.err)")
    #expect(last.out == #"{"count":6}"# + "\n")
  }

  @Test(arguments: [
    ["state", "--at", "3", "--no-isolate"], ["verify", "--no-isolate"],
    ["export", "--html", "page.html", "--no-isolate"],
    ["shrink", "--until", "count >= 5", "--output", "min.jsonl"], ["diff", "SAME"],
  ])
  func whatNeedsTheInitialStateSaysItIsMissing(_ command: [String]) throws {
    let path = try Self.write()
    let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
    let arguments =
      [command[0], path]
      + command.dropFirst().map { argument in
        argument == "SAME"
          ? path
          : argument.hasSuffix(".html") || argument.hasSuffix("min.jsonl")
            ? directory.appendingPathComponent(argument).path : argument
      }
    let run = PowerTools.run(arguments)
    #expect(run.status == 2, "\(run.out)")
    #expect(run.err.contains("newest.jsonl:1: the file's initial state (the state after action 3"))
    #expect(run.err.contains("hint: open the folder that holds the session's files"))
  }

  /// The session starts at the first checkpoint, the first state known, and says why; a search
  /// runs from there.
  @Test func theSessionStartsAtTheFirstCheckpoint() throws {
    let path = try Self.write()
    let run = PowerTools.run(
      [path, "--no-isolate"], input: ["print", "break if count == 6", "continue", "goto first"])
    #expect(
      run.out.contains(
        "the file's initial state is not in it: states from the checkpoint at position 4 on "
          + "can be rebuilt"))
    #expect(run.out.contains("at position 4 (the first checkpoint)."))
    #expect(run.out.contains("{\n  \"count\": 4\n}"))
    #expect(run.out.contains("stopped by 1: break if count == 6 (now 6)"))
    #expect(run.err.contains("the file's initial state (the state after action 3"), "goto first")
  }

  /// The full-screen debugger starts there too, its state shown.
  @Test func theTerminalDebuggerStartsAtTheFirstCheckpoint() throws {
    let model = try TUIFixture.model(path: try Self.write())
    #expect(model.position == 4)
    #expect(model.log.isInitialStateMissing)
  }
}
