import RewindReplayService

/// The column where help text starts in the ARGUMENTS, OPTIONS and COMMANDS lists, as in
/// swift-argument-parser.
private let helpColumn = 26

extension ProgramSpec {
  /// The synopsis lines for `command`, each as its head and its elements: for `info`,
  /// `("replay info", ["LOG", "[--json]"])`; for `nil`, the root command's line and
  /// `replay COMMAND [ARG ...]`.
  private func synopses(for command: CommandSpec?) -> [(head: String, elements: [String])] {
    if let command {
      return [(joinedWords(name, command.name), command.usageElements)]
    }
    var lines: [(head: String, elements: [String])] = []
    if let rootCommand {
      lines.append((joinedWords(name, rootCommand.name), rootCommand.usageElements))
    }
    lines.append((name, ["COMMAND", "[ARG ...]"]))
    return lines
  }

  /// Returns the usage of `command`, or of the program when `nil`, after `prefix`:
  ///
  ///     Usage: replay info LOG [--json] [--recovery MODE]
  ///
  /// A line wider than `width` continues under the first argument; further synopses (the
  /// program's `replay COMMAND [ARG ...]`) start under the first.
  ///
  /// - Parameters:
  ///   - command: The command, or `nil` for the program.
  ///   - prefix: What the first line starts with, such as `"Usage: "` or `"USAGE: "`.
  ///   - width: The most columns per line.
  /// - Returns: The lines joined by `\n`, without a trailing line feed.
  package func usage(for command: CommandSpec?, prefix: String = "Usage: ", width: Int = 80)
    -> String
  {
    let margin = String(repeating: " ", count: prefix.count)
    var lines: [String] = []
    for (offset, synopsis) in synopses(for: command).enumerated() {
      let start = (offset == 0 ? prefix : margin) + synopsis.head
      let indent = start.count + 1 <= width / 2 ? start.count + 1 : prefix.count + 4
      var line = start
      for element in synopsis.elements {
        if line.count > indent, displayWidth(of: line) + 1 + displayWidth(of: element) > width {
          lines.append(line)
          line = String(repeating: " ", count: indent) + element
        } else {
          line += (line.isEmpty || line.hasSuffix(" ") ? "" : " ") + element
        }
      }
      lines.append(line)
    }
    return lines.joined(separator: "\n")
  }

  /// The command line that shows help for `command`: `replay info --help`, or `replay --help`.
  package func helpInvocation(for command: CommandSpec?) -> String {
    joinedWords(name, command?.name ?? "", "--help")
  }

  /// Returns a usage error the way swift-argument-parser shows one, without a trailing line
  /// feed:
  ///
  ///     Error: Unknown option '--jsn'. Did you mean '--json'?
  ///     Usage: replay info LOG [--json] [--recovery MODE]
  ///       See 'replay info --help'.
  ///
  /// - Parameters:
  ///   - failure: The error and the command whose usage it breaks.
  ///   - style: With colour on, `Error:` is bold red.
  package func render(_ failure: CommandUsageError, style: TerminalStyle = .plain) -> String {
    [
      style.bold(style.red("Error:")) + " " + failure.error.message,
      usage(for: failure.command),
      "  See '\(helpInvocation(for: failure.command))'.",
    ].joined(separator: "\n")
  }

  /// Returns the help for `command`, or the program's overview when `nil`, without a trailing
  /// line feed.
  ///
  /// The sections follow swift-argument-parser: `OVERVIEW:` with the abstract and discussion,
  /// `USAGE:`, `ARGUMENTS:`, `OPTIONS:` (with allowed values, defaults and repeatability), then
  /// `COMMANDS:` in the overview and `EXAMPLES:`. Lists are aligned on one column and
  /// everything is wrapped to `width`.
  ///
  /// - Parameters:
  ///   - command: The command, or `nil` for the overview.
  ///   - width: The most columns per line, 80 by default.
  package func helpText(for command: CommandSpec?, width: Int = 80) -> String {
    let shown = command ?? rootCommand
    var sections: [String] = []

    let abstract = command?.abstract ?? self.abstract
    var overview = hangingIndent(
      "OVERVIEW: " + abstract, firstLineWidth: width, indent: 0, width: width)
    let discussion = command == nil ? self.discussion : command?.discussion
    if let discussion {
      overview += "\n\n" + paragraphs(discussion, width: width)
    }
    sections.append(overview)
    sections.append(usage(for: command, prefix: "USAGE: ", width: width))

    if let arguments = shown?.arguments, !arguments.isEmpty {
      let rows = arguments.map { ($0.name, $0.help) }
      sections.append("ARGUMENTS:\n" + table(rows, width: width))
    }
    let options = shown?.allOptions ?? [.help]
    sections.append(
      "OPTIONS:\n" + table(options.map { ($0.label, helpText(of: $0)) }, width: width))

    if command == nil {
      let rows = allCommands.map { ($0.name, $0.abstract) }
      let seeAlso = "  See '\(joinedWords(name, "help", "COMMAND"))' for detailed help."
      sections.append("COMMANDS:\n" + table(rows, width: width) + "\n\n" + seeAlso)
    }
    let examples = command?.examples ?? self.examples
    if !examples.isEmpty {
      sections.append("EXAMPLES:\n" + self.examples(examples, width: width))
    }
    return sections.joined(separator: "\n\n")
  }

  /// An option's help followed by what it accepts:
  /// `What to do with a faulty line. (values: tail, strict; default: tail)`.
  private func helpText(of option: OptionSpec) -> String {
    var facts: [String] = []
    if case .choice(let words) = option.valueKind {
      facts.append("values: " + words.joined(separator: ", "))
    }
    if let defaultValue = option.defaultValue {
      facts.append("default: " + defaultValue)
    }
    if option.isRepeatable {
      facts.append("can be repeated")
    }
    guard !facts.isEmpty else { return option.help }
    return option.help + " (" + facts.joined(separator: "; ") + ")"
  }

  /// Rows of `label  help`, help aligned on ``helpColumn`` and wrapped under itself; a label too
  /// wide for the column puts its help on the next line.
  private func table(_ rows: [(label: String, help: String)], width: Int) -> String {
    let padding = String(repeating: " ", count: helpColumn)
    return rows.map { row in
      let label = "  " + row.label
      let help = hangingIndent(
        row.help, firstLineWidth: width - helpColumn, indent: helpColumn, width: width)
      if row.help.isEmpty { return label }
      if label.count + 2 <= helpColumn {
        return label + String(repeating: " ", count: helpColumn - label.count) + help
      }
      return label + "\n" + padding + help
    }.joined(separator: "\n")
  }

  /// Examples, each as its description then its command line indented under it; a described
  /// example is set off by blank lines, plain command lines follow one another.
  private func examples(_ examples: [CommandSpec.Example], width: Int) -> String {
    var text = ""
    var previousIsDescribed = false
    for example in examples {
      let isDescribed = example.description != nil
      if !text.isEmpty { text += previousIsDescribed || isDescribed ? "\n\n" : "\n" }
      if let description = example.description {
        let about = wrapWords(description + ":", toWidth: width - 2).map { "  " + $0 }
        text += (about + ["    " + example.commandLine]).joined(separator: "\n")
      } else {
        text += "  " + example.commandLine
      }
      previousIsDescribed = isDescribed
    }
    return text
  }

  /// Discussion text: paragraphs split at blank lines and rewrapped, except those whose lines
  /// start with a space, which are kept as written.
  private func paragraphs(_ text: String, width: Int) -> String {
    text.split(separator: "\n\n", omittingEmptySubsequences: true).map { paragraph in
      if paragraph.hasPrefix(" ") { return String(paragraph) }
      let flowing = paragraph.split(separator: "\n").joined(separator: " ")
      return wrapWords(flowing, toWidth: width).joined(separator: "\n")
    }.joined(separator: "\n\n")
  }
}

/// The non-empty words joined by spaces: `joinedWords("", "info")` is `"info"`.
private func joinedWords(_ words: String...) -> String {
  words.filter { !$0.isEmpty }.joined(separator: " ")
}
