import Rewind
import RewindJSON

/// Applies actions one by one to a state, as they arrive — for following a log that is still
/// being recorded (`replay tail -f --diff`), where no index of the whole log exists yet.
public protocol StateFollower: AnyObject {
  /// The current state, as JSON.
  var stateJSON: JSONValue { get }
  /// Starts again from `state` (a new file's header after a rotation).
  func reset(to state: JSONValue) throws(ReplayError)
  /// Applies one recorded action, from log line `line`, and returns the new state.
  func apply(_ action: JSONValue, seq: Int, type: String?, line: Int) throws(ReplayError)
    -> JSONValue
}

final class TypedStateFollower<State: Codable & Sendable, Action: Codable & Sendable>: StateFollower
{
  private let reducer: Reducer<State, Action>
  private var state: State
  private(set) var stateJSON: JSONValue

  init(reducer: Reducer<State, Action>, initialState: JSONValue) throws(ReplayError) {
    self.reducer = reducer
    state = try Self.decode(initialState)
    stateJSON = initialState
  }

  func reset(to state: JSONValue) throws(ReplayError) {
    self.state = try Self.decode(state)
    stateJSON = state
  }

  func apply(_ action: JSONValue, seq: Int, type: String?, line: Int) throws(ReplayError)
    -> JSONValue
  {
    let decoded: Action
    do {
      decoded = try RewindJSONDecoder().decode(Action.self, from: action)
    } catch let error as DecodingError {
      throw .actionDecodingFailed(
        path: "", line: 0, seq: seq, type: type ?? "?", codingPath: error.pathDescription,
        reason: error.reasonDescription)
    } catch {
      throw .actionDecodingFailed(
        path: "", line: 0, seq: seq, type: type ?? "?", codingPath: "", reason: "\(error)")
    }
    let marks = StepMarker.claim()
    if marks { StepMarker.willApply(seq: seq, type: type, line: line) }
    reducer.reduce(&state, decoded)
    if marks { StepMarker.release() }
    do {
      stateJSON = try RewindJSONEncoder().encodeValue(state)
    } catch {
      throw .encodingFailed(what: "state after action \(seq)", reason: "\(error)")
    }
    return stateJSON
  }

  private static func decode(_ json: JSONValue) throws(ReplayError) -> State {
    do {
      return try RewindJSONDecoder().decode(State.self, from: json)
    } catch {
      throw .stateDecodingFailed(
        path: "", line: 1, what: "header's state", codingPath: "", reason: "\(error)")
    }
  }
}
