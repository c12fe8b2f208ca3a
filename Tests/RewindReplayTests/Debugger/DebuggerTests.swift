import Foundation
import Rewind
import RewindExamples
import RewindJSON
import Testing

@testable import RewindReplay

/// The front-end-neutral debugger: every operation answers with a typed result or error, which
/// the REPL and the TUI render and later front ends (DAP, MCP) will too.
@Suite struct DebuggerTests {
  static func debugger(withReducer: Bool = true) throws -> Debugger {
    let log = try ReplayLog(path: LogFixture.path("counter.jsonl"))
    let timeline = withReducer ? Timeline(log: log, reducer: counterReducer) : nil
    return Debugger(log: log, timeline: timeline)
  }

  @Test func movesAreTypedAndClampedAndRefusedAtTheEnds() throws {
    let debugger = try Self.debugger()
    #expect(debugger.position == 0)
    guard case .moved(to: 12) = try debugger.step(by: 1_000) else {
      Issue.record("not moved to the last position")
      return
    }
    #expect(throws: DebuggerError.self) { try debugger.step(by: 1) }
    do {
      _ = try debugger.step(by: 1)
    } catch {
      guard case .atLastPosition(12) = error else {
        Issue.record("unexpected \(error)")
        return
      }
    }
    guard case .moved(to: 5) = try debugger.move(to: 5) else {
      Issue.record("not moved to 5")
      return
    }
    do {
      _ = try debugger.move(to: 13)
      Issue.record("moved out of range")
    } catch {
      guard case .positionOutOfRange(13, valid: 0...12) = error else {
        Issue.record("unexpected \(error)")
        return
      }
    }
  }

  @Test func aWatchpointStopsWhereItsValueChangesWithTheReason() throws {
    let debugger = try Self.debugger()
    let (id, value) = try debugger.watch(try JSONPath.parse("count"))
    #expect(id == 1)
    #expect((try? value.get()) == .number("0"))
    guard case .breakpoints(let position, let reasons) = try debugger.continueRun(.forward) else {
      Issue.record("no stop")
      return
    }
    #expect(position == 1)
    #expect(debugger.position == 1)
    #expect(reasons.map(\.id) == [1])
    #expect(reasons.first?.text == "count: 0 → 1")
    // Backward from the first change: nothing before it.
    guard case .boundary(0, .backward) = try debugger.continueRun(.backward) else {
      Issue.record("not stopped at the start")
      return
    }
    #expect(debugger.deleteAllBreakpoints() == 1)
    do {
      _ = try debugger.continueRun(.forward)
      Issue.record("continued with nothing to stop at")
    } catch {
      guard case .nothingToStopAt = error else {
        Issue.record("unexpected \(error)")
        return
      }
    }
  }

  @Test func typeBreakpointsWorkWithoutTheReducerAndConditionsDoNot() throws {
    let debugger = try Self.debugger(withReducer: false)
    let id = try debugger.addBreakpoint(.actionType("add"))
    guard case .breakpoints(3, let reasons) = try debugger.continueRun(.forward) else {
      Issue.record("no stop at the first add")
      return
    }
    #expect(reasons.map(\.id) == [id])
    #expect(reasons.first?.text == "action 3 is a 'add'")
    let condition = try Breakpoint.parseBreak("if count > 3")
    do {
      _ = try debugger.addBreakpoint(condition)
      Issue.record("a condition was set without the reducer")
    } catch {
      guard case .noReducer = error else {
        Issue.record("unexpected \(error)")
        return
      }
    }
    do {
      try debugger.deleteBreakpoint(9)
      Issue.record("deleted a breakpoint that does not exist")
    } catch {
      guard case .noSuchBreakpoint("9", ids: [1]) = error else {
        Issue.record("unexpected \(error)")
        return
      }
    }
  }

  @Test func skippingIsTypedToo() throws {
    let debugger = try Self.debugger()
    #expect(try debugger.setSkipped(3, true) == 1)
    do {
      _ = try debugger.setSkipped(4, false)
      Issue.record("unskipped an action that is not skipped")
    } catch {
      guard case .notSkipped(4) = error else {
        Issue.record("unexpected \(error)")
        return
      }
    }
    do {
      _ = try debugger.setSkipped(99, true)
      Issue.record("skipped an action that does not exist")
    } catch {
      guard case .noSuchAction(99, valid: 1...12) = error else {
        Issue.record("unexpected \(error)")
        return
      }
    }
  }

  @Test func statesValuesAndDiffsAreTypedAndRecordedStatesServeWithoutAReducer() throws {
    let debugger = try Self.debugger()
    _ = try debugger.move(to: 3)
    #expect(try debugger.state() == .object([JSONMember("count", .number("12"))]))
    #expect(try debugger.value(at: JSONPath.parse("count"), position: 5) == .number("8"))
    let typo = try JSONPath.parse("cuont")
    do {
      _ = try debugger.value(at: typo)
      Issue.record("a path that leads nowhere gave a value")
    } catch {
      guard case .badPath(.noSuchKey("cuont", in: _, available: let keys)) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(keys == ["count"])
    }
    let diff = try debugger.diff(from: 2, to: 3)
    #expect(diff.from == 2 && diff.to == 3)
    #expect(diff.jsonValue.jsonText == #"[{"op":"replace","path":"/count","value":12}]"#)
    #expect(try debugger.diff(from: 3, to: 3).changes == nil)

    // Without the reducer: the header's state and the checkpoints, nothing between.
    let recorded = try Self.debugger(withReducer: false)
    #expect(try recorded.state(at: 10) == .object([JSONMember("count", .number("114"))]))
    #expect(throws: DebuggerError.self) { try recorded.state(at: 4) }
    do { _ = try recorded.state(at: 4) } catch {
      guard case .noReducer = error else {
        Issue.record("unexpected \(error)")
        return
      }
    }
  }

  @Test func actionsListingsAndFindAreTyped() throws {
    let debugger = try Self.debugger()
    do {
      _ = try debugger.actionHere()
      Issue.record("an action led to the initial state")
    } catch {
      guard case .atInitialState(0) = error else {
        Issue.record("unexpected \(error)")
        return
      }
    }
    let listing = try debugger.actions(around: 4)
    #expect(listing.startsAtInitialState && listing.cursor == 0)
    #expect(listing.actions.map(\.seq) == [1, 2, 3, 4])
    guard case .moved(to: 3) = try debugger.find(.type("add"), .forward) else {
      Issue.record("find type=add did not move to 3")
      return
    }
    let detail = try debugger.actionHere()
    #expect(detail.action.type == "add" && detail.action.payload?.jsonText == #"{"add":{"_0":10}}"#)
    #expect(!detail.isSkipped)
    guard case .moved(to: 7) = try debugger.find(ActionQuery(parsing: "100"), .forward) else {
      Issue.record("find 100 did not move to 7")
      return
    }
    guard case .moved(to: 5) = try debugger.find(.type("add"), .backward) else {
      Issue.record("find -b type=add did not move to 5")
      return
    }
    do {
      _ = try debugger.find(.type("ad"), .forward)
      Issue.record("found a type that is not there")
    } catch {
      guard case .noMatch(.type("ad"), .forward, from: 5, let suggestion) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(suggestion == "add")
    }
    #expect(debugger.position == 5)
    #expect(debugger.knownActionTypes() == ["increment", "add", "decrement"])
  }

  /// Every front end reads a typed position here: a number, first/start, last/end.
  @Test func positionsAreReadInOnePlace() throws {
    let log = try Self.debugger().log
    #expect(try Debugger.position("first", in: log) == 0)
    #expect(try Debugger.position("start", in: log) == 0)
    #expect(try Debugger.position("last", in: log) == 12)
    #expect(try Debugger.position("end", in: log) == 12)
    #expect(try Debugger.position("7", in: log) == 7)
    do {
      _ = try Debugger.position("seven", in: log)
      Issue.record("'seven' was read")
    } catch {
      #expect(error.message == "'seven' is not a position: use 0…12, first or last")
    }
    do {
      _ = try Debugger.position("13", in: log)
      Issue.record("13 was read")
    } catch {
      #expect(error.message == "position 13 is out of range: valid positions are 0…12")
    }
  }

  /// One text for each error, and `description` is it (never Swift's own rendering of the case).
  @Test func everyErrorHasOneMessage() throws {
    let errors: [(DebuggerError, String)] = [
      (.atLastPosition(12), "already at the last position (12); 'back' steps backward"),
      (.noSuchBreakpoint("w9", ids: [1, 2]), "no watchpoint or breakpoint 'w9'; ids: 1, 2"),
      (.noSuchAction(40, valid: 1...12), "no action 40: actions are 1…12"),
      (
        .replay(.noActions(path: "a.jsonl", position: 0)),
        "a.jsonl: the log has no actions"
      ),
    ]
    for (error, text) in errors {
      #expect(error.message == text)
      #expect("\(error)" == text)
    }
  }
}
