import Observation
import Rewind
import RewindExamples
import Testing

/// Lets a reducer reach the store it runs in, to break the rules on purpose.
private final class StoreSlot: Sendable {
  let store = Locked<Store<CounterState, CounterAction>?>(nil)
}

/// What `StoreDiagnostics.withHandler` calls with each report.
private typealias ReportHandler = @Sendable (String) -> Void

/// A handler that appends `"<name>: <message>"` to `reports`.
private func collect(as name: String, in reports: StoreTestLog<String>) -> ReportHandler {
  { reports.append("\(name): \($0)") }
}

// `StoreDiagnostics` has one process-wide handler, so the tests that install one run one at a
// time.
@Suite(.serialized) struct StoreDiagnosticsTests {
  @Test func dispatchFromInsideAReducerIsReportedAndIgnored() {
    let slot = StoreSlot()
    let rogue = Reducer<CounterState, CounterAction> { state, action in
      if action == .increment {
        slot.store.withLock { $0 }?.dispatch(.add(5))
      }
    }
    let store = Store(
      initialState: CounterState(), reducer: .combine(counterReducer, rogue))
    slot.store.withLock { $0 = store }
    defer { slot.store.withLock { $0 = nil } }
    let notified = StoreTestLog<Int>()
    let subscription = store.subscribe { notified.append($0.count) }
    let reports = StoreTestLog<String>()

    let record: ReportHandler = { reports.append($0) }
    StoreDiagnostics.withHandler(record) {
      store.dispatch(.increment)
    }

    #expect(
      reports.elements == [
        "Rewind: dispatch(add(5)) was called from inside a reducer of "
          + "Store<CounterState, CounterAction>. A reducer must be a pure function of the state "
          + "and the action. To fix, dispatch follow-up actions from a middleware or a subscriber "
          + "(they are queued after the current action)."
      ])
    #expect(reports.elements.first?.contains("from inside a reducer") == true)
    #expect(store.state.count == 1)
    #expect(store.reducedCount == 1)

    // The store keeps working afterwards.
    store.dispatch(.add(5))
    store.dispatch(.decrement)
    #expect(store.state.count == 5)
    #expect(store.reducedCount == 3)
    #expect(notified.elements == [1, 6, 5])
    _ = subscription
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test func dispatchFromAnObservationChangeHandlerIsQueuedNotReported() {
    let store = Store(initialState: CounterState(), reducer: counterReducer)
    let notified = StoreTestLog<Int>()
    let subscription = store.subscribe { notified.append($0.count) }
    let reports = StoreTestLog<String>()

    let record: ReportHandler = { reports.append($0) }
    StoreDiagnostics.withHandler(record) {
      withObservationTracking {
        _ = store.state
      } onChange: {
        // Not a reducer: like a subscriber's, this dispatch should run after the current action.
        store.dispatch(.add(10))
      }
      store.dispatch(.increment)
    }

    #expect(reports.elements == [])
    #expect(store.state.count == 11)
    #expect(notified.elements == [1, 11])
    _ = subscription
  }

  @Test func withHandlerReceivesReportsAndReturnsTheBodysValue() {
    let reports = StoreTestLog<String>()
    let record: ReportHandler = { reports.append($0) }
    let result = StoreDiagnostics.withHandler(record) { () -> Int in
      StoreDiagnostics.report("first")
      StoreDiagnostics.report("second")
      return 42
    }
    #expect(result == 42)
    #expect(reports.elements == ["first", "second"])
  }

  @Test func nestedHandlerIsReplacedByTheOuterOneWhenItsBodyEnds() {
    let reports = StoreTestLog<String>()
    StoreDiagnostics.withHandler(collect(as: "outer", in: reports)) {
      StoreDiagnostics.report("a")
      StoreDiagnostics.withHandler(collect(as: "inner", in: reports)) {
        StoreDiagnostics.report("b")
      }
      StoreDiagnostics.report("c")
    }
    #expect(reports.elements == ["outer: a", "inner: b", "outer: c"])
  }

  @Test func handlerIsRestoredWhenTheBodyThrows() {
    struct Failure: Error {}
    let reports = StoreTestLog<String>()
    StoreDiagnostics.withHandler(collect(as: "outer", in: reports)) {
      #expect(throws: Failure.self) {
        try StoreDiagnostics.withHandler(collect(as: "inner", in: reports)) {
          throw Failure()
        }
      }
      StoreDiagnostics.report("after")
    }
    #expect(reports.elements == ["outer: after"])
  }
}
