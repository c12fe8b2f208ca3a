import RewindJSON
import RewindReplay

/// A session command: how a request is asked for in words (`next 3`, `watch todos.count`), with
/// what `help` and completion say of it. ``ReplayCommandTable`` lists them; the REPL, `-c`,
/// the TUI's `:` prompt and the protocol front ends all parse through it.
package struct ReplayCommand: Sendable {
  /// What the words after a command's name are, for completion.
  package enum Arguments: Sendable, Equatable {
    /// Nothing to complete (a number, free text, or no words).
    case other
    /// A command's name (`help`).
    case commandName
    /// Positions: a number, `first` or `last` (`goto`, `diff`).
    case positions
    /// A path in the state (`print`, `watch`).
    case statePath
    /// `type=NAME` or `if PATH OP VALUE` (`break`).
    case breakpoint
  }

  /// The command's name (`reverse-continue`).
  package var name: String
  /// Its short alias (`rc`).
  package var alias: String
  /// How it is written (`goto N|first|last`).
  package var usage: String
  /// One line on what it does.
  package var summary: String
  /// What `help COMMAND` adds.
  package var details: String
  /// Whether an empty line runs it again: not for commands that add, delete or skip something,
  /// which a stray empty line must not do twice.
  package var repeats = true
  /// What its words are, for completion.
  package var arguments = Arguments.other
  /// Builds the request from the words after the command's name.
  package var parse:
    @Sendable (_ words: [String], _ service: ReplayService) throws(ReplayFailure) ->
      any ReplayRequest

  /// A command of the table.
  package init(
    name: String, alias: String, usage: String, summary: String, details: String,
    repeats: Bool = true, arguments: Arguments = .other,
    parse:
      @escaping @Sendable (_ words: [String], _ service: ReplayService) throws(ReplayFailure)
      -> any ReplayRequest
  ) {
    self.name = name
    self.alias = alias
    self.usage = usage
    self.summary = summary
    self.details = details
    self.repeats = repeats
    self.arguments = arguments
    self.parse = parse
  }

  /// Whether `--json` prints the command's result as one line of JSON (its response's one JSON
  /// form) instead of text: every command but `quit`.
  package var hasJSON: Bool { name != "quit" }

  /// The command as `help --json` gives it: `name`, `alias`, `usage`, `summary`, `details`.
  package var jsonValue: JSONValue {
    .object([
      JSONMember("name", .string(name)), JSONMember("alias", .string(alias)),
      JSONMember("usage", .string(usage)), JSONMember("summary", .string(summary)),
      JSONMember("details", .string(details)),
    ])
  }
}

/// What parsing the words of a request shares.
extension ReplayCommand {
  /// A count of steps or actions: none gives `value`.
  package static func count(_ words: [String], default value: Int) throws(ReplayFailure) -> Int {
    guard let first = words.first else { return value }
    guard words.count == 1, let n = Int(first), n >= 0 else {
      throw .usage("expected a number of steps, not '\(words.joined(separator: " "))'")
    }
    return n
  }

  /// The state path the words spell (`todos[0].title`, or the whole state when there are none).
  package static func path(_ words: [String]) throws(ReplayFailure) -> JSONPath {
    do throws(StatePathError) {
      return try JSONPath.parse(words.joined(separator: " "))
    } catch {
      throw .debugger(.badPath(error))
    }
  }

  /// The action one optional word names (`12`, `first`, `last`), or `nil` for none: `action
  /// [N]`, `where [N]`.
  package static func optionalSeq(_ words: [String], in service: ReplayService)
    throws(ReplayFailure) -> Int?
  {
    guard let word = words.first else { return nil }
    guard words.count == 1 else {
      throw .usage("expected one action's seq, not '\(words.joined(separator: " "))'")
    }
    return try position(word, in: service)
  }

  /// The position a word names in the service's log (`12`, `first`, `last`).
  package static func position(_ word: String, in service: ReplayService) throws(ReplayFailure)
    -> Int
  {
    do throws(DebuggerError) { return try Debugger.position(word, in: service.log) } catch {
      throw .debugger(error)
    }
  }
}
