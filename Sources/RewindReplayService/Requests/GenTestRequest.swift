import RewindJSON
import RewindReplay

/// Writes a stretch of the service's log as a Swift test (`replay gen-test`): the state at one
/// position as a literal, the actions after it dispatched to a `Store`, and the state they lead
/// to expected — or, when replaying them crashes the app's reducer, an exit test that expects
/// the crash. Answered with a ``GenTestResponse``: what the test holds, every action checked and
/// the crash point found (in the worker, one request each) before anything is written; the
/// text itself is written by ``ReplayService/writeTest(_:to:)``, a piece at a time.
package struct GenTestRequest: ReplayRequest, Equatable {
  /// The position whose state the test starts from (`nil`: the first).
  package var from: Int?
  /// The last position replayed (`nil`: the last).
  package var to: Int?
  /// The test function's name (`nil`: one made from the log's file name and the range).
  package var name: String?
  /// The reducer expression the test's store is made with (`nil`: `APPReducer`).
  package var reducer: String?

  /// A test of positions `from`…`to`.
  package init(from: Int? = nil, to: Int? = nil, name: String? = nil, reducer: String? = nil) {
    self.from = from
    self.to = to
    self.name = name
    self.reducer = reducer
  }

  /// - Throws: ``DebuggerError/noReducer`` without the app's types; ``ReplayFailure/usage(_:)``
  ///   for a range or name that does not work; an action that no longer decodes, a state that
  ///   cannot be rebuilt, or a crash at or before `from`.
  package func run(on service: ReplayService) throws(ReplayFailure) -> GenTestResponse {
    let opened = service.opened
    let log = opened.log
    guard let local = opened.localTimeline, let source = local as? any SwiftLiteralSource else {
      throw .debugger(.noReducer)
    }
    let from = self.from ?? log.positions.lowerBound
    let to = self.to ?? log.positions.upperBound
    guard log.positions.contains(from), log.positions.contains(to), from <= to else {
      throw .usage(
        "--from \(from) --to \(to) is not a range of positions \(log.positions.lowerBound)…"
          + "\(log.positions.upperBound)")
    }
    let name = self.name ?? Self.testName(log.path, from: from, to: to)
    guard Self.isIdentifier(name) else {
      throw .usage("--name '\(name)' is not a Swift identifier")
    }
    do throws(ReplayError) {
      if let timeline = opened.timeline, from < to {
        // Name an action that no longer decodes before anything else is attempted: one request
        // for the range, in the worker.
        try timeline.checkActions((from + 1)...to)
      }
      let crash = try Self.crashPoint(opened, local: local, from: from, to: to)
      // The states it writes are rebuilt (and its actions checked, above) before the first line
      // is written, so that nothing is left to fail once the test is being written. (Not the
      // state after a crashing action, which would crash this process.)
      try local.reach(from)
      if crash == nil { try local.reach(to) }
      let types = source.swiftTypeNames
      return GenTestResponse(
        path: log.path, session: log.header.session, from: from, to: crash?.seq ?? to,
        crash: crash, name: name, reducer: reducer ?? "\(log.header.app)Reducer",
        module: String(types.state.prefix { $0 != "." }))
    } catch {
      throw .debugger(.replay(error))
    }
  }

  /// `gen-test [--from N] [--to M] [--name NAME] [--reducer EXPR]`.
  static let command = ReplayCommand(
    name: "gen-test", alias: "gt",
    usage: "gen-test [--from N] [--to M] [--name NAME] [--reducer EXPR]",
    summary: "print a Swift test that replays a stretch of the log",
    details: "Prints the state at N (default: first), the actions after it through M (default: "
      + "last) dispatched to a Store, and the state they lead to expected — each a Swift literal, "
      + "or decoded from JSON when it holds a struct, so the test compiles in another module; "
      + "when replaying them crashes the reducer, an exit test that expects the crash. As "
      + "'replay gen-test LOG'.", arguments: .positions
  ) { words, service throws(ReplayFailure) in
    var request = GenTestRequest()
    var rest = words[...]
    while let option = rest.popFirst() {
      guard let value = rest.popFirst(), ["--from", "--to", "--name", "--reducer"].contains(option)
      else {
        throw .usage("usage: gen-test [--from N] [--to M] [--name NAME] [--reducer EXPR]")
      }
      switch option {
      case "--from": request.from = try ReplayCommand.position(value, in: service)
      case "--to": request.to = try ReplayCommand.position(value, in: service)
      case "--name": request.name = value
      default: request.reducer = value
      }
    }
    return request
  }

  /// The crash that replaying up to `to` meets, found in a child process so this one survives
  /// (and so that the literals, built in this process, are built only from states that do not
  /// trap). Without isolation, only the last action of a cut-off log is checked.
  ///
  /// - Throws: The crash report when the crash comes at or before `from`, whose state then cannot
  ///   be rebuilt; any other replay error.
  private static func crashPoint(
    _ opened: OpenedLog, local: any ReplayTimeline, from: Int, to: Int
  ) throws(ReplayError) -> CrashReport? {
    let log = opened.log
    guard log.actionCount > 0, to > log.positions.lowerBound else { return nil }
    let isolated: IsolatedTimeline
    if let timeline = opened.timeline as? IsolatedTimeline {
      isolated = timeline
    } else if log.isCutOff, to == log.lastSeq {
      isolated = IsolatedTimeline(local: local, recovery: log.recovery)
    } else {
      return nil
    }
    do {
      // Only whether it crashes: the state's text, never built as a tree.
      _ = try isolated.stateJSONText(at: to)
      return nil
    } catch {
      guard case .reducerCrashed(let report) = error, let seq = report.seq, seq > from else {
        throw error
      }
      return report
    }
  }

  /// The default test name: the log's file name in lower camel case, then the range
  /// (`todoCrashReplays3To9`).
  package static func testName(_ path: String, from: Int, to: Int) -> String {
    let file = path.split(separator: "/").last.map(String.init) ?? "log"
    let base = file.hasSuffix(".jsonl") ? String(file.dropLast(6)) : file
    var name = ""
    var upper = false
    for character in base {
      if character.isLetter || character.isNumber {
        name.append(upper ? Character(character.uppercased()) : character)
        upper = false
      } else {
        upper = !name.isEmpty
      }
    }
    if name.isEmpty || name.first?.isNumber == true { name = "log" + name }
    return "\(name)Replays\(from)To\(to)"
  }

  /// Whether `name` can name a Swift function as it is.
  package static func isIdentifier(_ name: String) -> Bool {
    guard let first = name.first, first.isLetter || first == "_" else { return false }
    return name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
  }
}

/// What a generated test holds: the stretch of the log it replays, and how it ends.
package struct GenTestResponse: ReplayResponse, Equatable {
  /// The log's path.
  package var path: String
  /// The log's session id.
  package var session: String
  /// The position whose state the test starts from.
  package var from: Int
  /// The last action dispatched: the crashing one, when ``crash`` is set.
  package var to: Int
  /// The crash replaying meets at ``to``: the test then expects the process to exit with it.
  package var crash: CrashReport?
  /// The test function's name.
  package var name: String
  /// The reducer expression.
  package var reducer: String
  /// The module of the app's types, imported by the test.
  package var module: String

  /// `{"path", "name", "from", "to", "expects": "state" | "crash", "reducer", "module",
  /// "crash"}`: what the test holds; the Swift text is written by
  /// ``ReplayService/writeTest(_:to:)``.
  package var jsonValue: JSONValue {
    .object([
      JSONMember("path", .string(path)), JSONMember("name", .string(name)),
      JSONMember("from", .number(String(from))), JSONMember("to", .number(String(to))),
      JSONMember("expects", .string(crash == nil ? "state" : "crash")),
      JSONMember("reducer", .string(reducer)), JSONMember("module", .string(module)),
      JSONMember("crash", crash?.json ?? .null),
    ])
  }
}

extension ReplayService {
  /// Writes the test `response` describes to `target`, a piece at a time: each state's literal
  /// as the app's types spell it (a large state's is never held whole), built in this process
  /// from states the request has already rebuilt without a trap.
  /// - Throws: A replay error when a state or action cannot be written as a literal.
  package func writeTest<Target: TextOutputStream>(
    _ response: GenTestResponse, to text: inout Target
  ) throws(ReplayFailure) {
    guard let source = opened.localTimeline as? any SwiftLiteralSource else {
      throw .debugger(.noReducer)
    }
    let crashes = response.crash != nil
    let (from, end, name) = (response.from, response.to, response.name)
    text.write(
      "// Generated by `replay gen-test` from \(inert(response.path)) "
        + "(session \(inert(response.session))):\n"
        + "// the state at position \(from), then actions \(from + 1)…\(end). Enums, strings and "
        + "numbers are Swift literals; a\n"
        + "// value that holds a struct is decoded from JSON with the app's Codable, because a "
        + "struct's\n"
        + "// memberwise initialiser is internal to the app's module (docs/testing.md).\n"
        // Literals stay on one line each, as `String(reflecting:)` writes them: keep formatters
        // off.
        + "// swift-format-ignore-file\nimport Foundation\nimport Rewind\nimport "
        + "\(response.module)\nimport Testing\n\n"
    )
    // The body is indented once more inside a crash's exit test.
    let indent = crashes ? "  " : ""
    if crashes {
      // Exit tests exist where a test can start a process: not on iOS, tvOS, watchOS, visionOS.
      text.write("#if os(macOS) || os(Linux) || os(FreeBSD) || os(OpenBSD) || os(Windows)\n")
      text.write("@Test func \(name)() async {\n")
      text.write("  // The app stopped while running action \(end): replaying it must crash.\n")
      text.write("  await #expect(processExitsWith: .failure) {\n")
    } else {
      text.write("@Test func \(name)() throws {\n")
    }
    do throws(ReplayError) {
      text.write("\(indent)  let store = Store(\n\(indent)    initialState: ")
      try source.writeSwiftExpression(ofStateAt: from, to: &text)
      text.write(",\n\(indent)    reducer: \(response.reducer))\n")
      if from < end {
        for seq in (from + 1)...end {
          if let expression = try source.swiftExpression(ofActionAt: seq) {
            text.write("\(indent)  store.dispatch(\(expression))  // \(seq)\n")
          } else {
            text.write(
              "\(indent)  // action \(seq) was not recorded; the recorded session may differ from "
                + "here on\n")
          }
        }
      }
      if !crashes {
        // `try` may not stand right of `==`: the expected state is a constant of its own.
        text.write("  let expected = ")
        try source.writeSwiftExpression(ofStateAt: end, to: &text)
        text.write("\n  #expect(store.state == expected)\n")
      }
    } catch {
      throw .debugger(.replay(error))
    }
    text.write(crashes ? "  }\n}\n#endif\n" : "}\n")
  }
}
