/// Reports programmer errors in the use of a ``Store`` (for example a dispatch from inside a
/// reducer).
///
/// By default a report stops the program with the message, like a failed precondition. Tests
/// install a handler to observe the report without crashing the test runner.
package enum StoreDiagnostics {
  private static let handler = Locked<(@Sendable (String) -> Void)?>(nil)

  /// Reports `message`: calls the installed handler, or stops the program.
  package static func report(_ message: String) {
    if let installed = handler.withLock({ $0 }) {
      installed(message)
    } else {
      fatalError(message)
    }
  }

  /// Runs `body` with `handler` receiving reports instead of the program stopping.
  package static func withHandler<T>(
    _ handler: @escaping @Sendable (String) -> Void, _ body: () throws -> T
  ) rethrows -> T {
    let previous = Self.handler.withLock { slot in
      let previous = slot
      slot = handler
      return previous
    }
    defer { Self.handler.withLock { $0 = previous } }
    return try body()
  }
}
