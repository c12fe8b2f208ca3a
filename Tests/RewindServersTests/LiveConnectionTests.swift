import Foundation
import Rewind
import RewindExamples
import RewindJSON
import RewindReplay
import RewindServers
import RewindTestSupport
import Testing

/// The live connection end to end in one process: a recorder streaming to `replay listen`'s
/// server (``LiveListener``) or to a raw viewer of the test's own, over a Unix socket or TCP on
/// loopback; a connected, a slow, an absent and a hostile peer. Bounded in count and time.
@Suite(.serialized) struct LiveConnectionTests {
  /// What the listener reported.
  final class Events: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [LiveListener.Event] = []

    func add(_ event: LiveListener.Event) {
      lock.lock()
      list.append(event)
      lock.unlock()
    }

    var all: [LiveListener.Event] {
      lock.lock()
      defer { lock.unlock() }
      return list
    }

    var refusals: [String] {
      all.compactMap {
        if case .refused(_, let reason) = $0 { return reason }
        return nil
      }
    }

    var disconnections: Int {
      all.filter {
        if case .disconnected = $0 { return true }
        return false
      }.count
    }
  }

  /// Waits until `condition` holds, at most `seconds`; whether it did.
  @discardableResult
  static func eventually(_ seconds: Double = 10, _ condition: () -> Bool) -> Bool {
    let end = Date().addingTimeInterval(seconds)
    while Date() < end {
      if condition() { return true }
      usleep(10_000)
    }
    return condition()
  }

  static func withFolder(_ body: (String) throws -> Void) throws {
    // Short: a Unix socket's path has a limit of about 100 bytes.
    let path = "/tmp/rwl-\(UInt32.random(in: 0...UInt32.max))"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: path) }
    try body(path)
  }

  static func listener(
    _ address: SocketAddress, token: String, in folder: String, events: Events,
    tweak: (inout LiveListener.Configuration) -> Void = { _ in }
  ) throws -> LiveListener {
    var configuration = LiveListener.Configuration(
      address: address, token: token, save: "\(folder)/saved.jsonl", folder: folder)
    configuration.greetingTimeoutMilliseconds = 300
    configuration.partialLineTimeoutMilliseconds = 300
    tweak(&configuration)
    let listener = try LiveListener(configuration) { events.add($0) }
    listener.start()
    return listener
  }

  /// The lines of `kind` in a file, as text.
  static func lines(_ path: String, kind: String) throws -> [String] {
    try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
      .filter { $0.contains("\"kind\":\"\(kind)\"") }
  }

  @Test func aViewerThatConnectsLateStartsFromATrueStateAndGetsEveryLaterLine() throws {
    try Self.withFolder { folder in
      let socket = "\(folder)/v.sock"
      let store = Store(initialState: CounterState(), reducer: counterReducer)
      let recorder = try store.startRecording(
        to: "\(folder)/app.jsonl", app: "counter",
        options: RecordingOptions(
          checkpointInterval: 25, liveViewer: .unixSocket(socket, token: "t0k")))
      for n in 1...110 { store.dispatch(n % 5 == 0 ? .add(n) : .increment) }
      #expect(recorder.liveStatus?.isConnected == false)
      let events = Events()
      let listener = try Self.listener(
        .unix(path: socket), token: "t0k", in: folder, events: events)
      #expect(Self.eventually(30) { recorder.liveStatus?.isConnected == true })
      for n in 111...300 { store.dispatch(n % 5 == 0 ? .add(n) : .increment) }
      recorder.close()
      #expect(Self.eventually(30) { events.disconnections == 1 })
      listener.stop()

      let saved = try ReplayLog(path: "\(folder)/saved.jsonl")
      // The viewer's first state is the last checkpoint (25 apart) the sink had read when it
      // connected: 100, an earlier one when it connected while the app was dispatching, or the
      // file's first state (0) when none had reached it yet — on a loaded machine, where the
      // checkpoints written in the background came after the connection.
      let base = saved.header.firstSeq - 1
      #expect(base >= 0 && base <= 100 && base % 25 == 0, "base \(base)")
      #expect(saved.lastSeq == 300)
      #expect(saved.faults.isEmpty)
      #expect(saved.hasEndRecord)
      let appActions = try Self.lines("\(folder)/app.jsonl", kind: "action")
      let savedActions = try Self.lines("\(folder)/saved.jsonl", kind: "action")
      // The same checksummed lines as the file's.
      #expect(savedActions == Array(appActions.dropFirst(base)))
      #expect(recorder.liveStatus?.droppedActions == 0)
      #expect(recorder.liveStatus?.connections == 1)
      let header = try JSONParser.parse(Self.lines("\(folder)/saved.jsonl", kind: "header")[0])
      let app = try ReplayLog(path: "\(folder)/app.jsonl")
      let appHeader = try JSONParser.parse(Self.lines("\(folder)/app.jsonl", kind: "header")[0])
      let expected = base == 0 ? appHeader["state"] : try app.checkpointState(at: base)
      #expect(expected != nil)
      #expect(header["state"] == expected)
    }
  }

  @Test func aSlowViewerIsToldExactlyWhichActionsItMissedAndTheFileHasThemAll() throws {
    try Self.withFolder { folder in
      let socket = "\(folder)/slow.sock"
      let listening = try #require(try? Platform.listenStream(on: .unix(path: socket)).get())
      defer { Platform.close(listening.fd) }
      var viewer = LiveViewer.unixSocket(socket, token: "")
      viewer.queueCapacity = 64 << 10
      let store = Store(initialState: CounterState(), reducer: counterReducer)
      let recorder = try store.startRecording(
        to: "\(folder)/app.jsonl", app: "counter",
        options: RecordingOptions(checkpointInterval: 100, liveViewer: viewer))
      // The viewer greets, then reads nothing while the app dispatches.
      #expect(Platform.waitReadable(listening.fd, timeoutMilliseconds: 5_000))
      let client = Platform.acceptConnection(listening.fd)
      #expect(client >= 0)
      defer { Platform.close(client) }
      let input = MessageInput(fd: client)
      let greeting = try #require(try input.readLine(maxBytes: 4096, startsMessage: true))
      let hello = try LiveProtocol.Hello.parse(greeting).get()
      #expect(hello.app == "counter")
      _ = LiveProtocol.accepted.withUnsafeBytes { Platform.sendAll(client, $0) }
      #expect(Self.eventually(30) { recorder.liveStatus?.isConnected == true })
      let count = 30_000
      for n in 1...count { store.dispatch(n % 7 == 0 ? .add(n) : .increment) }
      recorder.close()
      // Now it reads everything, into the file replay listen would save.
      let saved = try LiveLogFile(path: "\(folder)/saved.jsonl", session: hello.session)
      var marked = 0
      var marks = 0
      var number = 1
      while let line = try input.readLine(maxBytes: 64 << 20, startsMessage: true) {
        number += 1
        marked += try saved.take(line, lineNumber: number)
        if line.starts(with: Array(#"{"kind":"live-dropped""#.utf8)) { marks += 1 }
      }
      #expect(marks >= 1, "the viewer was slow enough to miss actions")
      #expect(marked > 0)
      #expect(recorder.liveStatus?.droppedActions == marked)
      let app = try ReplayLog(path: "\(folder)/app.jsonl")
      #expect(app.lastSeq == count)
      #expect(try Self.lines("\(folder)/app.jsonl", kind: "skipped").isEmpty)
      let log = try ReplayLog(path: "\(folder)/saved.jsonl")
      #expect(log.faults.isEmpty, "\(log.faults.map(\.reason))")
      #expect(log.lastSeq == count)
      #expect(log.hasEndRecord)
      let skipped = try Self.lines("\(folder)/saved.jsonl", kind: "skipped")
      #expect(skipped.count == marked)
      #expect(skipped.allSatisfy { $0.contains(#""reason":"dropped""#) })
      // The end state is true: the last checkpoint is the app's.
      #expect((try log.checkpointState(at: count)) == (try app.checkpointState(at: count)))
      #expect((try log.checkpointState(at: count)) != nil)
    }
  }

  /// A large state is written off the dispatching thread as a `state` record in parts: a late
  /// viewer starts with a header whose state follows and those parts, never decoded by the app.
  @Test func aLateViewerOfALargeStateStartsFromItsStateRecord() throws {
    try Self.withFolder { folder in
      let socket = "\(folder)/big.sock"
      let store = Store(initialState: TodoState(), reducer: todoReducer)
      let recorder = try store.startRecording(
        to: "\(folder)/app.jsonl", app: "todo",
        options: RecordingOptions(
          checkpointInterval: 400, liveViewer: .unixSocket(socket, token: "t")))
      let title = String(repeating: "water the plants and buy milk ", count: 4)
      for n in 1...1_300 { store.dispatch(.add(title: "\(n) \(title)")) }
      let events = Events()
      let listener = try Self.listener(.unix(path: socket), token: "t", in: folder, events: events)
      #expect(Self.eventually(30) { recorder.liveStatus?.isConnected == true })
      for n in 1_301...1_600 {
        store.dispatch(n % 2 == 0 ? .toggle(id: n / 2) : .add(title: "\(n)"))
      }
      recorder.close()
      #expect(Self.eventually(30) { events.disconnections == 1 })
      listener.stop()
      let saved = try ReplayLog(path: "\(folder)/saved.jsonl")
      // The last state record written before the viewer connected: 1,200 — or, when a busy
      // machine's background encoder was still busy at a checkpoint, the one owed after it (the
      // first action the encoder was free at), or an earlier one.
      let base = saved.header.firstSeq - 1
      #expect(base > 0 && base <= 1_300, "base \(base)")
      // The header says its state follows, and the parts that follow it are that state (the
      // first checkpoint, at 400, is written in line: the state before it encoded small).
      let header = try Self.lines("\(folder)/saved.jsonl", kind: "header")
      #expect(header.count == 1 && header[0].contains(#""stateFollows":true"#) == (base > 400))
      #expect(!saved.isInitialStateMissing)
      #expect(saved.lastSeq == 1_600)
      #expect(saved.faults.isEmpty, "\(saved.faults.map(\.reason))")
      #expect(saved.hasEndRecord)
      let appActions = try Self.lines("\(folder)/app.jsonl", kind: "action")
      #expect(
        try Self.lines("\(folder)/saved.jsonl", kind: "action")
          == Array(appActions.dropFirst(base)))
      let parts = try Self.lines("\(folder)/saved.jsonl", kind: "state")
      if base > 400 { #expect(parts.first?.contains(#""seq":\#(base),"part":0,"#) == true) }
    }
  }

  @Test func anAbsentViewerCostsTheAppNothingAndTheFileIsWhole() throws {
    try Self.withFolder { folder in
      let store = Store(initialState: CounterState(), reducer: counterReducer)
      let recorder = try store.startRecording(
        to: "\(folder)/app.jsonl", app: "counter",
        options: RecordingOptions(liveViewer: .unixSocket("\(folder)/nobody.sock", token: "x")))
      for _ in 1...2_000 { store.dispatch(.increment) }
      #expect(Self.eventually { recorder.liveStatus?.lastProblem != nil })
      recorder.close()
      #expect(recorder.liveStatus?.connections == 0)
      #expect(recorder.liveStatus?.lastProblem?.contains("cannot connect") == true)
      let log = try ReplayLog(path: "\(folder)/app.jsonl")
      #expect(log.lastSeq == 2_000)
      #expect(log.hasEndRecord)
    }
  }

  @Test func overTCPTheRightTokenIsAcceptedAndAWrongOneRefused() throws {
    try Self.withFolder { folder in
      let events = Events()
      let listener = try Self.listener(
        .tcp(host: "127.0.0.1", port: 0), token: "right", in: folder, events: events)
      guard case .tcp(_, let port) = listener.address else {
        Issue.record("not TCP: \(listener.address)")
        return
      }
      #expect(port > 0)
      let refusedStore = Store(initialState: CounterState(), reducer: counterReducer)
      let refused = try refusedStore.startRecording(
        to: "\(folder)/wrong.jsonl", app: "counter",
        options: RecordingOptions(liveViewer: .tcp(port: port, token: "wrong")))
      refusedStore.dispatch(.increment)
      #expect(Self.eventually { refused.liveStatus?.lastProblem?.contains("token") == true })
      #expect(refused.liveStatus?.connections == 0)
      refused.close()
      #expect(events.refusals.contains { $0.contains("wrong or missing token") })

      let store = Store(initialState: CounterState(), reducer: counterReducer)
      let recorder = try store.startRecording(
        to: "\(folder)/app.jsonl", app: "counter",
        options: RecordingOptions(liveViewer: .tcp(port: port, token: "right")))
      for _ in 1...50 { store.dispatch(.increment) }
      recorder.close()
      #expect(Self.eventually(30) { events.disconnections == 1 })
      listener.stop()
      let saved = try ReplayLog(path: "\(folder)/saved.jsonl")
      #expect(saved.lastSeq == 50)
      #expect(saved.hasEndRecord)
    }
  }

  /// Garbage, a wrong token, a line of 100 MB, 500 connections at once and a half-open one are
  /// each refused with a reason, and an app connecting after them is served.
  @Test func hostileClientsAreRefusedAndTheListenerGoesOn() throws {
    try Self.withFolder { folder in
      let socket = "\(folder)/h.sock"
      let events = Events()
      let listener = try Self.listener(
        .unix(path: socket), token: "secret", in: folder, events: events)
      func connect() throws -> Int32 {
        try Platform.connectStream(to: .unix(path: socket), timeoutMilliseconds: 2_000).get()
      }
      /// The listener's answer on `fd`.
      func answer(_ fd: Int32) -> String {
        let input = MessageInput(fd: fd, partialMessageTimeoutMilliseconds: 5_000)
        guard Platform.waitReadable(fd, timeoutMilliseconds: 5_000),
          let line = try? input.readLine(maxBytes: 1 << 20, startsMessage: false)
        else { return "" }
        return String(decoding: line, as: UTF8.self)
      }
      func send(_ fd: Int32, _ text: String) {
        _ = Array(text.utf8).withUnsafeBytes { Platform.sendAll(fd, $0) }
      }
      let hello = LiveProtocol.Hello(
        token: "secret", app: "counter", session: "s-1", host: "h", pid: 1, build: "")

      // Garbage.
      let garbage = try connect()
      send(garbage, "GET / HTTP/1.1\r\n\r\n")
      #expect(answer(garbage).contains("not a Rewind live greeting"))
      Platform.close(garbage)

      // A wrong token.
      let wrong = try connect()
      var bad = hello
      bad.token = "guess"
      _ = bad.line.withUnsafeBytes { Platform.sendAll(wrong, $0) }
      #expect(answer(wrong).contains("wrong or missing token"))
      Platform.close(wrong)

      // A line of 100 MB after a good greeting.
      let huge = try connect()
      _ = hello.line.withUnsafeBytes { Platform.sendAll(huge, $0) }
      #expect(answer(huge).contains("live-accepted"))
      let block = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
      var sent = 0
      while sent < 100 {
        guard block.withUnsafeBytes({ Platform.sendAll(huge, $0) }) == nil else { break }
        sent += 1
      }
      #expect(answer(huge).contains("longer than"))
      Platform.close(huge)

      // A half-open connection: a greeting begun and never finished.
      let half = try connect()
      send(half, #"{"kind":"live-hel"#)
      #expect(answer(half).contains("live-refused"))
      Platform.close(half)

      // 500 connections at once: 8 are let in (and time out greeting), the rest refused.
      var crowd: [Int32] = []
      // A Unix socket's backlog refuses a connection when full: retried until accepted.
      let end = Date().addingTimeInterval(20)
      while crowd.count < 500, Date() < end {
        if let fd = try? connect() { crowd.append(fd) } else { usleep(1_000) }
      }
      #expect(crowd.count == 500)
      #expect(
        Self.eventually {
          events.refusals.filter { $0.contains("too many connections") }.count >= 400
        })
      for fd in crowd { Platform.close(fd) }
      #expect(Self.eventually { events.refusals.filter { $0.contains("no greeting") }.count >= 1 })

      // The listener goes on: an app connects and its session is saved.
      let store = Store(initialState: CounterState(), reducer: counterReducer)
      let recorder = try store.startRecording(
        to: "\(folder)/app.jsonl", app: "counter",
        options: RecordingOptions(liveViewer: .unixSocket(socket, token: "secret")))
      for _ in 1...20 { store.dispatch(.increment) }
      #expect(
        Self.eventually(20) { recorder.liveStatus?.isConnected == true },
        "\(String(describing: recorder.liveStatus))")
      recorder.close()
      #expect(Self.eventually { events.disconnections >= 2 })
      listener.stop()
      // The 100 MB line's session has saved.jsonl; the app's is the second.
      let saved = try ReplayLog(path: "\(folder)/saved-2.jsonl")
      #expect(saved.lastSeq == 20)
    }
  }

  @Test func tokensCompareWholly() {
    #expect(LiveProtocol.tokensMatch("abc", "abc"))
    #expect(!LiveProtocol.tokensMatch("abd", "abc"))
    #expect(!LiveProtocol.tokensMatch("ab", "abc"))
    #expect(!LiveProtocol.tokensMatch("", "abc"))
    #expect(LiveProtocol.tokensMatch("", ""))
  }

  @Test func theEnvironmentNamesAViewer() {
    #expect(LiveViewer.parse("unix:/tmp/a.sock") == .unixSocket("/tmp/a.sock"))
    #expect(LiveViewer.parse("tcp:127.0.0.1:9091") == .tcp(host: "127.0.0.1", port: 9091))
    #expect(LiveViewer.parse("tcp:[::1]:9091") == .tcp(host: "::1", port: 9091))
    #expect(LiveViewer.parse("tcp:host:99999") == nil)
    #expect(LiveViewer.parse("http://x") == nil)
    #expect(LiveViewer.parse("unix:") == nil)
  }
}
