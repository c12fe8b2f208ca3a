import Foundation
import Rewind
import RewindJSON
import RewindReplay
import RewindReplayService
import RewindServers

extension CommandInvocation {
  /// `replay listen [--socket PATH | --port N [--host H]] [--token T] [--save FILE]`: waits for
  /// apps whose recorder streams to it (docs/live.md), saves each app's session as a log, and
  /// opens the normal session on the first one's as it grows: before each command, what arrived
  /// is read; `wait [N]` waits for N more actions (watchpoints and breakpoints stop the view
  /// there); `apps` lists the apps connected and `app N` switches to one.
  func runListen() throws(CommandFailure) -> Int32 {
    let listening = try startListening()
    let (listener, events) = (listening.listener, listening.events)
    let first = try listening.firstApp(shownBy: self)
    var live = LiveView(app: first)
    let session = ReplaySession(
      opened: try openLive(first.path), output: output, jsonMode: arguments.flag("json"))
    live.openedBytes = Platform.fileIdentity(first.path)?.size ?? 0
    session.service.isLive = true
    // A live view starts at the newest state, and follows the end until the cursor is moved.
    try? session.debugger.place(at: session.log.lastSeq)
    var apps: [Int: LiveListener.App] = [first.connection: first]

    /// Reads what arrived since the last command; `true` when a watchpoint or breakpoint
    /// stopped the view on the new actions.
    @discardableResult
    func refresh(quietly: Bool = false) -> Bool {
      for event in events.take() {
        if case .connected(let app) = event { apps[app.connection] = app }
        if !quietly { show(event) }
      }
      guard let size = Platform.fileIdentity(live.app.path)?.size, size > live.openedBytes else {
        return false
      }
      let before = session.log.lastSeq
      let following = session.position == before && live.stoppedAt != before
      guard let opened = try? openLive(live.app.path) else { return false }
      live.openedBytes = size
      session.reopen(opened)
      let after = session.log.lastSeq
      guard after > before else { return false }
      if !quietly {
        output.writeLine(
          "live: \(after - before) new action\(after - before == 1 ? "" : "s") (seq \(before + 1)…\(after))"
        )
      }
      guard following else { return false }
      guard !session.debugger.breakpoints.isEmpty else {
        try? session.debugger.place(at: after)
        return false
      }
      // Watchpoints and breakpoints stop the view (not the app) on the new actions; it stays
      // there, no longer following the end, until the cursor is moved.
      guard let response = try? session.service.perform(ContinueRequest(.forward)) else {
        return false
      }
      if case .boundary = response.stop { return false }
      session.show(response)
      live.stoppedAt = response.stop.position
      return true
    }

    /// `wait [N] [--timeout S]`: until N more actions arrived (default 1), the app closed its
    /// recorder, or the time limit.
    func wait(count: Int, limit: Int?) {
      let target = session.log.lastSeq + count
      let end = limit.map { DispatchTime.now() + .seconds($0) }
      var closed = false
      while true {
        let pending = events.take()
        for event in pending {
          show(event)
          if case .connected(let app) = event { apps[app.connection] = app }
          if case .disconnected(let app, _) = event, app.hello.session == live.app.hello.session {
            closed = true
          }
        }
        if refresh(quietly: true) {
          output.writeLine("wait: stopped at \(session.position); the app goes on")
          break
        }
        if session.log.lastSeq >= target || closed { break }
        if let end, DispatchTime.now() >= end {
          output.writeLine("wait: the time limit passed at seq \(session.log.lastSeq)")
          break
        }
        events.wait(milliseconds: 100)
      }
      output.writeLine(
        "live: at seq \(session.log.lastSeq)\(closed ? " (the app's connection ended)" : ""); cursor at \(session.position)"
      )
    }

    /// `dispatch ACTION`: asks the app to dispatch the action (its JSON as the log writes it),
    /// when the app accepts actions; shows the action once it is recorded.
    func dispatch(_ line: String) {
      let result = listening.dispatch(LiveListening.dispatchedText(of: line), to: live.app) {
        event in
        if case .connected(let app) = event { apps[app.connection] = app }
        show(event)
      }
      switch result {
      case .failure(let failure):
        output.writeLine("error: \(failure.message)", to: .standardError)
      case .success(let seq):
        // Its line follows the answer: read until it is here.
        let deadline = DispatchTime.now() + LiveListening.dispatchTimeout
        while session.log.lastSeq < seq, DispatchTime.now() < deadline {
          refresh(quietly: true)
          if session.log.lastSeq < seq { events.wait(milliseconds: 20) }
        }
        output.writeLine("dispatched: \(inert(live.app.hello.app)) recorded it as #\(seq)")
        if session.log.lastSeq >= seq { _ = session.execute("action \(seq)") }
      }
    }

    /// `app N`: views app N's session.
    func view(_ number: Int) {
      guard let app = apps[number] else {
        output.writeLine("error: app N: one of \(apps.keys.sorted())", to: .standardError)
        return
      }
      guard let opened = try? openLive(app.path) else {
        output.writeLine("error: \(inert(app.path)) cannot be read yet", to: .standardError)
        return
      }
      live = LiveView(app: app)
      live.openedBytes = Platform.fileIdentity(app.path)?.size ?? 0
      session.reopen(opened)
      output.writeLine("viewing \(describe(app))")
    }

    /// `wait` and `app`, parsed as every command's arguments are.
    func runParsed(_ words: [String]) {
      do throws(CommandUsageError) {
        switch try LiveSessionCommands.parse(words) {
        case .help(let command):
          output.writeLine(LiveSessionCommands.program.helpText(for: command))
        case .wait(let count, let limit):
          wait(count: count, limit: limit)
        case .app(let number):
          view(number)
        }
      } catch {
        output.writeLine(LiveSessionCommands.program.render(error), to: .standardError)
      }
    }

    func execute(_ line: String) -> Bool {
      let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
      switch words.first {
      case "dispatch":
        refresh()
        dispatch(line)
        return true
      case "help" where words.count == 1, "h" where words.count == 1:
        let goesOn = session.execute(line)
        output.writeLine(
          """

          Live session (replay listen):
            wait [N] [--timeout S]  wait for N more actions (default 1), a stop, or the app's end
            apps                    list the apps connected
            app N                   view app N's session
            dispatch ACTION         send an action (its JSON) into an app that accepts them
          """)
        return goesOn
      case "wait", "app":
        runParsed(words)
        return true
      case "apps":
        for app in apps.values.sorted(by: { $0.connection < $1.connection }) {
          output.writeLine(
            "\(app.connection == live.app.connection ? "*" : " ") \(app.connection)  \(describe(app))"
          )
        }
        return true
      default:
        refresh()
        return session.execute(line)
      }
    }

    let scripted = arguments.strings("command")
    if !scripted.isEmpty {
      for line in scripted {
        output.writeLine("(replay) \(line)")
        guard execute(line) else { break }
        output.flush()
      }
      listener.stop()
      return session.hadError ? ExitStatus.trouble : ExitStatus.success
    }
    session.printBanner()
    readCommands(into: session, beforePrompt: { refresh() }, execute: execute)
    listener.stop()
    return ExitStatus.success
  }

  /// Starts `replay listen`'s server from the command's options (`--socket`, `--port`,
  /// `--host`, `--token`, `--save`, `--max-line`, `--timeout`) and says on standard error where
  /// it listens, its token, and what the app gives to connect: for `replay listen` and
  /// `replay tui --listen`.
  func startListening() throws(CommandFailure) -> LiveListening {
    let address: SocketAddress
    let maxLine: Int?
    let timeout: Int?
    let port: Int?
    do throws(UsageError) {
      maxLine = try arguments.int("max-line")
      timeout = try arguments.int("timeout")
      port = try arguments.int("port")
    } catch {
      throw .diagnostic(Diagnostic.error(error.message))
    }
    if let port {
      guard arguments.string("socket") == nil else {
        throw .diagnostic(Diagnostic.error("give --socket or --port, not both"))
      }
      address = .tcp(host: arguments.string("host") ?? "127.0.0.1", port: port)
    } else {
      guard arguments.string("host") == nil else {
        throw .diagnostic(Diagnostic.error("--host goes with --port (a Unix socket has no host)"))
      }
      address = .unix(path: arguments.string("socket") ?? LiveSettings.defaultSocket)
    }
    let token =
      arguments.string("token") ?? ProcessInfo.processInfo.environment["REWIND_LIVE_TOKEN"]
      ?? LiveSettings.newToken()
    let save = arguments.string("save")
    if let save, Platform.fileIdentity(save) != nil {
      throw .diagnostic(
        Diagnostic(
          .error, "\(inert(save)) exists: replay listen --save writes a new log",
          hints: ["choose another --save path, or remove it first"]))
    }
    let folder = LiveSettings.makeFolder()
    var configuration = LiveListener.Configuration(
      address: address, token: token, save: save, folder: folder)
    if let maxLine { configuration.maxLineBytes = maxLine }
    let events = LiveEvents()
    let listener: LiveListener
    do throws(SocketFailure) {
      listener = try LiveListener(configuration) { events.add($0) }
    } catch {
      throw .diagnostic(
        Diagnostic(
          .error, "replay listen: \(error.description)",
          hints: [
            Diagnostic.Hint("replay listen --socket /tmp/rewind-\(LiveSettings.user)-2.sock"),
            "replay listen --port 0",
          ]))
    }
    LoopbackListener.ignoreBrokenPipes()
    listener.start()
    output.writeLine("listening on \(listener.address)", to: .standardError)
    output.writeLine("token: \(token)", to: .standardError)
    output.writeLine(
      "in the app: RecordingOptions(liveViewer: \(LiveSettings.swiftViewer(listener.address, token: token)))",
      to: .standardError)
    output.writeLine(
      "or in its environment: REWIND_LIVE=\(listener.address) REWIND_LIVE_TOKEN=\(token)",
      to: .standardError)
    output.writeLine("waiting for an app… (Ctrl-C to stop)", to: .standardError)
    output.flush()

    return LiveListening(listener: listener, events: events, timeout: timeout)
  }

  /// Opens a live session's file as it is now.
  func openLive(_ path: String) throws(CommandFailure) -> OpenedLog {
    do throws(ReplayError) {
      return try OpenedLog(
        path: path, recovery: recovery, apps: apps, usesCheckpoints: true,
        isolation: isolation(interactive: true))
    } catch {
      throw .replay(error)
    }
  }

  /// One line about an app: name, session, host, pid, build, and its saved file.
  func describe(_ app: LiveListener.App) -> String {
    let hello = app.hello
    var parts = [
      "session \(inert(String(hello.session.prefix(8))))", "host \(inert(hello.host))",
      "pid \(hello.pid)",
    ]
    if !hello.build.isEmpty { parts.append("build \(inert(hello.build))") }
    return "\(inert(hello.app)) (\(parts.joined(separator: ", "))) → \(inert(app.path))"
  }

  /// Says what a listener event means, on standard error.
  func show(_ event: LiveListener.Event) {
    switch event {
    case .connected(let app):
      output.writeLine(
        "\(app.resumes ? "reconnected" : "connected"): \(describe(app))", to: .standardError)
    case .refused(let connection, let reason):
      output.writeLine("refused connection \(connection): \(inert(reason))", to: .standardError)
    case .disconnected(let app, let reason):
      output.writeLine(
        "disconnected: \(inert(app.hello.app)) (session \(inert(String(app.hello.session.prefix(8))))): \(inert(reason))",
        to: .standardError)
    case .dispatchAnswered(let app, .refused(let refusal)):
      output.writeLine(
        "\(inert(app.hello.app)) refused action request \(refusal.id): \(inert(refusal.reason))",
        to: .standardError)
    case .dispatchAnswered(let app, .dispatched(let id, let seq)):
      output.writeLine(
        "\(inert(app.hello.app)) recorded action request \(id) as #\(seq)", to: .standardError)
    case .received(let app, let lastSeq, let dropped):
      if dropped > 0 {
        output.writeLine(
          "dropped: \(dropped) action\(dropped == 1 ? "" : "s") of \(inert(app.hello.app)) did not reach this viewer (the app's queue overflowed); they are skipped lines in the log, up to seq \(lastSeq)",
          to: .standardError)
      }
    }
  }
}

/// The app a live session shows, and how much of its file the session has read.
private struct LiveView {
  var app: LiveListener.App
  var openedBytes = 0
  /// Where a watchpoint or breakpoint last stopped the view on new actions.
  var stoppedAt: Int?
}

/// A started listener and what it reports, for a front end that shows live apps.
struct LiveListening {
  /// The server.
  let listener: LiveListener
  /// What its threads report.
  let events: LiveEvents
  /// `--timeout`: how long to wait for the first app.
  let timeout: Int?

  /// Waits for the first app whose header arrived (events shown on `invocation`'s standard
  /// error as they come).
  /// - Throws: When `--timeout` passes first.
  func firstApp(shownBy invocation: CommandInvocation) throws(CommandFailure) -> LiveListener.App {
    let deadline = timeout.map { DispatchTime.now() + .seconds($0) }
    while true {
      for event in events.take() {
        invocation.show(event)
        if case .received(let app, _, _) = event {
          invocation.output.flush()
          return app
        }
      }
      invocation.output.flush()
      if let deadline, DispatchTime.now() >= deadline {
        listener.stop()
        throw .diagnostic(
          Diagnostic(
            .error, "replay listen: no app connected within \(timeout ?? 0) s",
            hints: [
              Diagnostic.Hint(
                "start the app with RecordingOptions(liveViewer: …) or REWIND_LIVE=\(listener.address) REWIND_LIVE_TOKEN=…"
              )
            ]))
      }
      events.wait(milliseconds: 200)
    }
  }
}

/// What the listener's threads report, taken by the front end between commands.
final class LiveEvents: @unchecked Sendable {
  // `@unchecked Sendable`: `queue` is behind `lock`.
  private let lock = NSCondition()
  private var queue: [LiveListener.Event] = []

  /// Adds an event (a listener thread).
  func add(_ event: LiveListener.Event) {
    lock.lock()
    queue.append(event)
    lock.signal()
    lock.unlock()
  }

  /// The events since the last call, oldest first.
  func take() -> [LiveListener.Event] {
    lock.lock()
    defer {
      queue.removeAll()
      lock.unlock()
    }
    return queue
  }

  /// Waits for an event, at most `milliseconds`.
  func wait(milliseconds: Int) {
    lock.lock()
    if queue.isEmpty {
      _ = lock.wait(until: Date(timeIntervalSinceNow: Double(milliseconds) / 1_000))
    }
    lock.unlock()
  }
}

/// The defaults of `replay listen`.
enum LiveSettings {
  /// The user's name, for the default socket's path.
  static var user: String {
    ProcessInfo.processInfo.environment["USER"].map { $0.filter { $0.isLetter || $0.isNumber } }
      ?? "user"
  }

  /// `/tmp/rewind-USER.sock`.
  static var defaultSocket: String { "/tmp/rewind-\(user).sock" }

  /// 16 random bytes in hexadecimal.
  static func newToken() -> String {
    var generator = SystemRandomNumberGenerator()
    return (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator))
    }
    .joined()
  }

  /// A new folder for the sessions `--save` does not name.
  static func makeFolder() -> String {
    let path = NSTemporaryDirectory() + "rewind-live-\(ProcessInfo.processInfo.processIdentifier)"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path.hasSuffix("/") ? String(path.dropLast()) : path
  }

  /// The ``LiveViewer`` an app gives to reach `address`.
  static func swiftViewer(_ address: SocketAddress, token: String) -> String {
    switch address {
    case .unix(let path): return ".unixSocket(\"\(path)\", token: \"\(token)\")"
    case .tcp(let host, let port):
      return ".tcp(host: \"\(host)\", port: \(port), token: \"\(token)\")"
    }
  }
}
