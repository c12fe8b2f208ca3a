import Testing

@testable import RewindReplay

/// Runs `body`, which must throw a `ReplayError`; returns it, or records an issue and returns
/// `nil`.
func expectReplayError<Value>(
  sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Value
) -> ReplayError? {
  do {
    let value = try body()
    Issue.record("expected a ReplayError, but got \(value)", sourceLocation: sourceLocation)
    return nil
  } catch let error as ReplayError {
    return error
  } catch {
    Issue.record("expected a ReplayError, but got \(error)", sourceLocation: sourceLocation)
    return nil
  }
}

/// The facts of a `.fault` error, for assertions.
struct FaultError: Equatable {
  var fault: LogFault
  var recovery: RecoveryMode
  var intactActions: Int
  var droppedLines: Int
}

extension ReplayError {
  /// The facts when this is `.fault`, else `nil`.
  var faultError: FaultError? {
    guard case .fault(let fault, let recovery, let intact, let dropped) = self else { return nil }
    return FaultError(
      fault: fault, recovery: recovery, intactActions: intact, droppedLines: dropped)
  }

  /// `(position, valid)` when this is `.positionOutOfRange`, else `nil`.
  var outOfRange: (position: Int, valid: ClosedRange<Int>)? {
    guard case .positionOutOfRange(let position, let valid) = self else { return nil }
    return (position, valid)
  }
}
