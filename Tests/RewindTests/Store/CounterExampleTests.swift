import Foundation
import Rewind
import RewindExamples
import Testing

private func json(_ value: some Encodable) throws -> String {
  let encoder = JSONEncoder()
  encoder.outputFormatting = .sortedKeys
  return String(decoding: try encoder.encode(value), as: UTF8.self)
}

@Suite struct CounterExampleTests {
  @Test func incrementAndDecrementChangeTheCountByOne() {
    #expect(counterReducer.reduced(CounterState(count: 3), .increment).count == 4)
    #expect(counterReducer.reduced(CounterState(count: 3), .decrement).count == 2)
    #expect(counterReducer.reduced(CounterState(count: 0), .decrement).count == -1)
  }

  @Test(arguments: [0, 1, 5, -5, 1_000_000])
  func addChangesTheCountByTheAmount(amount: Int) {
    #expect(counterReducer.reduced(CounterState(count: 10), .add(amount)).count == 10 + amount)
  }

  @Test func arithmeticWrapsAroundInsteadOfTrapping() {
    #expect(counterReducer.reduced(CounterState(count: .max), .increment).count == .min)
    #expect(counterReducer.reduced(CounterState(count: .min), .decrement).count == .max)
    #expect(counterReducer.reduced(CounterState(count: .max), .add(2)).count == .min + 1)
    #expect(counterReducer.reduced(CounterState(count: .min), .add(-1)).count == .max)
  }

  @Test func newStateStartsAtZero() {
    #expect(CounterState().count == 0)
  }

  @Test(arguments: [
    (CounterAction.increment, #"{"increment":{}}"#),
    (CounterAction.decrement, #"{"decrement":{}}"#),
    (CounterAction.add(5), #"{"add":{"_0":5}}"#),
    (CounterAction.add(-12), #"{"add":{"_0":-12}}"#),
  ])
  func actionEncodesAsSynthesizedCodableShape(action: CounterAction, expected: String) throws {
    #expect(try json(action) == expected)
    #expect(try JSONDecoder().decode(CounterAction.self, from: Data(expected.utf8)) == action)
  }

  @Test func stateEncodesAsItsCount() throws {
    #expect(try json(CounterState(count: 3)) == #"{"count":3}"#)
    let decoded = try JSONDecoder().decode(CounterState.self, from: Data(#"{"count":-4}"#.utf8))
    #expect(decoded == CounterState(count: -4))
  }

  @Test func storeRunsTheCounterReducer() {
    let store = Store(initialState: CounterState(), reducer: counterReducer)
    for action in [CounterAction.increment, .increment, .add(10), .decrement] {
      store.dispatch(action)
    }
    #expect(store.state == CounterState(count: 11))
    #expect(store.reducedCount == 4)
  }
}
