import Dispatch
import Foundation
import Rewind
import RewindExamples
import Testing

private let workers = 8
private let dispatchesPerWorker = 10_000
private let totalDispatches = workers * dispatchesPerWorker

@Suite struct RecorderConcurrencyTests {
  @Test func concurrentDispatchesAreRecordedInTheOrderSubscribersSee() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("counter.jsonl")
    let store = Store(initialState: CounterState(), reducer: counterReducer)
    // Every action adds a different amount, so the change of the count names the action.
    let reducerOrder = ReducerOrder(of: store)
    let seen = reducerOrder.amounts
    let recorder = try store.startRecording(
      to: path, app: "counter", options: RecordingOptions(checkpointInterval: 1000))

    DispatchQueue.concurrentPerform(iterations: workers) { worker in
      for index in 0..<dispatchesPerWorker {
        store.dispatch(.add(worker * dispatchesPerWorker + index + 1))
      }
    }
    recorder.close()
    reducerOrder.cancel()

    let amounts = seen.elements
    #expect(amounts.count == totalDispatches)
    #expect(Set(amounts).count == totalDispatches)
    let log = try RecordedLog(path: path)
    #expect(log.partialTail.isEmpty)
    #expect(log.lines.count == 1 + totalDispatches + totalDispatches / 1000 + 1)
    #expect(log.checksumProblems(usingReference: false) == [])
    let records = try log.records(CounterAction.self, CounterState.self)
    #expect(RecordedLog.sequenceProblems(records) == [])
    let actions = records.filter { $0.kind == "action" }
    #expect(actions.count == totalDispatches)
    #expect(actions.last?.seq == totalDispatches)
    #expect(actions.map(\.action) == amounts.map { Optional.some(CounterAction.add($0)) })

    var count = 0
    var counts = [0]
    for amount in amounts {
      count += amount
      counts.append(count)
    }
    for checkpoint in records where checkpoint.kind == "checkpoint" {
      #expect(checkpoint.state?.count == counts[checkpoint.seq ?? 0], "\(checkpoint.shape)")
    }
    #expect(records.last?.shape == "end \(totalDispatches)")
  }
}
