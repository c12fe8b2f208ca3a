import Foundation
import RewindJSON

/// Whether, and on how many actions, the recorder checks as it records that the reducer is
/// deterministic: it runs the reducer a second time on the same state and action and compares
/// the two states. A reducer that reads the clock, picks a random element or makes an id gives
/// two different states, which replay can never reproduce (docs/determinism.md); the first
/// difference is reported once per action type, with the path where the states part.
public enum DeterminismCheck: Sendable, Equatable {
  /// No check.
  case off
  /// Every `every`th action is reduced twice and the results compared (1: every action).
  case sampled(every: Int)

  /// Every 16th action in debug builds; off in release builds.
  public static var `default`: DeterminismCheck {
    #if DEBUG
      return .sampled(every: 16)
    #else
      return .off
    #endif
  }

  /// How many actions apart the samples are; 0 when off.
  var interval: Int {
    switch self {
    case .off: return 0
    case .sampled(let every): return max(1, every)
    }
  }
}

/// What the recorder's own checks of the app's reducer keep between actions: which action is
/// sampled next, whether the store's first state was compared with the header's, and the action
/// types already reported.
struct ReducerChecks: Sendable {
  /// Actions left before the next sample.
  var untilSample: Int
  /// Whether the first state the store gave was compared with the header's.
  var checkedInitialState = false
  /// Action types whose nondeterminism was reported.
  var reportedTypes: Set<String> = []
  /// Problems found and not yet reported: ``Recorder/didReduce(_:)`` reports them, outside the
  /// store's lock, which a ``Store``'s reducer runs under.
  var pending: [RecorderError] = []

  /// Checks starting with the first action sampled.
  init(interval: Int) {
    untilSample = interval > 0 ? 1 : 0
  }
}

/// The first place where two JSON values differ, as a state path (`items[1].done`), and the
/// value on each side there (`nil`: absent).
struct JSONFirstDifference: Equatable {
  /// Where: a path as `replay` reads it (`todos[2].title`; empty for the whole value).
  var path: String
  /// The value on the first side.
  var first: JSONValue?
  /// The value on the second side.
  var second: JSONValue?

  /// Where `a` and `b` first differ, in document order; `nil` when they are equal.
  static func between(_ a: JSONValue, _ b: JSONValue, path: String = "") -> JSONFirstDifference? {
    switch (a, b) {
    case (.object(let left), .object(let right)):
      for member in left {
        let key = member.key
        let child = path.isEmpty ? key : "\(path).\(key)"
        guard let other = right.first(where: { $0.key == key }) else {
          return JSONFirstDifference(path: child, first: member.value, second: nil)
        }
        if let found = between(member.value, other.value, path: child) { return found }
      }
      for member in right where !left.contains(where: { $0.key == member.key }) {
        let child = path.isEmpty ? member.key : "\(path).\(member.key)"
        return JSONFirstDifference(path: child, first: nil, second: member.value)
      }
      return nil
    case (.array(let left), .array(let right)):
      for index in 0..<max(left.count, right.count) {
        let child = "\(path)[\(index)]"
        guard index < left.count else {
          return JSONFirstDifference(path: child, first: nil, second: right[index])
        }
        guard index < right.count else {
          return JSONFirstDifference(path: child, first: left[index], second: nil)
        }
        if let found = between(left[index], right[index], path: child) { return found }
      }
      return nil
    default:
      return a == b ? nil : JSONFirstDifference(path: path, first: a, second: b)
    }
  }

  /// A side's value as a report shows it: its JSON, cut to 80 characters; `absent`.
  static func text(_ value: JSONValue?) -> String {
    guard let value else { return "absent" }
    let text = value.jsonText
    return text.count > 80 ? String(text.prefix(79)) + "…" : text
  }
}

extension Recorder {
  /// Runs `reduce` on `state` as the recorder's reducer wrappers do, checking the reducer on the
  /// way: the first state the store hands over against the header's, and — on a sample of
  /// actions (``RecordingOptions/determinismCheck``) — a second run of `reduce` on a copy of the
  /// same state against the first (what the second run returns, a TCA-style effect, is
  /// dropped). Problems are reported once (per action type) through `onError`, and in debug
  /// builds on standard error too, by the ``didReduce(_:)`` that follows (outside a store's
  /// lock). The state after it is kept for the final checkpoint (`keepsState`; a ``Store``
  /// gives its own when the recorder detaches).
  func reduceChecked<Result>(
    _ state: inout State, keepsState: Bool = true, actionType: () -> String,
    reducing reduce: (inout State) throws -> Result
  ) rethrows -> Result {
    // With the determinism check off, nothing is left to check after the first action: no lock.
    if uncheckedFromHere.load() != 0 {
      let result = try reduce(&state)
      if keepsState {
        let kept = state
        lastState.withLock { $0 = kept }
      }
      return result
    }
    if determinismInterval == 0 { uncheckedFromHere.store(1) }
    let (sampled, checkInitial) = checks.withLock { checks -> (Bool, Bool) in
      var sampled = false
      if checks.untilSample > 0 {
        checks.untilSample -= 1
        if checks.untilSample == 0 {
          sampled = true
          checks.untilSample = determinismInterval
        }
      }
      defer { checks.checkedInitialState = true }
      return (sampled, !checks.checkedInitialState)
    }
    // The first state is compared with the header's where the determinism check runs (debug
    // builds by default): it encodes the whole state once, on the dispatching thread.
    if checkInitial, determinismInterval > 0 { checkInitialState(state) }
    let result: Result
    if sampled {
      var again = state
      result = try reduce(&state)
      _ = try? reduce(&again)
      if let difference = difference(state, again) {
        reportNondeterminism(actionType(), difference)
      }
    } else {
      result = try reduce(&state)
    }
    if keepsState {
      let kept = state
      lastState.withLock { $0 = kept }
    }
    return result
  }

  /// Keeps `error` for the next ``didReduce(_:)`` to report.
  private func postpone(_ error: RecorderError) {
    checks.withLock { $0.pending.append(error) }
    hasPendingReports.store(1)
  }

  /// Reports what ``reduceChecked(_:keepsState:actionType:reducing:)`` found.
  func reportPending() {
    hasPendingReports.store(0)
    for error in checks.withLock({ checks in
      defer { checks.pending = [] }
      return checks.pending
    }) {
      report(error)
    }
  }

  /// The first difference between two states, or `nil`: compared with `==` when `State` is
  /// `Equatable`, else by their encodings; the path found only when they differ.
  private func difference(_ first: State, _ second: State) -> JSONFirstDifference? {
    if let first = first as? any Equatable, first.isEqualState(to: second) { return nil }
    guard let a = try? stateCoder.encode(first), let b = try? stateCoder.encode(second), a != b,
      let left = try? JSONParser.parse(a), let right = try? JSONParser.parse(b)
    else { return nil }
    return JSONFirstDifference.between(left, right)
  }

  /// Compares the first state the store hands over with the header's (both as the log's coder
  /// writes them, sanitized); when they differ, the first action also gets a checkpoint, so that
  /// `replay verify` finds the difference there.
  private func checkInitialState(_ state: State) {
    guard let encoded = try? stateCoder.encode(stateSanitizer?(state) ?? state),
      encoded != headerState, let left = try? JSONParser.parse(headerState),
      let right = try? JSONParser.parse(encoded),
      let difference = JSONFirstDifference.between(left, right)
    else { return }
    oweCheckpoint()
    postpone(
      RecorderError(
        .initialStateDiffers(
          path: difference.path.isEmpty ? "(the whole state)" : difference.path,
          header: JSONFirstDifference.text(difference.first),
          store: JSONFirstDifference.text(difference.second)),
        path: path, lastRecordedSeq: lastSeq))
  }

  private func reportNondeterminism(_ type: String, _ difference: JSONFirstDifference) {
    guard checks.withLock({ $0.reportedTypes.insert(type).inserted }) else { return }
    postpone(
      RecorderError(
        .nondeterministicReducer(
          seq: lastSeq, type: type,
          path: difference.path.isEmpty ? "(the whole state)" : difference.path,
          first: JSONFirstDifference.text(difference.first),
          second: JSONFirstDifference.text(difference.second)),
        path: path, lastRecordedSeq: lastSeq))
  }
}

extension Recorder {
  /// The ``ReduceHooks/reduce`` of a ``Store`` recording: the store's reducer run through
  /// ``reduceChecked(_:keepsState:actionType:reducing:)``; `nil` when the determinism check is off (the store then
  /// runs its reducer itself).
  var storeCheckHook: (@Sendable (inout State, Action, (inout State) -> Void) -> Void)? {
    guard determinismInterval > 0 else { return nil }
    return { state, action, run in
      self.reduceChecked(
        &state, keepsState: false, actionType: { Self.typeName(of: action) },
        reducing: { run(&$0) })
    }
  }
}

extension Equatable {
  /// Whether `other` is a value of this type equal to this one.
  fileprivate func isEqualState(to other: Any) -> Bool {
    guard let other = other as? Self else { return false }
    return self == other
  }
}
