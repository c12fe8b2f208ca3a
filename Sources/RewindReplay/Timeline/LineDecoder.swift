import Foundation
import Rewind
import RewindJSON

/// Decodes actions and checkpoint states straight from a log's lines, with a timeline's
/// ``LogCoder``: Rewind's decodes from the tape the line was loaded into — through the type's
/// ``JSONDirectDecodable/init(json:)`` when it has one, else its `init(from:)` — and Foundation's
/// `JSONDecoder` from the bytes of the value.
///
/// Either way, the line is first loaded into the tape, which checks it as strictly as parsing it
/// whole. Every method returns `nil` (or `false`) whenever the line needs the full path
/// (``ReplayLog`` and the ``JSONValue`` decoder), which then gives the value or the exact error.
/// One per thread.
///
/// The replay loop's calls hand over the decoded value through a slot rather than as a return
/// value: this generic code is not specialised for the app's types (it is called through
/// ``AnyTimeline``), and an `Action?` or a generic struct around the action would cost a lookup in
/// the runtime's metadata cache on every action.
struct LineDecoder {
  /// Where an action's line is, for the step marker.
  struct LineInfo {
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

  /// Decodes the action `seq` of `log` into `slot` (uninitialized before, initialized after a
  /// non-`nil` return); `nil` when it needs the full path.
  ///
  /// - Parameter direct: The type's direct decoding, looked up once by the caller.
  func action<Action: Decodable>(
    _ type: Action.Type, seq: Int, in log: ReplayLog, direct: JSONDirectCoding.Decode<Action>?,
    into slot: UnsafeMutablePointer<Action>
  ) -> LineInfo? {
    guard let line = log.loadActionLine(seq, into: document),
      decode(Action.self, at: line.payload, direct: direct, into: slot)
    else { return nil }
    return LineInfo(type: line.type, line: line.number)
  }

  /// The state of the checkpoint after `seq` in `log`, or `nil` when it needs the full path.
  func checkpointState<State: Decodable>(
    _ type: State.Type, seq: Int, in log: ReplayLog, direct: JSONDirectCoding.Decode<State>?
  ) -> State? {
    guard let payload = log.loadCheckpointLine(seq, into: document) else { return nil }
    let slot = UnsafeMutablePointer<State>.allocate(capacity: 1)
    defer { slot.deallocate() }
    guard decode(State.self, at: payload, direct: direct, into: slot) else { return nil }
    return slot.move()
  }

  /// Decodes the value at `index` of the document into `slot`; `false` (and `slot` left
  /// uninitialized) when it does not decode this way.
  private func decode<T: Decodable>(
    _ type: T.Type, at index: Int, direct: JSONDirectCoding.Decode<T>?,
    into slot: UnsafeMutablePointer<T>
  ) -> Bool {
    if let foundation {
      do {
        slot.initialize(to: try foundation.decode(T.self, from: Data(document.text(at: index))))
        return true
      } catch {
        return false
      }
    }
    if let direct {
      do {
        slot.initialize(to: try direct(document, index))
        return true
      } catch {}
    }
    do {
      slot.initialize(to: try document.decode(T.self, at: index))
      return true
    } catch {
      return false
    }
  }
}
