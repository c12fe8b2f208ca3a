import RewindJSON
import RewindReplay

/// One operation of the replay service, as a value: what a front end asks for, built from what
/// the user typed (``ReplayCommand/parse``), a key (the TUI) or a protocol message, and run by
/// ``ReplayService/perform(_:)``.
///
/// Each request names its ``Response`` and is listed once, in ``ReplayCommandTable``, with the
/// command that asks for it in a session; a front end only translates its input into requests
/// and renders their responses.
package protocol ReplayRequest: Sendable {
  /// What the request answers.
  associatedtype Response: ReplayResponse
  /// Runs the request on `service`.
  /// - Throws: Why it could not be done, as a ``ReplayFailure``.
  func run(on service: ReplayService) throws(ReplayFailure) -> Response
}

/// What a request answers: a value with one JSON form. Its text is each front end's rendering of
/// the same facts (the command line renders every response in one place).
package protocol ReplayResponse: Sendable {
  /// The response as one JSON value: what `--json` prints and the protocol front ends send.
  var jsonValue: JSONValue { get }
  /// The crash of the app's reducer met while answering, if any (the exit status of a script
  /// says so).
  var crash: CrashReport? { get }
}

extension ReplayResponse {
  /// No crash, for a response that never rebuilds a state past the cursor.
  package var crash: CrashReport? { nil }
}
