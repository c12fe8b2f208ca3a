import Foundation
import Rewind
import RewindJSON

/// Decodes actions and checkpoint states straight from a log's lines, with a timeline's
/// ``LogCoder``: Rewind's decodes from the tape the line was loaded into — through the type's
/// ``JSONDirectDecodable/init(json:)`` when it has one, else its `init(from:)` — and Foundation's
/// `JSONDecoder` from the bytes of the value.
///
/// Either way, the line is first loaded into the tape, which checks it as strictly as parsing it
/// whole. Every method returns `nil` whenever the line needs the full path (``ReplayLog`` and the
/// ``JSONValue`` decoder), which then gives the value or the exact error. One per thread.
struct LineDecoder {
  /// One decoded action, with what the step marker shows for it.
  struct Decoded<Action> {
    var action: Action
    var type: String?
    var line: Int
  }

  let coder: LogCoder
  private let document: JSONTapeDocument
  private let foundation: JSONDecoder?

  init(coder: LogCoder, limits: JSONLimits) {
    self.coder = coder
    document = JSONTapeDocument(limits: limits)
    foundation = coder == .foundation ? JSONDecoder() : nil
  }

  /// The action `seq` of `log`, or `nil` when it needs the full path.
  ///
  /// - Parameter direct: The type's direct decoding, looked up once by the caller.
  func action<Action: Decodable>(
    _ type: Action.Type, seq: Int, in log: ReplayLog, direct: JSONDirectCoding.Decode<Action>?
  ) -> Decoded<Action>? {
    guard let line = log.loadActionLine(seq, into: document),
      let action = decode(Action.self, at: line.payload, direct: direct)
    else { return nil }
    return Decoded(action: action, type: line.type, line: line.number)
  }

  /// The state of the checkpoint after `seq` in `log`, or `nil` when it needs the full path.
  func checkpointState<State: Decodable>(
    _ type: State.Type, seq: Int, in log: ReplayLog, direct: JSONDirectCoding.Decode<State>?
  ) -> State? {
    guard let payload = log.loadCheckpointLine(seq, into: document) else { return nil }
    return decode(State.self, at: payload, direct: direct)
  }

  private func decode<T: Decodable>(
    _ type: T.Type, at index: Int, direct: JSONDirectCoding.Decode<T>?
  ) -> T? {
    if let foundation {
      return try? foundation.decode(T.self, from: Data(document.text(at: index)))
    }
    if let direct, let value = try? direct(document, index) { return value }
    return try? document.decode(T.self, at: index)
  }
}
