import RewindJSON

/// One difference between two JSON values, as found by ``JSONDiff/diff(_:_:)``.
///
/// Array indices in a change's path follow one rule, which lets ``JSONPatch/init(changes:)``
/// turn a list of changes into a patch: the last index of a `.removed` path is the element's
/// position in the *old* array; every other index, in every kind of change, is a position in the
/// *new* array. So `- todos[0]` names the old first element, while `todos[3].done` names the todo
/// now at position 3, wherever it was before.
public enum JSONChange: Sendable, Equatable, CustomStringConvertible {
  /// `value` is in the new document at `path` and was not in the old one.
  case added(JSONPath, JSONValue)
  /// `value` was in the old document at `path` and is not in the new one.
  case removed(JSONPath, JSONValue)
  /// The value at `path` was `old` and is `new`: scalars that differ, or values of different
  /// kinds (an object that became an array is one change).
  case changed(JSONPath, old: JSONValue, new: JSONValue)

  /// Where the change is.
  public var path: JSONPath {
    switch self {
    case .added(let path, _), .removed(let path, _), .changed(let path, _, _): return path
    }
  }

  /// The change as one line of ``JSONDiff/render(_:maxValueWidth:)`` output, for example
  /// `todos[2].title: "Buy milk" → "Buy oat milk"`.
  public var description: String {
    JSONDiff.render(self, maxValueWidth: JSONDiff.defaultMaxValueWidth)
  }
}
