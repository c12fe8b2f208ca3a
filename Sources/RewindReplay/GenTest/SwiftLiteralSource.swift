/// Renders a timeline's actions and states as Swift expressions of the app's own types, for
/// `replay gen-test`.
///
/// Uses `String(reflecting:)`, which prints enum cases, structs (through their memberwise
/// initialisers), strings, numbers, arrays, dictionaries and optionals as Swift source with
/// module-qualified type names: `RewindExamples.TodoAction.add(title: "Buy milk")`. Values whose
/// debug description is not Swift source (a `Date`, a class without a custom description) do not
/// compile; the generated test says so at the top.
public protocol SwiftLiteralSource: AnyObject {
  /// The module-qualified names of the app's state and action types.
  var swiftTypeNames: (state: String, action: String) { get }
  /// Writes the state at `position` as a Swift expression to `target`, a piece at a time (a
  /// large state's expression is never held whole).
  func writeSwiftLiteral<Target: TextOutputStream>(
    ofStateAt position: Int, to target: inout Target
  ) throws(ReplayError)
  /// The action `seq` as a Swift expression, or `nil` when it was not recorded.
  func swiftLiteral(ofActionAt seq: Int) throws(ReplayError) -> String?
}

extension Timeline: SwiftLiteralSource {
  /// `String(reflecting:)` of `State` and `Action`: `RewindExamples.TodoState`.
  public var swiftTypeNames: (state: String, action: String) {
    (String(reflecting: State.self), String(reflecting: Action.self))
  }

  /// `String(reflecting:)` of the state at `position`, written to `target` a piece at a time.
  public func writeSwiftLiteral<Target: TextOutputStream>(
    ofStateAt position: Int, to target: inout Target
  ) throws(ReplayError) {
    ReflectingWriter.write(try state(at: position), to: &target)
  }

  /// `String(reflecting:)` of the action `seq`, or `nil` when it was not recorded.
  public func swiftLiteral(ofActionAt seq: Int) throws(ReplayError) -> String? {
    try action(at: seq).map { String(reflecting: $0) }
  }
}
