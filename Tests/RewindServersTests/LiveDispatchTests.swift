import Dispatch
import Foundation
import Rewind
import RewindExamples
import RewindJSON
import RewindReplay
import RewindServers
import Testing

/// The viewer sending actions back into the app (``LiveViewer/acceptsActions``): dispatched
/// through the store's path, recorded with `"via":"viewer"`, answered with their `seq`; refused,
/// saying why, by an app that did not opt in and for an action that does not decode.
@Suite(.serialized) struct LiveDispatchTests {
  typealias Live = LiveConnectionTests

  /// The answers the listener reported.
  static func answers(_ events: Live.Events) -> [LiveProtocol.DispatchAnswer] {
    events.all.compactMap {
      if case .dispatchAnswered(_, let answer) = $0 { return answer }
      return nil
    }
  }

  /// The connection number of the first app connected.
  static func connection(_ events: Live.Events) -> Int? {
    for event in events.all {
      if case .connected(let app) = event { return app.connection }
    }
    return nil
  }

  /// A listener in `folder`, and a counter store recording to it (and to `app.jsonl`).
  static func start(in folder: String, acceptsActions: Bool) throws -> (
    LiveListener, Live.Events, Store<CounterState, CounterAction>,
    Recorder<CounterState, CounterAction>
  ) {
    let socket = "\(folder)/v.sock"
    let events = Live.Events()
    let listener = try Live.listener(.unix(path: socket), token: "t0k", in: folder, events: events)
    let store = Store(initialState: CounterState(), reducer: counterReducer)
    let recorder = try store.startRecording(
      to: "\(folder)/app.jsonl", app: "counter",
      options: RecordingOptions(
        liveViewer: LiveViewer(
          address: .unixSocket(path: socket), token: "t0k", acceptsActions: acceptsActions)))
    return (listener, events, store, recorder)
  }

  @Test func anAppThatAcceptsActionsDispatchesTheViewersThroughItsStoreAndRecordsThemAsSuch()
    throws
  {
    try Live.withFolder { folder in
      let (listener, events, store, recorder) = try Self.start(in: folder, acceptsActions: true)
      // The store's own wiring dispatches on the main queue; a test's main queue does not run,
      // so the test's store takes them on a queue of its own, as an app's own store would.
      let queue = DispatchQueue(label: "test store")
      recorder.onViewerAction(on: queue) { action, origin in store.dispatch(action, origin: origin)
      }
      store.dispatch(.increment)
      #expect(Live.eventually(30) { Self.connection(events) != nil })
      let number = try #require(Self.connection(events))
      #expect(
        events.all.contains {
          if case .connected(let app) = $0 { return app.hello.acceptsActions }
          return false
        })

      let add = try RewindJSONEncoder().encodeValue(CounterAction.add(40))
      let id = try listener.dispatch(add, toConnection: number)
      #expect(Live.eventually(30) { Self.answers(events).contains { $0.id == id } })
      #expect(Self.answers(events).first { $0.id == id } == .dispatched(id: id, seq: 2))
      #expect(store.state.count == 41)

      // An action of another type is refused with the decoder's reason, as every decode error
      // gives it, and how to write one; nothing is dispatched.
      let wrong = try JSONParser.parse(Array(#"{"launch":{"rockets":3}}"#.utf8))
      let refusedID = try listener.dispatch(wrong, toConnection: number)
      #expect(Live.eventually(30) { Self.answers(events).contains { $0.id == refusedID } })
      guard case .refused(let refusal) = Self.answers(events).first(where: { $0.id == refusedID })
      else {
        Issue.record("the action was not refused: \(Self.answers(events))")
        return
      }
      #expect(
        refusal.reason
          == "the action does not decode as CounterAction: Invalid number of keys found, expected one; write it as the log writes CounterAction (a recorded action's line, or `action N` in replay, shows one)"
      )
      store.dispatch(.decrement)
      #expect(store.state.count == 40)
      recorder.close()
      #expect(Live.eventually(30) { events.disconnections == 1 })
      listener.stop()

      // The app's file and the viewer's copy both say where #2 came from.
      for path in ["\(folder)/app.jsonl", "\(folder)/saved.jsonl"] {
        let log = try ReplayLog(path: path)
        #expect(log.faults.isEmpty, "\(path): \(log.faults)")
        #expect(log.lastSeq == 3)
        #expect(try log.action(at: 2).via == "viewer")
        #expect(try log.action(at: 2).type == "add")
        #expect(try log.action(at: 1).via == nil)
        #expect(try log.action(at: 3).via == nil)
      }
      let line = try Live.lines("\(folder)/app.jsonl", kind: "action")[1]
      #expect(line.contains(#""type":"add","via":"viewer","action":{"add":{"_0":40}}"#), "\(line)")
    }
  }

  @Test func anAppThatDidNotOptInRefusesTheViewersActionsAndItsStateIsUntouched() throws {
    try Live.withFolder { folder in
      let (listener, events, store, recorder) = try Self.start(in: folder, acceptsActions: false)
      store.dispatch(.increment)
      #expect(Live.eventually(30) { Self.connection(events) != nil })
      let number = try #require(Self.connection(events))
      #expect(
        !events.all.contains {
          if case .connected(let app) = $0 { return app.hello.acceptsActions }
          return false
        })
      let id = try listener.dispatch(
        RewindJSONEncoder().encodeValue(CounterAction.add(5)), toConnection: number)
      #expect(Live.eventually(30) { Self.answers(events).contains { $0.id == id } })
      guard case .refused(let refusal) = Self.answers(events).first(where: { $0.id == id }) else {
        Issue.record("the action was not refused: \(Self.answers(events))")
        return
      }
      #expect(refusal.reason.contains("does not accept actions from the viewer"))
      #expect(refusal.reason.contains("acceptsActions: true"))
      #expect(store.state.count == 1)
      recorder.close()
      #expect(Live.eventually(30) { events.disconnections == 1 })
      listener.stop()
      #expect(try ReplayLog(path: "\(folder)/app.jsonl").lastSeq == 1)
    }
  }

  @Test func theRequestAndAnswerLinesReadBack() throws {
    let action = try JSONParser.parse(Array(#"{"add":{"_0":3}}"#.utf8))
    let request = LiveProtocol.dispatch(id: 9, action: action)
    #expect(
      String(decoding: request, as: UTF8.self)
        == #"{"kind":"live-dispatch","id":9,"action":{"add":{"_0":3}}}"# + "\n")
    let parsed = try LiveProtocol.parseDispatch(Array(request.dropLast())).get()
    #expect(parsed.id == 9)
    #expect(String(decoding: parsed.action, as: UTF8.self) == #"{"add":{"_0":3}}"#)
    #expect(
      LiveProtocol.parseDispatchAnswer(Array(LiveProtocol.dispatched(id: 9, seq: 12).dropLast()))
        == .dispatched(id: 9, seq: 12))
    let refusal = LiveProtocol.DispatchRefusal(id: 4, reason: "no")
    #expect(
      LiveProtocol.parseDispatchAnswer(Array(LiveProtocol.dispatchRefused(refusal).dropLast()))
        == .refused(refusal))
    // The log's own lines are not answers.
    #expect(LiveProtocol.parseDispatchAnswer(Array(#"{"c":"00000000","kind":"end"}"#.utf8)) == nil)
    // A request without an action is refused by number; anything else is not a request.
    #expect(
      LiveProtocol.parseDispatch(Array(#"{"kind":"live-dispatch","id":3}"#.utf8))
        == .failure(LiveProtocol.DispatchRefusal(id: 3, reason: "the request has no action")))
    guard case .failure(let other) = LiveProtocol.parseDispatch(Array("garbage".utf8)) else {
      Issue.record("garbage parsed as a request")
      return
    }
    #expect(other.id == 0)
    let hello = LiveProtocol.Hello(
      token: "t", app: "a", session: "s", host: "h", pid: 1, build: "", acceptsActions: true)
    #expect(try LiveProtocol.Hello.parse(Array(hello.line.dropLast())).get().acceptsActions)
  }
}
