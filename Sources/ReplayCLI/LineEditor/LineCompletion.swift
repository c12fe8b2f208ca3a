/// What Tab can put in place of the word before the cursor.
package struct LineCompletion: Sendable, Equatable {
  /// Where the word being completed starts, in characters from the start of the line.
  package var start: Int
  /// Texts that can replace the line from ``start`` to the cursor, in the order to list them.
  package var candidates: [String]
  /// What follows a candidate when it is the only one: a space after a command name, nothing
  /// after a key of a state path (a `.` or `[` may follow).
  package var terminator: String

  /// A completion of the word from `start` to the cursor.
  package init(start: Int, candidates: [String], terminator: String = "") {
    self.start = start
    self.candidates = candidates
    self.terminator = terminator
  }
}

/// Completes the word before the cursor when Tab is pressed; supplied by whoever knows what
/// the words can be (the session: command names and the keys of the current state).
package protocol LineCompleting {
  /// The completions of the word that ends at `cursor` in `line`, or `nil` when there are none.
  /// - Parameters:
  ///   - line: The whole line being edited.
  ///   - cursor: The cursor's offset in characters.
  func completion(for line: String, cursor: Int) -> LineCompletion?
}

/// The longest string that every one of `strings` starts with.
func longestCommonPrefix(_ strings: [String]) -> String {
  guard var prefix = strings.first.map(Array.init) else { return "" }
  for string in strings.dropFirst() {
    let characters = Array(string)
    var length = 0
    while length < min(prefix.count, characters.count), prefix[length] == characters[length] {
      length += 1
    }
    prefix.removeSubrange(length...)
  }
  return String(prefix)
}
