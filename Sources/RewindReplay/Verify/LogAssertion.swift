import Rewind
import RewindJSON

/// A recorded log used as a regression test: replays it with today's reducer and throws when a
/// recorded checkpoint is no longer reproduced.
///
/// One line in a test (Swift Testing or XCTest — a thrown error fails the test with the report
/// as its message):
/// ```swift
/// @Test func checkoutSessionStillReplays() throws {
///   try assertReplays("Fixtures/checkout.jsonl", app: "shop", reducer: appReducer)
/// }
/// ```
/// - Parameters:
///   - path: The log file.
///   - app: The app name the log must have been recorded by; `nil` accepts any.
///   - reducer: The reducer under test.
///   - finalState: When given, the state after the last action must equal it.
/// - Returns: The verify report, for further checks.
/// - Throws: ``LogAssertionFailure`` with the verify report, or `ReplayError` when the log
///   cannot be read.
@discardableResult
public func assertReplays<State: Codable & Sendable & Equatable, Action: Codable & Sendable>(
  _ path: String, app: String? = nil, reducer: Reducer<State, Action>, finalState: State? = nil
) throws -> VerifyReport {
  let log = try ReplayLog(path: path, recovery: .strict)
  let replayApp = ReplayApp(name: app ?? log.header.app, reducer: reducer)
  let timeline = try replayApp.timeline(for: log, usesCheckpoints: false)
  let report = try Verifier.verify(timeline)
  guard report.isReproduced else { throw LogAssertionFailure(report: report) }
  if let finalState {
    let replayed = try Timeline(log: log, reducer: reducer).state(at: log.lastSeq)
    if replayed != finalState {
      let encoder = RewindJSONEncoder()
      let changes = try JSONDiff.diff(
        encoder.encodeValue(finalState), encoder.encodeValue(replayed))
      throw LogAssertionFailure(
        report: report,
        extra: "the final state differs from the expected one (expected → replayed):\n"
          + JSONDiff.render(changes))
    }
  }
  return report
}

/// The failure of ``assertReplays(_:app:reducer:finalState:)``: its description is the report.
public struct LogAssertionFailure: Error, CustomStringConvertible {
  /// The verify report.
  public var report: VerifyReport
  /// More text (a final-state difference).
  public var extra: String?

  init(report: VerifyReport, extra: String? = nil) {
    self.report = report
    self.extra = extra
  }

  /// The verify report's text, and the final-state difference when there is one.
  public var description: String {
    [report.text, extra].compactMap { $0 }.joined(separator: "\n")
  }
}
