/// Where an action came from: the call site of its dispatch, and the action that was being
/// handled when it was dispatched (its cause). A recorder whose options have
/// ``RecordingOptions/recordsOrigins`` writes both on the action's line (`site`, `cause`,
/// docs/log-format.md); `replay` shows them (`action`, `where`, `list --tree`).
///
/// ``Store`` makes one for every dispatch: `#fileID` and `#line` are captured by
/// ``Store/dispatch(_:file:line:)``'s default arguments (no stack walking), and the cause is the
/// action the store is handling when a middleware, a subscriber or an effect dispatches. An app
/// with its own store passes one to ``Recorder/willReduce(_:origin:)``.
public struct ActionOrigin: Sendable {
  /// The `#fileID` of the dispatch: `Module/File.swift`.
  public var file: StaticString
  /// The `#line` of the dispatch.
  public var line: UInt
  /// The `seq` of the recorded action whose handling dispatched this one; `nil` for an action
  /// dispatched by the app itself (a tap, a timer, a notification).
  public var cause: Int?
  /// The viewer's request, for an action the live viewer sent (``LiveViewer/acceptsActions``):
  /// its line says `"via":"viewer"` instead of a call site, and the viewer is told its `seq`.
  /// `nil` for the app's own actions.
  public internal(set) var viewerRequest: Int?

  /// An origin: by default the caller's own file and line, with no cause.
  public init(file: StaticString = #fileID, line: UInt = #line, cause: Int? = nil) {
    self.file = file
    self.line = line
    self.cause = cause
    self.viewerRequest = nil
  }

  /// The origin of an action the live viewer sent with request `id`.
  static func viewer(request id: Int) -> ActionOrigin {
    var origin = ActionOrigin(file: "replay listen", line: 0)
    origin.viewerRequest = id
    return origin
  }
}

/// The action a dispatch was caused by, before its `seq` may be known: a middleware can dispatch
/// while the action it handles has not reached the recorder yet. ``MiddlewareContext/cause``
/// hands one to an effect that dispatches later (``Store/dispatch(_:causedBy:file:line:)``).
public final class ActionCause: Sendable {
  /// The action's `seq`, once it was recorded; 0 before.
  private let word = AtomicWord(0)

  /// A cause not yet recorded.
  init() {}

  /// The cause with a known `seq` (an app's own store, or a test).
  public init(seq: Int) { word.store(max(0, seq)) }

  /// The recorded action's `seq`; `nil` when it was not recorded (yet): no recorder, or the
  /// action was dropped by a middleware.
  public var seq: Int? {
    let value = word.load()
    return value > 0 ? value : nil
  }

  /// Records the action's `seq`.
  func resolve(_ seq: Int) { if seq > 0 { word.store(seq) } }
}
