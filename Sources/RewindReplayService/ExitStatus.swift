/// The exit statuses of `replay`.
package enum ExitStatus {
  /// The command did what was asked.
  package static let success: Int32 = 0
  /// The logs or states compared differ (`diff`, `verify`), or a check found something.
  package static let different: Int32 = 1
  /// The command could not do what was asked (bad input, an unreadable log).
  package static let trouble: Int32 = 2
  /// The app's reducer crashed on an action: `state` printed the last good state, a session
  /// stopped before the crash.
  package static let reducerCrashed: Int32 = 3
}
