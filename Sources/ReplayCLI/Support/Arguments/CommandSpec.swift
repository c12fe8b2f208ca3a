/// What a command accepts and how to explain it: the single source for parsing, usage lines and
/// help text.
///
///     let info = CommandSpec(
///       name: "info",
///       abstract: "Summarize a recorded log.",
///       arguments: [ArgumentSpec("LOG", help: "The log to read.")],
///       options: [.flag("json", help: "Print JSON instead of text.")],
///       examples: [.init("replay info session.jsonl")])
///
/// Every command also accepts ``OptionSpec/help`` (`-h, --help`) unless it declares its own
/// option named `help`. A command with an empty ``name`` is a program's root command, the one
/// `replay LOG` runs without naming a command.
package struct CommandSpec: Sendable, Equatable {
  /// An example command line for help, with what it does.
  package struct Example: Sendable, Equatable {
    /// The whole command line, program name included.
    package var commandLine: String
    /// What running it does, as a phrase or sentence.
    package var description: String?

    /// An example running `commandLine`, described by `description`.
    package init(_ commandLine: String, _ description: String? = nil) {
      self.commandLine = commandLine
      self.description = description
    }
  }

  /// The word that selects the command (`info`), or empty for a program's root command.
  package var name: String
  /// One line on what the command does, shown in the program's command list and in help.
  package var abstract: String
  /// More on what the command does, shown in its help after the abstract. Paragraphs are
  /// separated by blank lines and rewrapped; a paragraph whose lines start with a space is kept
  /// as it is.
  package var discussion: String?
  /// The positional arguments, required ones first.
  package var arguments: [ArgumentSpec]
  /// The options and flags, in the order help lists them.
  package var options: [OptionSpec]
  /// Example command lines for help.
  package var examples: [Example]

  /// A command with every part given.
  package init(
    name: String,
    abstract: String,
    discussion: String? = nil,
    arguments: [ArgumentSpec] = [],
    options: [OptionSpec] = [],
    examples: [Example] = []
  ) {
    self.name = name
    self.abstract = abstract
    self.discussion = discussion
    self.arguments = arguments
    self.options = options
    self.examples = examples
  }

  /// The declared options, followed by ``OptionSpec/help`` unless one named `help` is declared.
  package var allOptions: [OptionSpec] {
    options.contains { $0.name == "help" } ? options : options + [.help]
  }

  /// The arguments and options as a usage line shows them after the command's name, one
  /// element each: `["LOG", "[--json]", "[--recovery MODE]"]`. The help option is left out.
  package var usageElements: [String] {
    arguments.map { argument in
      let name = argument.isRepeatable ? argument.name + "…" : argument.name
      return argument.isOptional ? "[\(name)]" : name
    }
      + options.filter { $0.name != "help" }.map(\.usage)
  }
}
