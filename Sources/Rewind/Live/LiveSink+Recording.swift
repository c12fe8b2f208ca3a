/// The live sink of one recording.
extension LiveSink {
  /// The sink of the recording `identity` when its options have a live viewer
  /// (``RecordingOptions/liveViewer``), greeting it with the recording's identity and giving each
  /// connection a header as the file's; `nil` without a viewer.
  static func forRecording(identity: RecorderCore.Identity, options: RecordingOptions) -> LiveSink?
  {
    guard let viewer = options.liveViewer else { return nil }
    return LiveSink(
      viewer: viewer,
      hello: LiveProtocol.Hello(
        token: "", app: identity.app, session: identity.session, host: Platform.hostName,
        pid: Int(Platform.processID), build: options.build.summary,
        acceptsActions: viewer.acceptsActions),
      makeHeader: { firstSeq, segment, state in
        RecorderCore.header(
          identity: identity, options: options, firstSeq: firstSeq, segment: segment,
          stateJSON: state)
      })
  }
}
