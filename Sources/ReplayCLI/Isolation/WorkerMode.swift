import Foundation
import Rewind
import RewindJSON
import RewindReplay

/// The child side of crash-isolated replay:
/// `replay __worker LOG RECOVERY [--no-checkpoints] [--expect LENGTH:CRC] [--ahead PATH]`
/// reads one JSON request per line on stdin and answers one JSON line on stdout (``WorkerInput``). A reducer that
/// traps kills only this process; what it leaves on stderr (the runtime's message, the crash
/// reporter's note of the action, the backtracer's report) becomes the parent's ``CrashReport``.
///
/// Requests:
/// - `{"op":"state","at":N,"skips":[…],"progress":B}` → `{"ok":true,"state":…}`
/// - `{"op":"reach","at":N,"skips":[…],"progress":B}` → `{"ok":true}` once the state at N is
///   rebuilt (kept for the next request; not sent)
/// - either of those two with `"aheadLimit":M`: a session's worker rebuilds ahead up to M at most
/// - `{"op":"equal","a":N,"b":M,"skips":[…],"progress":B}` → `{"ok":true,"equal":B}`
/// - `{"op":"run","seqs":[…]}` → the state after applying just those actions, in that order, to the
///   header's state: `{"ok":true,"state":…}`
/// - `{"op":"check","seq":N}` → `{"ok":true}` when the action decodes
///
/// With `"progress":true`, a long rebuild first writes lines `{"progress":[DONE,TOTAL]}`. A failure
/// answers `{"ok":false,"error":"…"}`; the parent asks its own timeline for the typed error.
///
/// With `--ahead PATH` (a session's worker), requests may also come through the memory at `PATH`
/// (``WorkerSharedMemory``), and after answering `state` or `reach` the worker rebuilds the
/// states that follow while no request waits, telling the parent there how far it got
/// (``WorkerRunAhead``).
enum WorkerMode {
  static let command = "__worker"
  static let noCheckpoints = "--no-checkpoints"
  /// Followed by `LENGTH:CRC` (hexadecimal): the bytes the parent read, which the worker's file
  /// must still start with (a log being recorded may have grown since).
  static let expect = "--expect"
  /// Followed by the path of the ``WorkerSharedMemory``.
  static let ahead = "--ahead"

  static func run(_ arguments: [String], apps: [ReplayApp]) -> Int32 {
    guard arguments.count >= 2, let recovery = RecoveryMode(rawValue: arguments[1]) else {
      return refuse("usage: \(command) LOG RECOVERY [\(noCheckpoints)] [\(expect) LENGTH:CRC]")
    }
    let options = Array(arguments.dropFirst(2))
    let usesCheckpoints = !options.contains(noCheckpoints)
    var expected: (length: Int, checksum: UInt32)?
    if let index = options.firstIndex(of: expect), index + 1 < options.count {
      let parts = options[index + 1].split(separator: ":")
      if parts.count == 2, let length = Int(parts[0]), let checksum = UInt32(parts[1], radix: 16) {
        expected = (length, checksum)
      }
    }
    let timeline: any AnyTimeline
    var runAhead: WorkerRunAhead?
    var shared: SharedMemory?
    do {
      let log = try ReplayLog(path: arguments[0], recovery: recovery)
      // The parent read the file before this worker started: it must still start with the
      // bytes the parent read (a log still being recorded grows).
      if let expected, log.checksum(ofFirst: expected.length) != expected.checksum {
        return refuse(
          "the log changed since replay opened it: its first \(expected.length) bytes are no "
            + "longer the same; open it again")
      }
      guard let app = ReplayApp.recording(log.header, among: apps) else {
        return refuse("this binary does not know the app \"\(log.header.app)\"")
      }
      timeline = try app.timeline(for: log, usesCheckpoints: usesCheckpoints)
      StepMarker.setLog(arguments[0])
      if let index = options.firstIndex(of: ahead), index + 1 < options.count {
        switch WorkerSharedMemory.open(path: options[index + 1]) {
        case .success(let memory):
          // Mapped: the file can go (replay removes it too, if this worker never gets here).
          memory.removeFile()
          shared = memory
          runAhead = WorkerRunAhead(shared: memory, timeline: timeline)
        case .failure(let failure):
          return refuse(
            "cannot map \(options[index + 1]): \(Platform.describe(errno: failure.errno))")
        }
      }
    } catch {
      return refuse(error.message)
    }
    var input = WorkerInput(shared: shared)
    while let line = input.nextLine(idle: { runAhead?.step() ?? false }) {
      runAhead?.stop()
      respond(to: line, timeline: timeline, runAhead: runAhead)
    }
    return ExitStatus.success
  }

  /// Says on stderr why the worker cannot start (the parent shows the last line).
  private static func refuse(_ reason: String) -> Int32 {
    var line = Array("replay worker: \(reason)\n".utf8)
    line.withUnsafeMutableBytes { _ = Platform.writeAll(2, UnsafeRawBufferPointer($0)) }
    return ExitStatus.trouble
  }

  private static func respond(
    to line: [UInt8], timeline: any AnyTimeline, runAhead: WorkerRunAhead?
  ) {
    var reply: JSONValue
    do {
      let request = try JSONParser.parse(line)
      timeline.progress = request["progress"]?.boolValue == true ? writeProgress : nil
      switch request["op"]?.stringValue {
      case "state":
        // The state's text goes out as it was encoded, without a tree in between.
        setSkips(request["skips"], of: timeline)
        let position = request["at"]?.intValue ?? 0
        let text = try runAhead?.preparedText(at: position) ?? timeline.stateJSONText(at: position)
        runAhead?.begin(at: position, upTo: request["aheadLimit"]?.intValue)
        writeState(text)
        return
      case "reach":
        setSkips(request["skips"], of: timeline)
        let position = request["at"]?.intValue ?? 0
        try timeline.reach(position)
        runAhead?.begin(at: position, upTo: request["aheadLimit"]?.intValue)
        reply = .object([JSONMember("ok", .bool(true))])
      case "equal":
        setSkips(request["skips"], of: timeline)
        let equal = try timeline.statesEqual(
          request["a"]?.intValue ?? 0, request["b"]?.intValue ?? 0)
        reply = .object([JSONMember("ok", .bool(true)), JSONMember("equal", .bool(equal))])
      case "run":
        writeState(try timeline.stateJSONText(runningOnly: request["seqs"]?.arrayOfInts ?? []))
        return
      case "check":
        try timeline.checkAction(request["seq"]?.intValue ?? 0)
        reply = .object([JSONMember("ok", .bool(true))])
      default:
        reply = failure("unknown request")
      }
    } catch let error as ReplayError {
      reply = failure(error.description)
    } catch {
      reply = failure("\(error)")
    }
    writeLine(reply)
  }

  /// Writes the reply `{"ok":true,"state":TEXT}` with a state's `text` as it was encoded.
  private static func writeState(_ text: [UInt8]) {
    var line = Array(#"{"ok":true,"state":"#.utf8)
    line.reserveCapacity(line.count + text.count + 2)
    line += text
    line += Array("}\n".utf8)
    line.withUnsafeBytes { _ = Platform.writeAll(1, $0) }
  }

  private static func setSkips(_ skips: JSONValue?, of timeline: any AnyTimeline) {
    let wanted = Set(skips.flatMap(\.arrayOfInts) ?? [])
    for seq in timeline.skippedSeqs.subtracting(wanted) { timeline.setSkipped(seq, false) }
    for seq in wanted.subtracting(timeline.skippedSeqs) { timeline.setSkipped(seq, true) }
  }

  private static let writeProgress: @Sendable (Int, Int) -> Void = { done, total in
    writeLine(
      .object([
        JSONMember("progress", .array([.number(String(done)), .number(String(total))]))
      ]))
  }

  private static func writeLine(_ value: JSONValue) {
    var bytes = value.serializedBytes
    bytes.append(UInt8(ascii: "\n"))
    bytes.withUnsafeBytes { _ = Platform.writeAll(1, $0) }
  }

  private static func failure(_ text: String) -> JSONValue {
    .object([JSONMember("ok", .bool(false)), JSONMember("error", .string(text))])
  }
}

extension JSONValue {
  /// The elements when this is an array of integers.
  var arrayOfInts: [Int]? {
    guard case .array(let elements) = self else { return nil }
    return elements.compactMap(\.intValue)
  }
}
