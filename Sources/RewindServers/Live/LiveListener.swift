import Foundation
import Rewind
import RewindJSON

/// `replay listen`'s server: waits for apps whose recorder streams to it (``LiveViewer``),
/// checks each connection's greeting and token, and saves what each app's session sends as a
/// log file (``LiveLogFile``) that the session reads as it grows.
///
/// Every connection is hostile until its greeting and token are checked: a connection that sends
/// no greeting in time, a wrong token, a line past the length limit, a line that is not a log's,
/// or one connection too many is answered with a `live-refused` line saying why, and closed; the
/// listener goes on. Nothing a connection sends runs code or is written anywhere but its
/// session's file.
package final class LiveListener: @unchecked Sendable {
  // `@unchecked Sendable`: the mutable state is in `state`, behind its lock.

  /// The listener's settings.
  package struct Configuration: Sendable {
    /// Where to listen.
    package var address: SocketAddress
    /// The token every connection must present (compared in constant time).
    package var token: String
    /// Where the first session is saved; `nil` for a file in ``folder``.
    package var save: String?
    /// Where sessions are saved when ``save`` does not name their file.
    package var folder: String
    /// The longest line accepted (a larger state is refused, saying so).
    package var maxLineBytes = 64 << 20
    /// How many connections at once (greeting or streaming).
    package var maxConnections = 8
    /// How long a connection has to greet.
    package var greetingTimeoutMilliseconds: Int32 = 5_000
    /// How long the rest of a begun line may take.
    package var partialLineTimeoutMilliseconds: Int32 = 30_000

    /// A configuration with the default limits.
    package init(address: SocketAddress, token: String, save: String?, folder: String) {
      self.address = address
      self.token = token
      self.save = save
      self.folder = folder
    }
  }

  /// An app connected, as `replay listen` shows it.
  package struct App: Sendable {
    /// The connection's number (1, 2, …).
    package var connection: Int
    /// The app's greeting: app, session, host, pid, build.
    package var hello: LiveProtocol.Hello
    /// The file its session is saved to.
    package var path: String
    /// Whether this connection continues a session saved already (the app reconnected).
    package var resumes: Bool
  }

  /// What happened, for the front end to show.
  package enum Event: Sendable {
    /// An app connected and its greeting was accepted.
    case connected(App)
    /// A connection was refused and closed.
    case refused(connection: Int, reason: String)
    /// The app's connection ended (it closed the recorder, went away, or sent a bad line).
    case disconnected(App, reason: String)
    /// Lines arrived: the session's file now ends at action `lastSeq` (`dropped` actions among
    /// them the app could not send).
    case received(App, lastSeq: Int, dropped: Int)
    /// The app answered a ``LiveListener/dispatch(_:toConnection:)``.
    case dispatchAnswered(App, LiveProtocol.DispatchAnswer)
  }

  private let configuration: Configuration
  private let fd: Int32
  /// The address listened on (with the port the system chose, for port 0).
  package let address: SocketAddress
  private let onEvent: @Sendable (Event) -> Void
  private let state = Locked(State())

  private struct State {
    var connections = 0
    var open = 0
    var files: [String: LiveLogFile] = [:]
    var streaming: Set<String> = []
    var stopped = false
    /// The sockets of the connections streaming now, by connection number: what
    /// ``LiveListener/dispatch(_:toConnection:)`` writes to (closed under ``writeLock``).
    var sockets: [Int: Int32] = [:]
    var nextRequest = 0
  }
  /// Held across a write of a request to an app's socket, and across closing one: a request is
  /// never written to a socket closed and reused meanwhile.
  private let writeLock = Locked(())

  /// Listens on the configuration's address.
  /// - Throws: Why it cannot (the port is taken, the path is not a socket).
  package init(
    _ configuration: Configuration, onEvent: @escaping @Sendable (Event) -> Void
  ) throws(SocketFailure) {
    self.configuration = configuration
    self.onEvent = onEvent
    switch Platform.listenStream(on: configuration.address) {
    case .success(let bound):
      fd = bound.fd
      if case .tcp(let host, _) = configuration.address {
        address = .tcp(host: host, port: bound.port)
      } else {
        address = configuration.address
      }
    case .failure(let failure):
      throw failure
    }
  }

  deinit {
    Platform.close(fd)
    if case .unix(let path) = address { Platform.removeFile(path) }
  }

  /// Accepts connections on a thread of its own until ``stop()``.
  package func start() {
    let thread = Thread { [self] in self.acceptLoop() }
    thread.name = "replay listen"
    thread.start()
  }

  /// Stops accepting (connections open go on until they end).
  package func stop() {
    state.withLock { $0.stopped = true }
    Platform.shutdownSocket(fd)
  }

  /// Asks the app on connection `number` to dispatch `action` (an app whose greeting said it
  /// accepts actions: ``LiveProtocol/Hello/acceptsActions``); the request's number, whose answer
  /// comes as a ``Event/dispatchAnswered(_:_:)`` event.
  /// - Throws: Why it was not sent (the connection ended, the app does not accept actions, the
  ///   app does not read).
  package func dispatch(_ action: JSONValue, toConnection number: Int) throws(LiveRefusal) -> Int {
    try writeLock.withLock { _ throws(LiveRefusal) -> Int in
      let (socket, id) = state.withLock { state -> (Int32?, Int) in
        state.nextRequest += 1
        return (state.sockets[number], state.nextRequest)
      }
      guard let socket else {
        throw .badLine("connection \(number) has ended: the app is no longer connected")
      }
      let line = LiveProtocol.dispatch(id: id, action: action)
      guard line.count <= LiveProtocol.viewerLineLimit else {
        throw .badLine(
          "the action is \(line.count) bytes: an app takes at most \(LiveProtocol.viewerLineLimit)")
      }
      guard Platform.waitWritable(socket, timeoutMilliseconds: 2_000) else {
        throw .badLine("the app did not read for 2 s: it may be stopped in a debugger")
      }
      if let code = line.withUnsafeBytes({ Platform.sendAll(socket, $0) }) {
        throw .badLine("cannot send to the app: \(Platform.describe(errno: code))")
      }
      return id
    }
  }

  /// The saved file of `session`, when it has connected.
  package func file(ofSession session: String) -> String? {
    state.withLock { $0.files[session]?.path }
  }

  private func acceptLoop() {
    while true {
      let client = Platform.acceptConnection(fd)
      if state.withLock({ $0.stopped }) {
        if client >= 0 { Platform.close(client) }
        return
      }
      guard client >= 0 else {
        // Out of descriptors or a transient failure: wait a little rather than spin.
        Platform.sleep(milliseconds: 50)
        continue
      }
      let (number, admitted) = state.withLock { state -> (Int, Bool) in
        state.connections += 1
        guard state.open < configuration.maxConnections else { return (state.connections, false) }
        state.open += 1
        return (state.connections, true)
      }
      guard admitted else {
        refuse(client, number: number, .tooManyConnections(configuration.maxConnections))
        continue
      }
      let thread = Thread { [self] in
        self.serve(client, number: number)
        state.withLock { $0.open -= 1 }
      }
      thread.name = "replay listen connection \(number)"
      thread.start()
    }
  }

  private func refuse(_ client: Int32, number: Int, _ refusal: LiveRefusal) {
    _ = LiveProtocol.refused(refusal).withUnsafeBytes { Platform.sendSome(client, $0) }
    Platform.shutdownSocket(client)
    Platform.close(client)
    onEvent(.refused(connection: number, reason: refusal.description))
  }

  /// One connection: the greeting, then its lines into its session's file.
  private func serve(_ client: Int32, number: Int) {
    let input = MessageInput(
      fd: client, partialMessageTimeoutMilliseconds: configuration.partialLineTimeoutMilliseconds)
    // The greeting: within the time limit, one short line.
    guard
      Platform.waitReadable(
        client, timeoutMilliseconds: Int(configuration.greetingTimeoutMilliseconds))
    else {
      refuse(client, number: number, .greetingTimedOut)
      return
    }
    let greeting: [UInt8]
    do throws(MessageInput.Failure) {
      guard
        let line = try input.readLine(maxBytes: LiveProtocol.greetingLimit, startsMessage: false)
      else {
        refuse(client, number: number, .notAGreeting)
        return
      }
      greeting = line
    } catch {
      if case .timedOut = error {
        refuse(client, number: number, .greetingTimedOut)
      } else {
        refuse(client, number: number, .notAGreeting)
      }
      return
    }
    let hello: LiveProtocol.Hello
    switch LiveProtocol.Hello.parse(greeting) {
    case .success(let parsed): hello = parsed
    case .failure(let refusal):
      refuse(client, number: number, refusal)
      return
    }
    guard LiveProtocol.tokensMatch(hello.token, configuration.token) else {
      refuse(client, number: number, .badToken)
      return
    }
    let opened = state.withLock { state -> Result<(LiveLogFile, Bool), LiveRefusal> in
      if state.streaming.contains(hello.session) {
        return .failure(
          .badLine(
            "session \(hello.session) is connected already: its earlier connection has not ended (the app retries by itself), or two recorders share a session id (RecordingOptions reproducible: give each its own)"
          ))
      }
      if let file = state.files[hello.session] {
        state.streaming.insert(hello.session)
        return .success((file, true))
      }
      let path = savePath(for: hello, index: state.files.count)
      do throws(SocketFailure) {
        let file = try LiveLogFile(path: path, session: hello.session)
        state.files[hello.session] = file
        state.streaming.insert(hello.session)
        return .success((file, false))
      } catch {
        return .failure(.badLine(error.description))
      }
    }
    let file: LiveLogFile
    let resumes: Bool
    switch opened {
    case .success(let pair): (file, resumes) = pair
    case .failure(let refusal):
      refuse(client, number: number, refusal)
      return
    }
    defer { _ = state.withLock { $0.streaming.remove(hello.session) } }
    if let code = LiveProtocol.accepted.withUnsafeBytes({ Platform.sendAll(client, $0) }) {
      Platform.close(client)
      onEvent(
        .refused(connection: number, reason: "the app went away: \(Platform.describe(errno: code))")
      )
      return
    }
    let app = App(connection: number, hello: hello, path: file.path, resumes: resumes)
    state.withLock { $0.sockets[number] = client }
    file.beginConnection()
    onEvent(.connected(app))
    var lineNumber = 1
    var reason = "the app closed the connection"
    var pendingDropped = 0
    while true {
      let line: [UInt8]
      do throws(MessageInput.Failure) {
        guard
          let next = try input.readLine(
            maxBytes: configuration.maxLineBytes, startsMessage: true, skipsOverlong: false)
        else { break }
        line = next
      } catch {
        let refusal: LiveRefusal
        if case .tooLong(let limit, _) = error {
          refusal = .lineTooLong(limit: limit)
        } else {
          refusal = .badLine("line \(lineNumber + 1): \(error.message)")
        }
        reason = refusal.description
        _ = LiveProtocol.refused(refusal).withUnsafeBytes { Platform.sendSome(client, $0) }
        break
      }
      lineNumber += 1
      if line.isEmpty { continue }
      if let answer = LiveProtocol.parseDispatchAnswer(line) {
        onEvent(.dispatchAnswered(app, answer))
        continue
      }
      do throws(LiveRefusal) {
        pendingDropped += try file.take(line, lineNumber: lineNumber)
      } catch {
        reason = error.description
        _ = LiveProtocol.refused(error).withUnsafeBytes { Platform.sendSome(client, $0) }
        break
      }
      // One event per burst of lines: the next one is not here yet.
      if !Platform.waitReadable(client, timeoutMilliseconds: 0) || lineNumber % 1_000 == 0 {
        onEvent(.received(app, lastSeq: file.lastSeq, dropped: pendingDropped))
        pendingDropped = 0
      }
    }
    // No request is written from here on: the socket's number may be reused once closed.
    writeLock.withLock { _ in _ = state.withLock { $0.sockets.removeValue(forKey: number) } }
    Platform.shutdownSocket(client)
    Platform.close(client)
    if pendingDropped > 0 {
      onEvent(.received(app, lastSeq: file.lastSeq, dropped: pendingDropped))
    }
    if file.isClosed { reason = "the app closed its recorder" }
    onEvent(.disconnected(app, reason: reason))
  }

  /// `--save FILE` for the first session; `FILE-2.jsonl`, … for the next ones; without it, a file
  /// named after the app and session in the listener's folder.
  private func savePath(for hello: LiveProtocol.Hello, index: Int) -> String {
    if let save = configuration.save {
      guard index > 0 else { return save }
      let base = save.hasSuffix(".jsonl") ? String(save.dropLast(6)) : save
      return "\(base)-\(index + 1).jsonl"
    }
    let app = hello.app.filter { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
    let session = hello.session.prefix(8).filter { $0.isLetter || $0.isNumber }
    return "\(configuration.folder)/\(app.isEmpty ? "app" : app)-\(session).jsonl"
  }
}
