import RewindReplayService

/// One message for a person: what went wrong (or is worth knowing), where, and what to do next.
///
/// Rendered by ``rendered(style:)`` the way compilers print diagnostics:
///
///     error: session.jsonl:42 (byte 5310): checksum mismatch — the line was changed after it was recorded
///     note: 41 actions before it are intact
///     hint: replay session.jsonl --recovery prefix   # replay the 41 intact actions
///
/// Each part is one line. Every piece is passed through ``inert(_:keepingNewlines:)`` when
/// rendered, so file names and messages quoting an untrusted log cannot drive the terminal; a
/// line feed in a message shows as `\n` (put further lines in ``notes`` instead).
package struct Diagnostic: Sendable, Equatable {
  /// How serious a diagnostic is; its name starts the first line.
  package enum Severity: String, Sendable, CaseIterable {
    /// The command could not do what was asked.
    case error
    /// The command went on, but the result may not be what the user expects.
    case warning
    /// A fact that explains another diagnostic or the result.
    case note
    /// Something the user can do next.
    case hint
  }

  /// Where a diagnostic points: a file, and optionally a line and a byte offset in it.
  package struct Location: Sendable, Equatable, CustomStringConvertible {
    /// The file as the user named it.
    package var file: String
    /// The 1-based line number.
    package var line: Int?
    /// The 0-based offset of the line's first byte in the file.
    package var byteOffset: Int?

    /// A location in `file`, at `line` and `byteOffset` when known.
    package init(file: String, line: Int? = nil, byteOffset: Int? = nil) {
      self.file = file
      self.line = line
      self.byteOffset = byteOffset
    }

    /// The location as `file:line (byte N)`, leaving out what is unknown.
    package var description: String {
      var text = inert(file)
      if let line { text += ":\(line)" }
      if let byteOffset { text += " (byte \(byteOffset))" }
      return text
    }
  }

  /// A suggested next step: usually a command line, with an optional comment saying what it
  /// does, rendered as `hint: text   # comment`.
  package struct Hint: Sendable, Equatable, ExpressibleByStringLiteral {
    /// The suggestion, often a command to run.
    package var text: String
    /// What following the suggestion does, rendered after `#`.
    package var comment: String?

    /// A hint with `text` and an optional `comment`.
    package init(_ text: String, comment: String? = nil) {
      self.text = text
      self.comment = comment
    }

    /// A hint without a comment.
    package init(stringLiteral text: String) {
      self.init(text)
    }
  }

  /// How serious the diagnostic is.
  package var severity: Severity
  /// Where it points, if anywhere.
  package var location: Location?
  /// What happened, as one line.
  package var message: String
  /// Facts that explain it, one `note:` line each.
  package var notes: [String]
  /// What to do next, one `hint:` line each.
  package var hints: [Hint]

  /// A diagnostic with every part given.
  package init(
    _ severity: Severity,
    at location: Location? = nil,
    _ message: String,
    notes: [String] = [],
    hints: [Hint] = []
  ) {
    self.severity = severity
    self.location = location
    self.message = message
    self.notes = notes
    self.hints = hints
  }

  /// An error diagnostic.
  package static func error(
    _ message: String, at location: Location? = nil, notes: [String] = [], hints: [Hint] = []
  ) -> Diagnostic {
    Diagnostic(.error, at: location, message, notes: notes, hints: hints)
  }

  /// A warning diagnostic.
  package static func warning(
    _ message: String, at location: Location? = nil, notes: [String] = [], hints: [Hint] = []
  ) -> Diagnostic {
    Diagnostic(.warning, at: location, message, notes: notes, hints: hints)
  }

  /// Returns the diagnostic as lines of text, without a trailing line feed.
  ///
  /// The first line is `severity: location: message`; then one `note:` line per note and one
  /// `hint:` line per hint, with the hints' `#` comments aligned three spaces after the longest
  /// hint text. With colour on, each severity word is bold and coloured (error red, warning
  /// yellow, note and hint cyan) and hint comments are dimmed.
  ///
  /// - Parameter style: Whether to use colour; ``TerminalStyle/plain`` by default.
  package func rendered(style: TerminalStyle = .plain) -> String {
    var firstLine = label(severity, style) + " "
    if let location { firstLine += "\(location): " }
    firstLine += inert(message)

    var lines = [firstLine]
    for note in notes {
      lines.append(label(.note, style) + " " + inert(note))
    }
    let commentColumn =
      hints.filter { $0.comment != nil }.map { displayWidth(of: inert($0.text)) }.max() ?? 0
    for hint in hints {
      let text = inert(hint.text)
      var line = label(.hint, style) + " " + text
      if let comment = hint.comment {
        let padding = String(repeating: " ", count: commentColumn - displayWidth(of: text) + 3)
        line += padding + style.dim("# " + inert(comment))
      }
      lines.append(line)
    }
    return lines.joined(separator: "\n")
  }

  private func label(_ severity: Severity, _ style: TerminalStyle) -> String {
    let word = severity.rawValue + ":"
    switch severity {
    case .error: return style.bold(style.red(word))
    case .warning: return style.bold(style.yellow(word))
    case .note, .hint: return style.bold(style.cyan(word))
    }
  }
}
