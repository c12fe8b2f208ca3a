/// Why the adapter could not answer a request: sent as a failed response (``DAPMessage/
/// errorResponse(_:)``) whose message says what went wrong, for which request, and how to fix it.
package struct DAPError: Error, Sendable {
  /// What kind of failure: the id of the response's `body.error`.
  package enum Kind: Int, Sendable {
    /// The bytes or the JSON of a message could not be read as a request.
    case protocolError = 1
    /// The request needs a log and none is open.
    case notLaunched = 2
    /// The request's arguments are missing or of the wrong kind.
    case badArguments = 3
    /// The replay service could not do it (its message says why).
    case replayFailure = 4
    /// The adapter does not do this (an unknown command, `setVariable`).
    case unsupported = 5
  }

  /// What kind of failure.
  package var kind: Kind
  /// What went wrong, where, and how to fix it.
  package var message: String
  /// The request's `seq` (0 when it could not be read).
  package var seq: Int
  /// The request's command (empty when it could not be read).
  package var command: String

  /// A failure of the request with `seq` and `command`; `message` gets the request named.
  package init(_ kind: Kind, _ message: String, seq: Int, command: String) {
    self.kind = kind
    self.seq = seq
    self.command = command
    let place = command.isEmpty ? "" : " (request \(seq), '\(command)')"
    self.message = message + place
  }

  /// A failure of `request`.
  package init(_ kind: Kind, _ message: String, request: DAPRequest) {
    self.init(kind, message, seq: request.seq, command: request.command)
  }
}
