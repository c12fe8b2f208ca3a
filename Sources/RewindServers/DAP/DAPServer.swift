import RewindJSON

/// A Debug Adapter Protocol server: reads framed messages (``DAPFraming``), has a
/// ``DAPSession`` answer each, and writes the answers, one message after another, until the
/// client disconnects or its input ends.
///
/// A message that cannot be read (bad framing, a body over the limit, JSON that does not
/// parse) is reported in an `output` event, and the server reads on; only the end of the
/// input, `disconnect` or a failed write ends it.
package final class DAPServer {
  /// Where messages come from.
  private let framing: DAPFraming
  /// Where answers go.
  private let output: MessageOutput
  /// The session answering.
  package let session: DAPSession

  /// A server reading `input` and writing `output` for `session`.
  package init(input: MessageInput, output: MessageOutput, session: DAPSession) {
    framing = DAPFraming(input: input)
    self.output = output
    self.session = session
  }

  /// Serves until the client disconnects, the input ends or the output closes.
  package func run() {
    while !session.isFinished, !output.isClosed, let frame = framing.next() {
      switch frame {
      case .failure(let reason, let canContinue):
        send([session.unreadable(reason)])
        if !canContinue { return }
      case .body(let bytes):
        do throws(JSONParseError) {
          send(session.handle(try JSONParser.parse(bytes)))
        } catch {
          send([session.unreadable("its body is not JSON (\(error))")])
        }
      }
    }
  }

  /// Writes `messages`, framed, in order.
  private func send(_ messages: [JSONValue]) {
    for message in messages { output.write(DAPFraming.frame(message)) }
  }
}
