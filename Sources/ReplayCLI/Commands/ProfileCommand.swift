import Foundation
import RewindReplay
import RewindReplayService

extension CommandInvocation {
  /// `replay profile LOG [--repeat N] [--top K] [--type NAME] [--compare BASELINE] [--json]`: a
  /// ``ProfileRequest``; exit status 1 when a type got slower than the baseline.
  func runProfile() throws(CommandFailure) -> Int32 {
    var request = ProfileRequest(type: arguments.string("type"))
    do throws(UsageError) {
      request.passes = try arguments.int("repeat") ?? request.passes
      request.top = try arguments.int("top") ?? request.top
    } catch {
      throw .diagnostic(Diagnostic.error(error.message))
    }
    // A baseline that does not read is said before the log is replayed.
    if let path = arguments.string("compare") { request.baseline = try readBaseline(path) }
    let opened = try openLog(needsInitialState: true)
    reportFaults(opened.log)
    let response: ProfileResponse
    do { response = try ReplayService(opened: opened).perform(request) } catch {
      throw opened.commandFailure(error)
    }
    if wantsJSON {
      output.writeLine(response.jsonValue.jsonText)
    } else {
      for line in response.textLines { output.writeLine(line.text, to: line.channel) }
    }
    if response.hasRegression { return ExitStatus.different }
    return response.crash == nil ? ExitStatus.success : ExitStatus.reducerCrashed
  }

  /// The profile saved at `path`, or the diagnostic saying why it does not read.
  private func readBaseline(_ path: String) throws(CommandFailure) -> ProfileBaseline {
    let hint = Diagnostic.Hint(
      "replay profile LOG --json > \(path)",
      comment: "save a baseline with the build to compare against")
    let bytes: [UInt8]
    do { bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path))) } catch {
      throw .diagnostic(
        Diagnostic.error(
          "cannot read the baseline: \(error.localizedDescription)",
          at: Diagnostic.Location(file: path), hints: [hint]))
    }
    do throws(ProfileBaseline.ReadError) {
      return try ProfileBaseline(path: path, bytes: bytes)
    } catch {
      var location = Diagnostic.Location(file: path)
      if case .invalidJSON(_, let parseError, let line) = error {
        location = Diagnostic.Location(file: path, line: line, byteOffset: parseError.offset)
      }
      throw .diagnostic(
        Diagnostic.error(
          error.message, at: location,
          notes: ["a baseline is what 'replay profile LOG --json' printed"], hints: [hint]))
    }
  }
}
