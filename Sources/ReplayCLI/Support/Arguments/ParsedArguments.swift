/// The arguments of one command line, parsed by ``CommandSpec/parse(_:)``.
///
/// Look values up by the names in the command's spec: an option by its ``OptionSpec/name``
/// (or its short name), a positional argument by its ``ArgumentSpec/name``.
///
///     let arguments = try info.parse(["session.jsonl", "--json"])
///     arguments.positional("LOG")    // "session.jsonl"
///     arguments.flag("json")         // true
///     arguments.string("recovery")   // "tail", the default
///
/// Looking up a name the spec does not declare is a programmer error: it stops debug builds and
/// returns `nil`, `false` or `[]` in release builds.
package struct ParsedArguments: Sendable, Equatable {
  /// The positional arguments, in order.
  package private(set) var positionals: [String]
  private var values: [String: [String]]
  private let options: [OptionSpec]
  private let arguments: [ArgumentSpec]

  /// Parsed arguments for a command with `options` and `arguments`; `values` holds the values of
  /// options by name, with an empty list for a flag that was given.
  init(
    positionals: [String], values: [String: [String]], options: [OptionSpec],
    arguments: [ArgumentSpec]
  ) {
    self.positionals = positionals
    self.values = values
    self.options = options
    self.arguments = arguments
  }

  /// Whether `--help` or `-h` was given; nothing else was checked then.
  package var isHelpRequested: Bool {
    values["help"] != nil
  }

  /// The positional argument called `name`, or `nil` when an optional one was left out.
  package func positional(_ name: String) -> String? {
    guard let index = arguments.firstIndex(where: { $0.name == name }) else {
      assertionFailure("The command has no argument '\(name)'.")
      return nil
    }
    return index < positionals.count ? positionals[index] : nil
  }

  /// Every value of the repeatable positional argument `name` (`LOG…`), in order.
  package func positionals(_ name: String) -> [String] {
    guard let index = arguments.firstIndex(where: { $0.name == name }) else {
      assertionFailure("The command has no argument '\(name)'.")
      return []
    }
    return index < positionals.count ? Array(positionals[index...]) : []
  }

  /// Whether the option `name` was given on the command line.
  package func contains(_ name: String) -> Bool {
    guard let option = option(named: name) else { return false }
    return values[option.name] != nil
  }

  /// Whether the flag `name` was given.
  package func flag(_ name: String) -> Bool {
    contains(name)
  }

  /// The value of the option `name`: the last one given, else its default, else `nil`.
  package func string(_ name: String) -> String? {
    guard let option = option(named: name) else { return nil }
    return values[option.name]?.last ?? option.defaultValue
  }

  /// Every value given for the repeatable option `name`, in order; its default alone, if it has
  /// one, when it was not given.
  package func strings(_ name: String) -> [String] {
    guard let option = option(named: name) else { return [] }
    return values[option.name] ?? option.defaultValue.map { [$0] } ?? []
  }

  /// The value of the option `name` as an integer, or `nil` when it was not given and has no
  /// default.
  ///
  /// - Throws: ``UsageError/invalidValue(option:value:expected:suggestion:)`` when the value is
  ///   not a decimal integer (only possible for options of kind ``ValueKind/text``; the others
  ///   are checked while parsing).
  package func int(_ name: String) throws(UsageError) -> Int? {
    guard let option = option(named: name), let value = string(name) else { return nil }
    guard let number = Int(value) else {
      throw .invalidValue(
        option: option.spelling, value: value, expected: ValueKind.integer().expectation)
    }
    return number
  }

  private func option(named name: String) -> OptionSpec? {
    let found =
      options.first { $0.name == name }
      ?? options.first { $0.shortName.map(String.init) == name }
    if found == nil { assertionFailure("The command has no option '\(name)'.") }
    return found
  }
}
