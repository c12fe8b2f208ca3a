import Rewind
import RewindJSON
import RewindReplay
import RewindReplayService

extension CommandInvocation {
  /// `replay state LOG --at N`: a position request, then the state (or a value) there.
  func runState() throws(CommandFailure) -> Int32 {
    let opened = try openLog()
    reportFaults(opened.log)
    let target = try parsePosition(arguments.string("at") ?? "last", in: opened.log)
    // A position request, then the state there: the cursor lands on the last good position
    // when the app's reducer crashes on the way, as a session's goto does.
    let service = ReplayService(opened: opened)
    let moved: MotionResponse
    do { moved = try service.perform(MoveRequest(.position(target))) } catch {
      throw opened.commandFailure(error)
    }
    let position = service.position
    let crash = moved.crash
    let path = arguments.string("path")
    // The state is read as the encoder writes it and never held as a tree: written as it is
    // (`--json`), or indented (text); a path is looked up in that text, and the text of the value
    // it leads to printed the same way.
    let text = try opened.commandStateText(at: position)
    var shown = text[...]
    if let path {
      // The value's own text, printed as a whole state is.
      do throws(StatePathError) {
        shown = try JSONPath.parse(path).text(inText: text)
      } catch {
        throw .diagnostic(Diagnostic.error(ReplaySession.pathMessage(error)))
      }
    }
    if wantsJSON {
      // Written from the encoder's bytes: no `String` copy of a state that may be large.
      shown.withUnsafeBytes { output.write(bytes: $0, to: .standardOutput) }
      output.write("\n", to: .standardOutput)
    } else {
      // Printable ASCII is inert as it is, and so is its indented form (the indenter adds line
      // feeds and spaces): written as it is indented, a piece at a time.
      if shown.allSatisfy({ (0x20..<0x7F).contains($0) }) {
        shown.withUnsafeBytes { compact in
          JSONIndenter.indent(compact) { output.write(bytes: $0, to: .standardOutput) }
        }
        output.write("\n", to: .standardOutput)
      } else {
        let indented = shown.withUnsafeBytes { JSONIndenter.indented($0) }
        shown = []
        output.writeLine(inert(String(decoding: indented, as: UTF8.self), keepingNewlines: true))
      }
    }
    guard let crash else { return ExitStatus.success }
    if wantsJSON {
      // The landing as a session's `goto --json` prints it: one JSON form of a crash met.
      output.writeLine(moved.jsonValue.jsonText, to: .standardError)
    } else {
      for line in crash.lines() { output.writeLine(line, to: .standardError) }
      output.writeLine(
        "the state printed is at position \(position), the last one before the crash",
        to: .standardError)
    }
    return ExitStatus.reducerCrashed
  }
}
