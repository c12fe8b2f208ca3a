import Rewind
import RewindReplayService
import RewindServers

extension CommandInvocation {
  /// `replay mcp LOG|FOLDER`: a Model Context Protocol server for a coding agent, on standard
  /// input and output, over one log or every `.jsonl` log under a folder. Read-only; the
  /// reducer runs in a worker process unless `--no-isolate`.
  func runMCP() throws(CommandFailure) -> Int32 {
    let path = arguments.positional("LOG") ?? ""
    let catalog: MCPLogCatalog
    do throws(MCPLogCatalog.Failure) {
      catalog = try MCPLogCatalog(
        path: path, apps: apps, recovery: recovery, isolation: isolation(interactive: false))
    } catch {
      throw .diagnostic(
        Diagnostic(
          .error, "replay mcp: \(error.message)",
          hints: ["replay mcp Fixtures/todo-crash.jsonl", "replay mcp ~/Downloads/crash-logs"]))
    }
    LoopbackListener.ignoreBrokenPipes()
    MCPServer(catalog: catalog, version: "log-format-\(LogFormat.version)").run(
      input: MessageInput(fd: 0), output: MessageOutput(fd: 1))
    return ExitStatus.success
  }
}
