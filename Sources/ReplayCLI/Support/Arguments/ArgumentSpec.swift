/// A positional argument of a command, like the `LOG` of `replay info LOG`.
package struct ArgumentSpec: Sendable, Equatable {
  /// The name shown in usage and help, in capitals by convention (`LOG`, `PATH`); also the name
  /// to look the value up by with ``ParsedArguments/positional(_:)``.
  package var name: String
  /// One sentence on what the argument is.
  package var help: String
  /// Whether the command runs without it; optional arguments come after required ones.
  package var isOptional: Bool
  /// Whether it takes every remaining positional value (`LOG…`); only the last argument may.
  package var isRepeatable: Bool

  /// A positional argument named `name`.
  package init(_ name: String, help: String, isOptional: Bool = false, isRepeatable: Bool = false) {
    self.name = name
    self.help = help
    self.isOptional = isOptional
    self.isRepeatable = isRepeatable
  }
}
