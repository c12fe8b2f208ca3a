/// A named option of a command: a flag like `--json`, or an option with a value like `--at N`.
///
/// A name of one character is spelled with one dash (`-c CMD`), a longer one with two
/// (`--recovery MODE`); ``shortName`` adds a one-dash alias to a long name (`-h, --help`).
/// Values are accepted as `--at 3`, `--at=3`, `-c CMD`, `-cCMD` and `-c=CMD`.
///
///     OptionSpec.flag("json", help: "Print JSON instead of text.")
///     OptionSpec.option("at", valueName: "N", kind: .integer(minimum: 0), help: "…")
///     OptionSpec.option("c", valueName: "CMD", isRepeatable: true, help: "…")
package struct OptionSpec: Sendable, Equatable {
  /// The name without dashes; lookups in ``ParsedArguments`` use it.
  package var name: String
  /// A one-character alias spelled with one dash.
  package var shortName: Character?
  /// One or two sentences on what the option does.
  package var help: String
  /// The placeholder for the value in usage and help (`N`, `MODE`), or `nil` for a flag.
  package var valueName: String?
  /// What the value must look like.
  package var valueKind: ValueKind
  /// Whether the option may be given more than once, collecting every value.
  package var isRepeatable: Bool
  /// The value ``ParsedArguments/string(_:)`` returns when the option is not given; shown in
  /// help.
  package var defaultValue: String?

  /// A flag: an option without a value, on when given.
  package static func flag(_ name: String, short: Character? = nil, help: String) -> OptionSpec {
    OptionSpec(
      name: name, shortName: short, help: help, valueName: nil, valueKind: .text,
      isRepeatable: false, defaultValue: nil)
  }

  /// An option that takes a value.
  ///
  /// - Parameters:
  ///   - name: The name without dashes.
  ///   - short: A one-character alias.
  ///   - valueName: The placeholder for the value in usage and help.
  ///   - kind: What the value must look like; checked while parsing.
  ///   - isRepeatable: Accept the option more than once and keep every value; otherwise a
  ///     second one is a ``UsageError/duplicateOption(_:)``.
  ///   - defaultValue: The value when the option is not given.
  ///   - help: What the option does.
  package static func option(
    _ name: String,
    short: Character? = nil,
    valueName: String,
    kind: ValueKind = .text,
    isRepeatable: Bool = false,
    defaultValue: String? = nil,
    help: String
  ) -> OptionSpec {
    OptionSpec(
      name: name, shortName: short, help: help, valueName: valueName, valueKind: kind,
      isRepeatable: isRepeatable, defaultValue: defaultValue)
  }

  /// The `--help` flag every command accepts.
  package static let help = OptionSpec.flag("help", short: "h", help: "Show help information.")

  /// Whether the option takes a value.
  package var takesValue: Bool { valueName != nil }

  /// The name with its dashes: `--json`, `-c`.
  package var spelling: String { name.count == 1 ? "-" + name : "--" + name }

  /// The option as help lists it: `-h, --help`, `--at N`, `-c CMD`.
  package var label: String {
    var label = shortName.map { "-\($0), " } ?? ""
    label += spelling
    if let valueName { label += " " + valueName }
    return label
  }

  /// The option as a usage line shows it: `[--json]`, `[--at N]`, `[-c CMD ...]`.
  package var usage: String {
    var usage = spelling
    if let valueName { usage += " " + valueName }
    if isRepeatable { usage += " ..." }
    return "[" + usage + "]"
  }
}
