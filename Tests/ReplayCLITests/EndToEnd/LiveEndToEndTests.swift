import Foundation
import RewindReplay
import RewindTestSupport
import Testing

/// `replay listen` and an app as two processes on one machine (`rewind-testbed live`, which
/// records counter actions to a file and to the viewer `REWIND_LIVE` names): the session shows
/// the app's actions as they arrive, and a viewer killed mid-stream and started again gets the
/// rest from a true state while the app goes on.
@Suite(.serialized) struct LiveEndToEndTests {
  /// A started process with its output in files.
  struct Child {
    let process: Process
    let stdout: URL
    let stderr: URL

    var output: String { (try? String(contentsOf: stdout, encoding: .utf8)) ?? "" }
    var errors: String { (try? String(contentsOf: stderr, encoding: .utf8)) ?? "" }
  }

  static func start(
    _ arguments: [String], in folder: URL, name: String, environment: [String: String] = [:]
  ) throws -> Child {
    let process = Process()
    process.executableURL = try TrapKindsTests.testbed()
    process.arguments = arguments
    let stdout = folder.appendingPathComponent("\(name).out")
    let stderr = folder.appendingPathComponent("\(name).err")
    _ = FileManager.default.createFile(atPath: stdout.path, contents: nil)
    _ = FileManager.default.createFile(atPath: stderr.path, contents: nil)
    process.standardOutput = try FileHandle(forWritingTo: stdout)
    process.standardError = try FileHandle(forWritingTo: stderr)
    process.standardInput = FileHandle.nullDevice
    var merged = ProcessInfo.processInfo.environment
    for (key, value) in environment { merged[key] = value }
    process.environment = merged
    try process.run()
    return Child(process: process, stdout: stdout, stderr: stderr)
  }

  /// A short folder (a Unix socket's path is limited to about 100 bytes).
  static func withFolder(_ body: (URL) throws -> Void) throws {
    let folder = URL(fileURLWithPath: "/tmp/rwe-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try body(folder)
  }

  static func waitForFile(_ path: String, containing text: String, seconds: Double = 20) -> Bool {
    let end = Date().addingTimeInterval(seconds)
    while Date() < end {
      if let content = try? String(contentsOfFile: path, encoding: .utf8), content.contains(text) {
        return true
      }
      usleep(20_000)
    }
    return false
  }

  @Test func theSessionShowsAnAppsActionsAsTheyArrive() throws {
    try Self.withFolder { folder in
      let socket = folder.appendingPathComponent("l.sock").path
      let saved = folder.appendingPathComponent("saved.jsonl").path
      let listener = try Self.start(
        [
          "replay", "listen", "--socket", socket, "--token", "t0k", "--save", saved,
          "--timeout", "60", "-c", "wait 60 --timeout 60", "-c", "print count",
        ], in: folder, name: "listen")
      #expect(Self.waitForFile(listener.stderr.path, containing: "waiting for an app"))
      let app = try Self.start(
        ["live", folder.appendingPathComponent("app.jsonl").path, "60", "5"], in: folder,
        name: "app", environment: ["REWIND_LIVE": "unix:\(socket)", "REWIND_LIVE_TOKEN": "t0k"])
      #expect(
        ChildExit.wait(for: app.process, timeLimit: 60) == ChildExit(status: 0, isSignal: false))
      #expect(
        ChildExit.wait(for: listener.process, timeLimit: 60)
          == ChildExit(status: 0, isSignal: false), "\(listener.errors)")
      #expect(listener.errors.contains("connected: counter (session "), "\(listener.errors)")
      #expect(listener.output.contains("live: at seq 60"), "\(listener.output)")
      // 1…60, every seventh adding its number: 60 - 8 + (7 + 14 + … + 56).
      #expect(listener.output.hasSuffix("(replay) print count\n304\n"), "\(listener.output)")
      #expect(app.errors.contains(#""droppedActions":0"#), "\(app.errors)")
    }
  }

  /// The app opted in (`REWIND_LIVE_ACCEPTS_ACTIONS=1` sets the testbed's
  /// `LiveViewer.acceptsActions`): the session's `dispatch` goes through the app's store, on its
  /// main queue, and comes back as a recorded action marked as the viewer's.
  @Test func theSessionDispatchesAnActionIntoAnAppThatAcceptsThem() throws {
    try Self.withFolder { folder in
      let socket = folder.appendingPathComponent("d.sock").path
      let saved = folder.appendingPathComponent("saved.jsonl").path
      let listener = try Self.start(
        [
          "replay", "listen", "--socket", socket, "--token", "t0k", "--save", saved,
          "--timeout", "60", "-c", "wait 3 --timeout 60", "-c", #"dispatch {"add":{"_0":1000}}"#,
          "-c", #"dispatch {"launch":{}}"#, "-c", "wait 40 --timeout 60", "-c", "print count",
        ], in: folder, name: "listen")
      #expect(Self.waitForFile(listener.stderr.path, containing: "waiting for an app"))
      let app = try Self.start(
        ["live", folder.appendingPathComponent("app.jsonl").path, "40", "50"], in: folder,
        name: "app",
        environment: [
          "REWIND_LIVE": "unix:\(socket)", "REWIND_LIVE_TOKEN": "t0k",
          "REWIND_LIVE_ACCEPTS_ACTIONS": "1",
        ])
      #expect(
        ChildExit.wait(for: app.process, timeLimit: 60) == ChildExit(status: 0, isSignal: false))
      #expect(
        ChildExit.wait(for: listener.process, timeLimit: 60)
          == ChildExit(status: 0, isSignal: false), "\(listener.errors)")
      #expect(
        listener.output.contains("dispatched: counter recorded it as #"), "\(listener.output)")
      #expect(
        listener.output.contains("dispatched by the live viewer (replay listen's dispatch)"),
        "\(listener.output)")
      #expect(
        listener.errors.contains("error: counter refused the action: the action does not decode"),
        "\(listener.errors)")
      // The app's 40 actions (35 increments and 7 + 14 + … + 35: 140) and the viewer's 1,000.
      #expect(listener.output.hasSuffix("(replay) print count\n1140\n"), "\(listener.output)")
      let log = try ReplayLog(path: folder.appendingPathComponent("app.jsonl").path)
      #expect(log.lastSeq == 41)
      let viewers = try (1...41).filter { try log.action(at: $0).via == "viewer" }
      #expect(viewers.count == 1)
    }
  }

  @Test func aViewerKilledMidStreamAndStartedAgainGetsTheRestFromATrueState() throws {
    try Self.withFolder { folder in
      let socket = folder.appendingPathComponent("k.sock").path
      let first = folder.appendingPathComponent("first.jsonl").path
      let second = folder.appendingPathComponent("second.jsonl").path
      let environment = ["REWIND_LIVE": "unix:\(socket)", "REWIND_LIVE_TOKEN": "t0k"]
      let viewer = try Self.start(
        [
          "replay", "listen", "--socket", socket, "--token", "t0k", "--save", first,
          "--timeout", "60", "-c", "wait 100000 --timeout 60",
        ], in: folder, name: "first")
      #expect(Self.waitForFile(viewer.stderr.path, containing: "waiting for an app"))
      let app = try Self.start(
        ["live", folder.appendingPathComponent("app.jsonl").path, "400", "10"], in: folder,
        name: "app", environment: environment)
      #expect(Self.waitForFile(first, containing: #""seq":50,"#))
      viewer.process.interrupt()
      kill(viewer.process.processIdentifier, SIGKILL)
      _ = ChildExit.wait(for: viewer.process, timeLimit: 30)
      let restarted = try Self.start(
        [
          "replay", "listen", "--socket", socket, "--token", "t0k", "--save", second,
          "--timeout", "60", "-c", "wait 400 --timeout 60", "-c", "info",
        ], in: folder, name: "second")
      #expect(
        ChildExit.wait(for: app.process, timeLimit: 60) == ChildExit(status: 0, isSignal: false))
      #expect(
        ChildExit.wait(for: restarted.process, timeLimit: 60)
          == ChildExit(status: 0, isSignal: false), "\(restarted.errors)")
      let before = try ReplayLog(path: first)
      let after = try ReplayLog(path: second)
      #expect(before.lastSeq >= 50 && before.lastSeq < 400)
      #expect(before.isCutOff)
      // The second viewer starts from the state of a checkpoint the app wrote after the first
      // died, and gets every action from there to the end.
      #expect(after.firstSeq > 50)
      #expect(after.lastSeq == 400)
      #expect(after.hasEndRecord)
      #expect(after.faults.isEmpty)
      let appLog = try ReplayLog(path: folder.appendingPathComponent("app.jsonl").path)
      #expect(try after.checkpointState(at: 400) == appLog.checkpointState(at: 400))
      #expect(app.errors.contains(#""connections":2"#), "\(app.errors)")
      #expect(restarted.output.contains("actions:      "), "\(restarted.output)")
    }
  }
}
