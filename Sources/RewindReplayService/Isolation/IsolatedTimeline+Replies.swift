import RewindReplay

// Reading the worker's replies.
extension IsolatedTimeline {
  /// The typed reply in `line`; a failure is thrown as the worker threw it.
  static func reply(in line: ArraySlice<UInt8>) throws(ReplayError) -> WorkerReply {
    let reply = try WorkerReply(line: line)
    if case .failed(let error) = reply { throw error }
    return reply
  }

  /// Reads a reply that says only that the request succeeded.
  static func done(in line: ArraySlice<UInt8>) throws(ReplayError) {
    guard case .done = try reply(in: line) else { throw unexpected("reach or check") }
  }

  /// A reply of another kind than the request asks for.
  static func unexpected(_ request: String) -> ReplayError {
    .encodingFailed(what: "worker reply", reason: "it does not answer the \(request) request")
  }
}
