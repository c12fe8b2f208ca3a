import RewindReplay

extension CommandSpec {
  /// Parses the arguments that follow the command's name.
  ///
  /// Accepted forms:
  /// - flags: `--json`, `-h`, and grouped short flags `-jh`;
  /// - values: `--at 3`, `--at=3`, `-c CMD`, `-cCMD`, `-c=CMD`; a separate value may not start
  ///   with `-` unless it is a number (`--from -1`) or `-` itself, so `--at --json` is a missing
  ///   value rather than a value `--json` (write `--type=-x` for such a value);
  /// - positional arguments anywhere among the options;
  /// - `--`, after which every argument is positional.
  ///
  /// When `--help` or `-h` is among the options, parsing stops checking and returns arguments
  /// whose ``ParsedArguments/isHelpRequested`` is `true`, so `replay info --jsn --help` shows
  /// help rather than an error.
  ///
  /// - Parameter arguments: The arguments after the command's name.
  /// - Returns: The options and positional arguments, with values checked against their
  ///   ``ValueKind``.
  /// - Throws: The first ``UsageError`` met from left to right: `unknownOption`, `missingValue`,
  ///   `invalidValue`, `unexpectedValue`, `duplicateOption` or `unexpectedArgument`; then
  ///   `missingArgument` for the first required argument left out.
  package func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
    var parser = ArgumentParser(command: self)
    return try parser.parse(arguments)
  }
}

/// The state of one parse: what has been collected so far.
private struct ArgumentParser {
  let command: CommandSpec
  let options: [OptionSpec]
  var positionals: [String] = []
  var values: [String: [String]] = [:]

  init(command: CommandSpec) {
    self.command = command
    self.options = command.allOptions
  }

  mutating func parse(_ tokens: [String]) throws(UsageError) -> ParsedArguments {
    if asksForHelp(tokens) {
      values = ["help": []]
      return result()
    }
    var index = 0
    var optionsEnded = false
    while index < tokens.count {
      let token = tokens[index]
      index += 1
      if optionsEnded || !looksLikeOption(token) {
        try addPositional(token)
      } else if token == "--" {
        optionsEnded = true
      } else if token.hasPrefix("--") {
        try parseLongOption(token, tokens, &index)
      } else {
        try parseShortOptions(token, tokens, &index)
      }
    }
    if values["help"] == nil,
      let missing = command.arguments.dropFirst(positionals.count).first(where: { !$0.isOptional })
    {
      throw .missingArgument(missing.name)
    }
    return result()
  }

  private func result() -> ParsedArguments {
    ParsedArguments(
      positionals: positionals, values: values, options: options, arguments: command.arguments)
  }

  /// Whether `--help` or `-h` comes before any `--`.
  private func asksForHelp(_ tokens: [String]) -> Bool {
    guard let help = options.first(where: { $0.name == "help" && !$0.takesValue }) else {
      return false
    }
    let spellings = [help.spelling] + (help.shortName.map { ["-\($0)"] } ?? [])
    return tokens.prefix { $0 != "--" }.contains { spellings.contains($0) }
  }

  /// Whether `token` is an option rather than a positional argument or a value: it starts with
  /// `-`, and is neither `-` alone nor a negative number.
  private func looksLikeOption(_ token: String) -> Bool {
    guard token.hasPrefix("-"), let second = token.dropFirst().first else { return false }
    return !(second.isASCII && second.isNumber && shortOption(second) == nil)
  }

  private mutating func addPositional(_ token: String) throws(UsageError) {
    guard
      positionals.count < command.arguments.count || command.arguments.last?.isRepeatable == true
    else {
      throw .unexpectedArgument(token)
    }
    positionals.append(token)
  }

  /// Parses `--name` or `--name=value`.
  private mutating func parseLongOption(
    _ token: String, _ tokens: [String], _ index: inout Int
  ) throws(UsageError) {
    let body = token.dropFirst(2)
    let name = String(body.prefix { $0 != "=" })
    let inlineValue = body.firstIndex(of: "=").map { String(body[body.index(after: $0)...]) }
    guard let option = options.first(where: { $0.name == name && $0.name.count > 1 }) else {
      throw .unknownOption("--" + name, suggestion: suggestLongOption(for: name))
    }
    try record(option, spelledAs: "--" + name, inlineValue: inlineValue, tokens, &index)
  }

  /// Parses `-c`, `-cVALUE`, `-c=VALUE` and grouped flags like `-jh`.
  private mutating func parseShortOptions(
    _ token: String, _ tokens: [String], _ index: inout Int
  ) throws(UsageError) {
    let body = token.dropFirst()
    let name = String(body.prefix { $0 != "=" })
    if name.count > 1, options.contains(where: { $0.name == name }) {
      throw .unknownOption("-" + name, suggestion: "--" + name)  // `-json` for `--json`
    }
    var rest = body
    while let character = rest.first {
      let isFirst = rest.startIndex == body.startIndex
      rest = rest.dropFirst()
      guard let option = shortOption(character) else {
        if isFirst, name.count > 1 {  // `-jsn`: most likely a long option with one dash
          throw .unknownOption("-" + name, suggestion: suggestLongOption(for: name))
        }
        throw .unknownOption("-" + String(character), suggestion: nil)
      }
      let spelling = "-" + String(character)
      if option.takesValue {
        let inlineValue = rest.hasPrefix("=") ? String(rest.dropFirst()) : String(rest)
        let hasInlineValue = !rest.isEmpty
        try record(
          option, spelledAs: spelling, inlineValue: hasInlineValue ? inlineValue : nil, tokens,
          &index)
        return
      }
      if rest.hasPrefix("=") {
        throw .unexpectedValue(option: spelling, value: String(rest.dropFirst()))
      }
      try record(option, spelledAs: spelling, inlineValue: nil, tokens, &index)
    }
  }

  /// Records a flag, or the option's value: `inlineValue`, else the next token.
  private mutating func record(
    _ option: OptionSpec, spelledAs spelling: String, inlineValue: String?,
    _ tokens: [String], _ index: inout Int
  ) throws(UsageError) {
    guard option.takesValue else {
      if let inlineValue { throw .unexpectedValue(option: spelling, value: inlineValue) }
      if values[option.name] == nil { values[option.name] = [] }
      return
    }
    let raw: String
    if let inlineValue {
      raw = inlineValue
    } else if index < tokens.count, !looksLikeOption(tokens[index]) {
      raw = tokens[index]
      index += 1
    } else {
      throw .missingValue(option: spelling)
    }
    if !option.isRepeatable, values[option.name] != nil {
      throw .duplicateOption(spelling)
    }
    let value = try option.valueKind.validate(raw, for: spelling)
    values[option.name, default: []].append(value)
  }

  private func shortOption(_ character: Character) -> OptionSpec? {
    options.first { $0.shortName == character || $0.name == String(character) }
  }

  private func suggestLongOption(for name: String) -> String? {
    let longNames = options.map(\.name).filter { $0.count > 1 }
    return closestMatch(to: name, in: longNames).map { "--" + $0 }
  }
}
