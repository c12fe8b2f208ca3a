import Rewind
import RewindJSON

/// An app that a replay binary knows: its name (the log header's `app`) and how to build a
/// timeline with its reducer.
///
/// ```swift
/// let todo = ReplayApp(name: "todo", reducer: todoReducer)
/// ```
public struct ReplayApp: Sendable {
  /// The app's name, as the recorder wrote it in the header's `app`.
  public let name: String
  /// The name of the app's `Action` type.
  public let actionType: String
  /// The name of the app's `State` type.
  public let stateType: String
  private let make: @Sendable (ReplayLog, Bool, LogCoder) -> any AnyTimeline
  /// A result rather than a typed-throws function: the runtime metadata of a function type with
  /// typed throws needs macOS 15.
  private let makeFollower: @Sendable (JSONValue) -> Result<any StateFollower, ReplayError>

  /// Registers an app by name with its reducer.
  public init<State: Codable & Sendable, Action: Codable & Sendable>(
    name: String, reducer: Reducer<State, Action>
  ) {
    self.name = name
    self.actionType = String(describing: Action.self)
    self.stateType = String(describing: State.self)
    self.make = { log, usesCheckpoints, coder in
      Timeline(log: log, reducer: reducer, usesCheckpoints: usesCheckpoints, coder: coder)
    }
    self.makeFollower = { state in
      Result { () throws(ReplayError) -> any StateFollower in
        try TypedStateFollower(reducer: reducer, initialState: state)
      }
    }
  }

  /// A follower that applies actions as they arrive, starting from `initialState`.
  /// - Throws: `ReplayError.stateDecodingFailed` when the state does not decode.
  public func follower(initialState: JSONValue) throws(ReplayError) -> any StateFollower {
    try makeFollower(initialState).get()
  }

  /// A timeline over `log` with this app's reducer.
  ///
  /// - Parameter usesCheckpoints: Start rebuilding from recorded checkpoints (`true`), or from
  ///   the header only (`false`: every state comes from the reducer, as `verify` needs).
  /// - Parameter coder: The JSON coder for actions and checkpoints (see ``Timeline``).
  /// - Throws: `ReplayError.appMismatch` when the log's header names another app or other types.
  public func timeline(
    for log: ReplayLog, usesCheckpoints: Bool = true, coder: LogCoder = .rewind
  ) throws(ReplayError) -> any AnyTimeline {
    guard log.header.app == name, log.header.actionType == actionType,
      log.header.stateType == stateType
    else {
      throw .appMismatch(
        path: log.path, logApp: log.header.app,
        logTypes: "\(log.header.stateType), \(log.header.actionType)", expected: name,
        expectedTypes: "\(stateType), \(actionType)")
    }
    return make(log, usesCheckpoints, coder)
  }
}
