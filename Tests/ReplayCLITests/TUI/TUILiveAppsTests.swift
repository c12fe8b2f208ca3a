import Foundation
import Rewind
import RewindExamples
import RewindReplay
import RewindReplayService
import Testing

@testable import ReplayCLI
@testable import RewindServers

/// `replay tui --listen` with several apps connected: one shown at a time, each keeping its own
/// view, a new one never taking the view, `a` and `A` switching.
@Suite struct TUILiveAppsTests {
  /// Opens logs as the feed does, and records what `:dispatch` asked for.
  final class Source: TUILiveSource {
    var dispatched: [String] = []

    func open(_ path: String) -> Result<OpenedLog, CommandFailure> {
      do throws(ReplayError) {
        return .success(try OpenedLog(path: path, recovery: .tail, apps: ReplayRun.apps))
      } catch {
        return .failure(.replay(error))
      }
    }

    func dispatch(_ text: String, in model: TUIModel) {
      dispatched.append(text)
    }
  }

  /// The second app's greeting: another session.
  static let secondHello = LiveProtocol.Hello(
    token: "", app: "todo", session: "fedcba9876543210", host: "test-host", pid: 43, build: "")

  /// Runs `body` with two counter apps recording in a temporary folder and a live model showing
  /// the first; their recorders are closed afterwards.
  static func withTwoApps(
    _ body: (TUILiveTests.LiveApp, TUILiveTests.LiveApp, TUIModel, Source) throws -> Void
  ) throws {
    try CLIFixture.withTemporaryDirectory { directory in
      let (first, second, model, source) = try twoApps(in: directory)
      defer {
        first.recorder.close()
        second.recorder.close()
      }
      try body(first, second, model, source)
    }
  }

  /// Two counter apps recording in `directory`, and a live model showing the first.
  private static func twoApps(
    in directory: URL
  ) throws -> (TUILiveTests.LiveApp, TUILiveTests.LiveApp, TUIModel, Source) {
    let folders = ["first", "second"].map { directory.appendingPathComponent($0) }
    for folder in folders {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }
    let first = try TUILiveTests.LiveApp(directory: folders[0])
    let second = try TUILiveTests.LiveApp(directory: folders[1])
    first.dispatch([.increment, .increment, .add(5)])
    second.dispatch([.add(10)])
    let model = TUIModel(opened: try first.opened(), width: 140, height: 30)
    let source = Source()
    model.startLive(TUILiveStatus(hello: TUILiveTests.hello, path: first.path))
    model.liveSource = source
    return (first, second, model, source)
  }

  @Test func aSecondAppJoinsWithoutTakingTheViewAndAKeySwitchesBetweenThem() throws {
    try Self.withTwoApps { first, second, model, _ in
      let secondApp = LiveListener.App(
        connection: 2, hello: Self.secondHello, path: second.path, resumes: false)
      #expect(model.note(.connected(secondApp)))
      #expect(model.liveApps.map(\.app) == ["counter", "todo"])
      #expect(model.shownApp == 0)
      #expect(model.position == 3)
      #expect(
        model.messages.map(\.text) == [
          "another app connected: todo (session fedcba98, host test-host); a shows it (app 2 of "
            + "2); saved to \(second.path)"
        ])
      #expect(
        model.screen.hasPrefix(
          " replay · live · app counter (session 01234567, host test-host) · app 1 of 2, 1 new "
            + "(a) · 3 actions · position 3/3"))

      // The first app's cursor is moved off its end; `a` shows the second app, at its end.
      model.type("\u{1B}[D")
      #expect(model.position == 2)
      model.type("a")
      #expect(model.shownApp == 1)
      #expect(model.log.path == second.path)
      #expect(model.position == 1)
      #expect(
        model.messages.map(\.text) == [
          "viewing app 2 of 2: todo (session fedcba98, host test-host)"
        ])
      #expect(
        model.screen.hasPrefix(
          " replay · live · app todo (session fedcba98, host test-host) · app 2 of 2 · 1 action "
            + "· position 1/1"))
      model.type(":watch count\r")
      #expect(model.service.debugger.breakpoints.count == 1)

      // Both apps go on; the one shown follows its end.
      second.dispatch([.increment, .add(0)])
      first.dispatch([.increment])
      model.grew(to: try second.opened())
      #expect(model.position == 2)
      #expect(model.stops == [2])

      // `A` goes back to the first app as it was left: its cursor where it was moved, its log
      // read again as the feed reads it, the cursor staying put.
      model.type("A")
      #expect(model.shownApp == 0)
      #expect(model.log.path == first.path)
      #expect(model.position == 2)
      #expect(model.service.debugger.breakpoints.isEmpty)
      #expect(model.stops.isEmpty)
      model.grew(to: try first.opened())
      #expect(model.log.lastSeq == 4)
      #expect(model.position == 2)

      // And `a` (after the last app, the first again: it wraps) to the second, as it was.
      model.type("a")
      #expect(model.shownApp == 1)
      #expect(model.position == 2)
      #expect(model.stops == [2])
      #expect(model.service.debugger.breakpoints.count == 1)
      model.type("a")
      #expect(model.shownApp == 0)
      model.type("A")
      #expect(model.shownApp == 1)
    }
  }

  @Test func theEventsOfAnAppNotShownGoToItsOwnStatus() throws {
    try Self.withTwoApps { first, second, model, _ in
      let secondApp = LiveListener.App(
        connection: 2, hello: Self.secondHello, path: second.path, resumes: false)
      model.note(.connected(secondApp))
      model.messages = []
      #expect(model.note(.received(secondApp, lastSeq: 9, dropped: 2)))
      #expect(model.liveApps.map(\.dropped) == [0, 2])
      #expect(model.messages.isEmpty)
      #expect(!model.screen.contains("dropped"))
      model.note(.disconnected(secondApp, reason: "the app closed its recorder"))
      #expect(model.messages.map(\.text) == ["todo disconnected: the app closed its recorder"])
      #expect(model.live?.disconnected == nil)
      #expect(model.screen.contains(" · app 1 of 2, 1 new (a), 1 disconnected · "))
      // It comes back: the same session, not a third app.
      model.messages = []
      model.note(
        .connected(
          LiveListener.App(connection: 3, hello: Self.secondHello, path: second.path, resumes: true)
        ))
      #expect(model.liveApps.count == 2)
      #expect(model.messages.map(\.text) == ["todo reconnected"])
      model.type("a")
      #expect(model.screen.contains(" · app 2 of 2 · 2 dropped · "))
    }
  }

  @Test func anAppWhoseLogCannotBeReadYetIsNotShown() throws {
    try Self.withTwoApps { first, second, model, _ in
      let missing = first.path + ".none.jsonl"
      model.note(
        .connected(
          LiveListener.App(connection: 2, hello: Self.secondHello, path: missing, resumes: false)))
      model.type("a")
      #expect(model.shownApp == 0)
      #expect(model.log.path == first.path)
      #expect(model.messages.first?.isError == true)
      #expect(model.messages.first?.text.hasPrefix("todo's log cannot be read yet: ") == true)
    }
  }

  @Test func aAndDispatchNeedRunningApps() throws {
    try Self.withTwoApps { first, second, model, source in
      model.type("a")
      #expect(
        model.messages.map(\.text) == [
          "only counter is connected: a / A switch apps once another one connects"
        ])
      model.type(#":dispatch {"add":{"_0":100}}"# + "\r")
      #expect(source.dispatched == [#"{"add":{"_0":100}}"#])
      model.type(":help\r")
      #expect(
        model.messages.suffix(2).map(\.text) == [
          "Live (replay tui --listen):",
          "  dispatch ACTION   send an action (its JSON) into the app shown, when it accepts "
            + "them; a / A switch apps",
        ])
    }
    let file = try TUIFixture.model("todo-session.jsonl")
    file.type("a")
    #expect(
      file.messages.map(\.text) == [
        "a / A switch between running apps: replay tui --listen, with several connected"
      ])
    file.type(":dispatch {}\r")
    #expect(
      file.messages.map(\.text) == [
        "error: dispatch sends an action into a running app: replay tui --listen (docs/live.md, "
          + "Sending actions back)"
      ])
  }
}
