import Rewind
import RewindJSON
import RewindReplay

/// Finds the fewest recorded actions of the service's log that still reach a condition (a crash,
/// or a state where a path compares as asked) by delta debugging, each candidate replayed whole
/// in a worker process, and composes them into a new log (`replay shrink`). Answered with a
/// ``ShrinkResponse``; the service's ``ReplayService/onProgress`` hears of each candidate.
package struct ShrinkRequest: ReplayRequest, Equatable {
  /// What the shrunk log must still reach.
  package var condition: ShrinkCondition
  /// At most this many replays.
  package var maxReplays: Int

  /// A shrink until `condition`, in at most `maxReplays` replays.
  package init(until condition: ShrinkCondition, maxReplays: Int = 2000) {
    self.condition = condition
    self.maxReplays = maxReplays
  }

  /// - Throws: ``DebuggerError/noReducer`` without the app; ``ReplayFailure/usage(_:)`` when the
  ///   whole log does not reach the condition.
  package func run(on service: ReplayService) throws(ReplayFailure) -> ShrinkResponse {
    let log = service.log
    guard !log.isInitialStateMissing else { throw .debugger(.replay(log.initialStateError)) }
    guard let local = service.opened.localTimeline else { throw .debugger(.noReducer) }
    // A worker of its own, gone when this returns, with the state it last sent (as large as the
    // app's state), before the shrunk log is written.
    let isolated = IsolatedTimeline(local: local, recovery: log.recovery, reportsFrames: false)
    var seqs: [Int] = []
    if log.actionCount > 0 {
      for seq in log.firstSeq...log.lastSeq
      where (try? log.action(at: seq))?.status == .recorded { seqs.append(seq) }
    }
    func test(_ candidate: [Int]) -> Bool {
      let outcome: Result<[UInt8], ReplayError>
      do { outcome = .success(try isolated.stateJSONText(runningOnly: candidate)) } catch {
        outcome = .failure(error)
      }
      return condition.isSatisfied(by: outcome)
    }
    guard test(seqs) else {
      throw .usage("the whole log does not reach the condition '\(condition.description)'")
    }
    let progress = service.onProgress
    let result = DeltaDebugging.minimize(seqs, maxTests: max(1, maxReplays - 1)) { size, _ in
      progress?(seqs.count - size, seqs.count)
    } test: {
      test($0)
    }
    progress?(seqs.count, seqs.count)
    var composer = LogComposer(
      header: LogComposer.Header(
        app: log.header.app, actionType: log.header.actionType, stateType: log.header.stateType,
        stateJSON: Self.headerStateJSON(log)))
    var kept: [RecordedAction] = []
    for seq in result.items {
      guard let action = try? log.action(at: seq), let payload = action.payload else { continue }
      composer.appendAction(payload, time: action.time)
      kept.append(action)
    }
    return ShrinkResponse(
      condition: condition, recordedCount: seqs.count, kept: kept, replays: result.tests + 1,
      isBudgetExhausted: result.budgetExhausted, log: (consume composer).finished())
  }

  /// The JSON text of `log`'s initial state for a new log's header: as the file holds it when it
  /// can go into one line as it is (no tree of it is built), else written again compactly (a
  /// state put together from parts may hold line breaks between its tokens).
  static func headerStateJSON(_ log: ReplayLog) -> [UInt8] {
    if let recorded = log.header.withStateText({ Array($0) }),
      !recorded.contains(0x0A), !recorded.contains(0x0D)
    {
      return recorded
    }
    return log.header.state.serializedBytes
  }
}

/// What `shrink` found: the actions kept, and the shrunk log's bytes.
package struct ShrinkResponse: ReplayResponse {
  /// The condition the kept actions still reach.
  package var condition: ShrinkCondition
  /// How many actions the log recorded (the ones shrinking started from).
  package var recordedCount: Int
  /// The actions kept, in seq order.
  package var kept: [RecordedAction]
  /// How many times the log was replayed.
  package var replays: Int
  /// Whether the replay budget ran out (it may shrink further).
  package var isBudgetExhausted: Bool
  /// The shrunk log: the header's state, then the kept actions, renumbered from 1.
  package var log: [UInt8]

  /// `{"until", "recorded", "kept": [action…], "replays", "budgetExhausted"}`, each kept action
  /// in its one JSON form (with its seq in the original log).
  package var jsonValue: JSONValue {
    .object([
      JSONMember("until", .string(condition.description)),
      JSONMember("recorded", .number(String(recordedCount))),
      JSONMember("kept", .array(kept.map(\.jsonValue))),
      JSONMember("replays", .number(String(replays))),
      JSONMember("budgetExhausted", .bool(isBudgetExhausted)),
    ])
  }
}
