import Dispatch
import RewindJSON

/// The recorder's side of a live viewer (``RecordingOptions/liveViewer``): its status, and the
/// actions it sends back (``LiveViewer/acceptsActions``).
extension Recorder {
  /// What the live connection is doing (``RecordingOptions/liveViewer``); `nil` without one.
  public var liveStatus: LiveStatus? { core.withLock { $0.live?.status } }

  /// Takes the actions the live viewer sends, when its ``LiveViewer/acceptsActions`` is on:
  /// each is decoded as an `Action` by the log's coder (on the live connection's thread) and
  /// `handler` is called with it on `queue`, to dispatch it through the app's normal store path
  /// with the origin given — which the store passes to ``willReduce(_:origin:)`` (or
  /// ``reduce(_:_:origin:with:)``), so that its line says `"via":"viewer"` and the viewer is
  /// told its `seq`. A ``Store`` recording with such a viewer sets this itself; an app's own
  /// store calls it once:
  ///
  /// ```swift
  /// recorder.onViewerAction { action, origin in
  ///   appStore.dispatch(action, origin: origin)  // ends in recorder.willReduce(action, origin: origin)
  /// }
  /// ```
  ///
  /// An action that does not decode is refused saying where and why
  /// (``Recorder/refusal(decoding:)``); at most 32 wait for `queue` at once. Without
  /// ``LiveViewer/acceptsActions``, or without a live viewer, nothing is taken.
  public func onViewerAction(
    on queue: DispatchQueue = .main,
    _ handler: @escaping @Sendable (Action, ActionOrigin) -> Void
  ) {
    guard let live = core.withLock({ $0.live }) else { return }
    let coder = stateCoder
    let waiting = Locked(0)
    live.setDispatcher { request in
      let action: Action
      do {
        action = try coder.decode(Action.self, from: request.action)
      } catch {
        return Self.refusal(decoding: error)
      }
      let admitted = waiting.withLock { count -> Bool in
        guard count < LiveProtocol.dispatchesWaitingLimit else { return false }
        count += 1
        return true
      }
      guard admitted else {
        return
          "\(LiveProtocol.dispatchesWaitingLimit) actions from the viewer are waiting for the app's queue: send the next one when they ran"
      }
      queue.async {
        waiting.withLock { $0 -= 1 }
        handler(action, .viewer(request: request.id))
      }
      return nil
    }
  }

  /// Why an action the viewer sent is refused when it does not decode as `Action`: the coding
  /// path and reason as every decode error gives them (``DecodingError/summary``), and how to
  /// write one that does.
  static func refusal(decoding error: any Error) -> String {
    var reason = (error as? DecodingError)?.summary ?? "\(error)"
    // Foundation's reasons end with a full stop; the fix follows the reason.
    if reason.hasSuffix(".") { reason.removeLast() }
    return
      "the action does not decode as \(Action.self): \(reason); write it as the log writes \(Action.self) (a recorded action's line, or `action N` in replay, shows one)"
  }
}
