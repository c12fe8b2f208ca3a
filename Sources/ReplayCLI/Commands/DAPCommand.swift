import Foundation
import RewindReplayService
import RewindServers

extension CommandInvocation {
  /// `replay dap [--port N]`: a Debug Adapter Protocol server for an editor's debugger, on
  /// standard input and output, or for one client at a time on 127.0.0.1:N. The log is named
  /// by the client's `launch` request; a console command's response is rendered as the
  /// session renders it.
  func runDAP() throws(CommandFailure) -> Int32 {
    LoopbackListener.ignoreBrokenPipes()
    let configuration = DAPSession.Configuration(
      apps: apps, isolatesByDefault: isolates,
      sourceRoot: FileManager.default.currentDirectoryPath,
      renderResponse: { service, response in
        service.textLines(of: response).map(\.text).joined(separator: "\n")
      },
      renderFailure: { service, failure in service.text(of: failure) })
    guard let portText = arguments.string("port") else {
      DAPServer(
        input: MessageInput(fd: 0), output: MessageOutput(fd: 1),
        session: DAPSession(configuration: configuration)
      ).run()
      return ExitStatus.success
    }
    let listener: LoopbackListener
    do throws(LoopbackListener.Failure) {
      listener = try LoopbackListener(port: Int(portText) ?? -1)
    } catch {
      throw .diagnostic(
        Diagnostic(
          .error, "replay dap --port \(portText): \(error.description)",
          hints: ["choose another port, or --port 0 for any free one"]))
    }
    output.writeLine(
      "replay dap: listening on 127.0.0.1:\(listener.port) (one client at a time)",
      to: .standardError)
    while true {
      let client: Int32
      do throws(LoopbackListener.Failure) { client = try listener.accept() } catch {
        throw .diagnostic(Diagnostic(.error, "replay dap: \(error.description)"))
      }
      DAPServer(
        input: MessageInput(fd: client), output: MessageOutput(fd: client),
        session: DAPSession(configuration: configuration)
      ).run()
      listener.closeConnection(client)
    }
  }
}
