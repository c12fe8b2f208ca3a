import RewindJSON

extension JSONDiff {
  /// The value width ``render(_:maxValueWidth:)`` uses unless told otherwise.
  public static let defaultMaxValueWidth = 80

  /// Renders changes as text for people, one change per line.
  ///
  /// Each line is one of:
  /// ```
  /// todos[2].title: "Buy milk" → "Buy oat milk"
  /// + todos[3]: {"id":4,"title":"Call mom","done":false}
  /// - todos[0]: {"id":1,"title":"Walk the dog","done":true}
  /// ```
  /// Paths are ``JSONPath`` human paths (`(root)` for the whole document), values are compact
  /// JSON, and a value longer than `maxValueWidth` characters is cut to that many, ending in `…`.
  /// Unchanged values never appear. When `changes` is `nil` or empty the text is `no changes`.
  /// Lines are separated by `\n`, with no newline after the last.
  ///
  /// - Parameters:
  ///   - changes: The result of ``diff(_:_:)``.
  ///   - maxValueWidth: The most characters shown of each value, `…` included; at least 1.
  /// - Returns: The text, without a trailing newline.
  /// - Complexity: O(*c* × `maxValueWidth`) for *c* changes, whatever the size of the values.
  public static func render(
    _ changes: [JSONChange]?, maxValueWidth: Int = defaultMaxValueWidth
  ) -> String {
    guard let changes, !changes.isEmpty else { return "no changes" }
    return changes.map { render($0, maxValueWidth: maxValueWidth) }.joined(separator: "\n")
  }

  static func render(_ change: JSONChange, maxValueWidth: Int) -> String {
    switch change {
    case .added(let path, let value):
      return "+ \(path): \(CompactJSON.text(value, maxWidth: maxValueWidth))"
    case .removed(let path, let value):
      return "- \(path): \(CompactJSON.text(value, maxWidth: maxValueWidth))"
    case .changed(let path, let old, let new):
      let oldText = CompactJSON.text(old, maxWidth: maxValueWidth)
      let newText = CompactJSON.text(new, maxWidth: maxValueWidth)
      return "\(path): \(oldText) → \(newText)"
    }
  }
}
