import RewindReplay
import RewindReplayService

extension CommandInvocation {
  /// `replay gen-test LOG [--from N] [--to M] [--name NAME] [--reducer EXPR]`.
  func runGenTest() throws(CommandFailure) -> Int32 {
    let opened = try openLog()
    reportFaults(opened.log)
    let request: GenTestRequest
    do throws(UsageError) {
      request = GenTestRequest(
        from: try arguments.int("from"), to: try arguments.int("to"),
        name: arguments.string("name"), reducer: arguments.string("reducer"))
    } catch {
      throw .diagnostic(Diagnostic.error(error.message))
    }
    let service = ReplayService(opened: opened)
    var text = LiteralOutput(output: output)
    do throws(ReplayFailure) {
      let response = try service.perform(request)
      try service.writeTest(response, to: &text)
    } catch {
      throw opened.commandFailure(error)
    }
    text.flush()
    return ExitStatus.success
  }

  /// Standard output as a `TextOutputStream`, for literals `debugPrint` writes a piece at a
  /// time: small pieces are gathered and written 64 KiB at a time, a large one (an array's whole
  /// literal, which the standard library makes as one `String`) written as it comes.
  private struct LiteralOutput: TextOutputStream {
    let output: any TextOutput
    private var pending = ""
    private static let pieceSize = 1 << 16

    init(output: any TextOutput) {
      self.output = output
    }

    mutating func write(_ string: String) {
      if string.utf8.count >= Self.pieceSize {
        flush()
        output.write(string, to: .standardOutput)
        return
      }
      pending += string
      if pending.utf8.count >= Self.pieceSize { flush() }
    }

    mutating func flush() {
      guard !pending.isEmpty else { return }
      output.write(pending, to: .standardOutput)
      pending = ""
    }
  }
}
