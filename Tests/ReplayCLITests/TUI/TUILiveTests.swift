import Foundation
import Rewind
import RewindExamples
import RewindReplay
import RewindReplayService
import Testing

@testable import ReplayCLI
@testable import RewindServers

/// `replay tui --listen`: a model fed a log that grows, as the live feed feeds it the app's
/// saved log each time it grew.
@Suite struct TUILiveTests {
  /// The greeting of the app the tests pretend is connected.
  static let hello = LiveProtocol.Hello(
    token: "", app: "counter", session: "0123456789abcdef", host: "test-host", pid: 42, build: "")

  /// A counter app recording to a log in a new folder, and a live model of that log.
  final class LiveApp {
    let store = Store(initialState: CounterState(), reducer: counterReducer)
    let recorder: Recorder<CounterState, CounterAction>
    let path: String

    init(directory: URL) throws {
      path = directory.appendingPathComponent("live.jsonl").path
      recorder = try store.startRecording(
        to: path, app: "counter", options: RecordingOptions(checkpointInterval: 4))
    }

    /// Dispatches `actions`, each written to the file before `dispatch` returns.
    func dispatch(_ actions: [CounterAction]) {
      for action in actions { store.dispatch(action) }
    }

    /// The log as it is now, as the feed reads it again.
    func opened() throws -> OpenedLog {
      try OpenedLog(path: path, recovery: .tail, apps: ReplayRun.apps)
    }
  }

  @Test func theCursorFollowsTheEndUntilItIsMoved() throws {
    try CLIFixture.withTemporaryDirectory { directory in
      let app = try LiveApp(directory: directory)
      defer { app.recorder.close() }
      app.dispatch([.increment, .increment, .add(5)])
      let model = TUIModel(opened: try app.opened(), width: 100, height: 30)
      model.startLive(TUILiveStatus(hello: Self.hello))
      #expect(model.position == 3)
      #expect(model.service.isLive)
      #expect(
        model.screen.hasPrefix(
          " replay · live · app counter (session 01234567, host test-host) · 3 actions · "
            + "position 3/3"))
      // The app goes on: its log is not cut off, and its last action needs no '!' in process.
      #expect(model.log.isCutOff)
      #expect(!model.screen.contains("cut off"))
      #expect(!model.needsConfirmation(3))

      app.dispatch([.increment, .decrement])
      model.grew(to: try app.opened())
      #expect(model.log.lastSeq == 5)
      #expect(model.position == 5)
      #expect(model.screen.contains("> 5"))
      #expect(model.screen.contains("State at 5"))

      // ← moves the cursor off the end: it stays there as actions arrive.
      model.type("\u{1B}[D")
      #expect(model.position == 4)
      app.dispatch([.increment, .increment])
      model.grew(to: try app.opened())
      #expect(model.log.lastSeq == 7)
      #expect(model.position == 4)
      #expect(model.screen.contains("position 4/7"))

      // End goes back to the end, and the cursor follows it again; a skipped action stays
      // skipped.
      model.type("\u{1B}[F")
      model.type(":skip 3\r")
      #expect(model.service.skips == [3])
      app.dispatch([.add(2)])
      model.grew(to: try app.opened())
      #expect(model.position == 8)
      // New actions leave the message row as it was.
      #expect(
        model.messages.map(\.text) == [
          "skipping action 3: states from position 3 on are recomputed without it (1 skipped)"
        ])
      #expect(model.stops.isEmpty)
      #expect(model.service.skips == [3])
      #expect(model.screen.contains("State at 8"))
      #expect(model.screen.contains("count: 6"))
    }
  }

  @Test func aWatchpointStopsTheViewOnTheNewActionThatHitsIt() throws {
    try CLIFixture.withTemporaryDirectory { directory in
      let app = try LiveApp(directory: directory)
      defer { app.recorder.close() }
      app.dispatch([.increment, .increment])
      let model = TUIModel(opened: try app.opened(), width: 100, height: 30)
      model.startLive(TUILiveStatus(hello: Self.hello))
      model.type(":watch count\r")
      #expect(model.messages.map(\.text) == ["watchpoint 1: count (now 2)"])

      // `add 0` leaves count as it is: the view stops on the increment, the third new action.
      app.dispatch([.add(0), .add(0), .increment, .add(0)])
      #expect(model.grew(to: try app.opened()))
      #expect(model.log.lastSeq == 6)
      #expect(model.position == 5)
      #expect(model.stops == [5])
      #expect(
        model.messages.map(\.text) == [
          "live: stopped by 1: count: 2 → 3; the app goes on (End follows it again)"
        ])
      #expect(model.service.debugger.breakpoints.count == 1)

      // It stays there as more actions arrive, watchpoint hits or not.
      app.dispatch([.increment])
      #expect(!model.grew(to: try app.opened()))
      #expect(model.position == 5)
      #expect(model.log.lastSeq == 7)

      // A stop on the last action: the view stays there too, until the user moves it.
      model.type("\u{1B}[F")
      app.dispatch([.add(0), .decrement])
      #expect(model.grew(to: try app.opened()))
      #expect(model.position == 9)
      app.dispatch([.increment])
      #expect(!model.grew(to: try app.opened()))
      #expect(model.position == 9)
      #expect(model.stops == [5, 9])

      // No hit among the new actions: the view follows to the end.
      model.type("\u{1B}[F")
      #expect(model.position == 10)
      app.dispatch([.add(0), .add(0)])
      #expect(!model.grew(to: try app.opened()))
      #expect(model.position == 12)
    }
  }

  @Test func theHeaderSaysWhatTheListenerReported() throws {
    try CLIFixture.withTemporaryDirectory { directory in
      let app = try LiveApp(directory: directory)
      defer { app.recorder.close() }
      app.dispatch([.increment])
      let model = TUIModel(opened: try app.opened(), width: 120, height: 30)
      var status = TUILiveStatus(hello: Self.hello)
      let connected = LiveListener.App(
        connection: 1, hello: Self.hello, path: app.path, resumes: false)
      #expect(status.note(.received(connected, lastSeq: 1, dropped: 0)) == nil)
      #expect(status.note(.received(connected, lastSeq: 9, dropped: 7)) == nil)
      #expect(status.dropped == 7)
      var other = Self.hello
      other.session = "fedcba9876543210"
      other.app = "todo"
      let second = LiveListener.App(
        connection: 2, hello: other, path: "/tmp/todo.jsonl", resumes: false)
      // Another app's connection is the model's to add (TUILiveAppsTests).
      #expect(status.note(.connected(second)) == nil)
      // Drops of another app are not this one's.
      #expect(status.note(.received(second, lastSeq: 3, dropped: 2)) == nil)
      #expect(status.dropped == 7)
      #expect(
        status.note(.disconnected(connected, reason: "the app closed its recorder"))
          == TUIMessageLine(
            text: "counter disconnected: the app closed its recorder", isError: false))
      model.startLive(status)
      #expect(
        model.screen.hasPrefix(
          " replay · disconnected · app counter (session 01234567, host test-host) · 7 dropped · "
            + "1 action · position 1/1 · cut off"))
      // Gone without closing its recorder, the app may have crashed on its last action: in
      // process, it is rebuilt only after '!'.
      #expect(model.needsConfirmation(1))
      model.resize(width: 120, height: 8)
      #expect(model.screen.contains("1/1 increment") && model.screen.contains(" · disconnected · "))
      #expect(
        status.note(
          .connected(
            LiveListener.App(connection: 3, hello: Self.hello, path: app.path, resumes: true)))?
          .text
          == "counter reconnected")
      #expect(status.disconnected == nil)
    }
  }
}
