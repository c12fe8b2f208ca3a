import Foundation
import RewindReplay

/// How a replay binary speaks of itself: the name it was started by, and whether its examples
/// may cite this package's `Fixtures/` logs (only in its checkout, where they are).
///
/// Messages, hints, help and examples are written once, for the bundled `replay`
/// (`hint: replay flipped.jsonl --recovery prefix`). An app's own replay binary — `cart-replay`,
/// made with ``ReplayTool/main(apps:)`` — says the same with its own name, so a pasted hint runs
/// that binary and not the bundled one, and its examples name a log of the user's own
/// (`session.jsonl`), not a fixture of this package its user does not have:
///
///     let voice = ProgramVoice(name: "cart-replay", citesFixtures: false, appName: "cart")
///     voice.speaking("hint: replay info Fixtures/todo-crash.jsonl")
///     // "hint: cart-replay info crash.jsonl"
package struct ProgramVoice: Sendable, Equatable {
  /// The binary's name, as a command line starts with it.
  package var name: String
  /// Whether examples may name `Fixtures/…` logs: only where they are, in this package's
  /// checkout.
  package var citesFixtures: Bool
  /// The app an example's `--app NAME` names; `nil` leaves `NAME` for the user to fill in.
  package var appName: String?

  /// The bundled `replay`, which says everything as it is written.
  package static let bundled = ProgramVoice(name: "replay", citesFixtures: true)

  /// A voice named `name`.
  package init(name: String, citesFixtures: Bool, appName: String? = nil) {
    self.name = name
    self.citesFixtures = citesFixtures
    self.appName = appName
  }

  /// The voice of a binary started as `argument0` (its `argv[0]`): the file's name, or `replay`
  /// when there is none. An example's `--app` names the binary's app when it knows one only.
  package init(invokedAs argument0: String?, citesFixtures: Bool, apps: [ReplayApp]) {
    let file = argument0?.split(separator: "/").last.map(String.init) ?? ""
    self.init(
      name: file.isEmpty ? "replay" : file, citesFixtures: citesFixtures,
      appName: apps.count == 1 ? apps.first?.name : nil)
  }

  /// Whether the current directory holds this package's `Fixtures/` logs: its checkout, where
  /// examples naming them work when pasted.
  package static func fixturesAreHere() -> Bool {
    FileManager.default.fileExists(atPath: "Fixtures/todo-crash.jsonl")
  }

  /// Whether ``speaking(_:)`` leaves every text as it is.
  private var isBundled: Bool { name == "replay" && citesFixtures }

  /// `text`, written for the bundled `replay`, as this binary says it: each command line of
  /// `replay` (the word followed by a command, an option, a path or a placeholder such as `LOG`)
  /// starts with ``name`` instead; unless ``citesFixtures``, a `Fixtures/…` log is a file name of
  /// the user's own and `--app todo` names ``appName`` (or `NAME`). Prose ("replay the log") is
  /// left alone.
  package func speaking(_ text: String) -> String {
    guard !isBundled, text.contains("replay") || text.contains("Fixtures/") else { return text }
    var result = ""
    result.reserveCapacity(text.count)
    var rest = Substring(text)
    while let range = rest.range(of: "replay ") {
      let before = rest[..<range.lowerBound]
      result += before
      let boundary = before.last.map { !($0.isLetter || $0.isNumber || "-_./".contains($0)) }
      let next = rest[range.upperBound...].prefix { $0 != " " && $0 != "\n" }
      if boundary ?? true, Self.isCommandWord(next) {
        result += name + " "
      } else {
        result += rest[range]
      }
      rest = rest[range.upperBound...]
    }
    result += rest
    return citesFixtures ? result : Self.withoutFixtures(result, appName: appName)
  }

  /// Whether `word`, after `replay `, makes the two a command line: a command of the program,
  /// an option, a path, or a placeholder in capitals (`LOG`, `A`).
  private static func isCommandWord(_ word: Substring) -> Bool {
    var bare = word.drop { "'\"`(".contains($0) }
    while let last = bare.last, "'\"`),.:;".contains(last) { bare = bare.dropLast() }
    guard let first = bare.first else { return false }
    if "-/~$".contains(first) || bare.contains("/") || bare.contains(".") { return true }
    if bare.allSatisfy({ $0.isUppercase || $0 == "_" || $0 == "]" || $0 == "[" }) { return true }
    let command = bare.prefix { $0.isLetter || $0 == "-" }
    return command.count == bare.count && commandNames.contains(String(command))
  }

  /// The names of the program's commands.
  private static let commandNames = Set(
    ReplayProgram.program.allCommands.map(\.name).filter { !$0.isEmpty })

  /// What a `Fixtures/…` log is called in an app's own binary: a name saying what kind of log
  /// the example wants.
  private static let fixtureNames = [
    "todo-crash.jsonl": "crash.jsonl", "todo-session.jsonl": "session.jsonl",
    "todo-session-b.jsonl": "session-b.jsonl", "counter.jsonl": "session.jsonl",
    "todo-v1.jsonl": "old-session.jsonl", "todo-torn.jsonl": "torn.jsonl",
    "todo-origins.jsonl": "session.jsonl", "actions-export.json": "devtools-export.json",
  ]

  /// `text` with each `Fixtures/PATH` replaced by a file name of the user's, and `--app todo`
  /// (the bundled example app) by `--app` ``appName``.
  private static func withoutFixtures(_ text: String, appName: String?) -> String {
    var result = ""
    var rest = Substring(text)
    while let range = rest.range(of: "Fixtures/") {
      result += rest[..<range.lowerBound]
      let path = rest[range.upperBound...].prefix {
        $0.isLetter || $0.isNumber || "-_./".contains($0)
      }
      let file = String(path.split(separator: "/").last ?? "")
      result += fixtureNames[file] ?? (file.hasPrefix("todo-") ? String(file.dropFirst(5)) : file)
      rest = rest[range.upperBound...].dropFirst(path.count)
    }
    result += rest
    return result.replacingOccurrences(of: "--app todo", with: "--app \(appName ?? "NAME")")
  }
}

/// A ``TextOutput`` that says what is written to standard error — diagnostics, usage errors,
/// warnings — in a ``ProgramVoice``, and passes standard output (results a script reads) as it
/// is.
package struct VoicedOutput: TextOutput {
  /// Where the text goes.
  package let base: any TextOutput
  /// How the binary speaks of itself.
  package let voice: ProgramVoice

  /// `base`, its diagnostics said in `voice`.
  package init(_ base: any TextOutput, voice: ProgramVoice) {
    self.base = base
    self.voice = voice
  }

  package func write(_ text: String, to channel: OutputChannel) {
    base.write(channel == .standardError ? voice.speaking(text) : text, to: channel)
  }

  package func write(bytes: UnsafeRawBufferPointer, to channel: OutputChannel) {
    guard channel == .standardError else { return base.write(bytes: bytes, to: channel) }
    write(String(decoding: bytes, as: UTF8.self), to: channel)
  }

  package func flush() { base.flush() }

  package func style(for channel: OutputChannel) -> TerminalStyle { base.style(for: channel) }
}
