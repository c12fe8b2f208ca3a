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
/// (``ReplayLog`` and the ``JSONValue`` decoder), which then gives the value or the exact error;
/// when the line loaded and Rewind's decoder failed on it, ``lastFailure`` has that error
/// already, so the full path need not parse the line again. One per thread.
///
/// The replay loop's calls hand over the decoded value through a slot rather than as a return
/// value: this generic code is not specialised for the app's types (it is called through
/// ``ReplayTimeline``), and an `Action?` or a generic struct around the action would cost a lookup in
/// the runtime's metadata cache on every action.
struct LineDecoder {
  /// Where an action's line is, for the step marker.
  struct LineInfo {
    var type: ReplayLog.ActionTypeName
    var line: Int
  }

  /// Why the last call returned `nil` after its line loaded: Rewind's decoder failed on it.
  struct Failure {
    /// The decoder's error.
    var error: any Error
    /// The key of the value when it is an object with one member: the case an unknown-case
    /// message names.
    var onlyKey: String?
    /// The line's `type`, for actions.
    var type: String?
    /// The line number.
    var line: Int
  }

  private final class FailureSlot {
    var failure: Failure?
  }

  let coder: LogCoder
  private let document: JSONTapeDocument
  private let foundation: JSONDecoder?
  private let failureSlot = FailureSlot()

  init(coder: LogCoder, limits: JSONLimits) {
    self.coder = coder
    document = JSONTapeDocument(limits: limits)
    foundation = coder == .foundation ? JSONDecoder() : nil
  }

  /// Set when the last call returned `nil` because decoding a line that loaded failed (with
  /// Rewind's coder); `nil` when it returned a value or the line needs the full path.
  var lastFailure: Failure? { failureSlot.failure }

  /// Decodes the action `seq` of `log` into `slot` (uninitialized before, initialized after a
  /// non-`nil` return); `nil` when it needs the full path.
  ///
  /// - Parameter direct: The type's direct decoding, looked up once by the caller.
  func action<Action: Decodable>(
    _ type: Action.Type, seq: Int, in log: ReplayLog, direct: JSONDirectCoding.Decode<Action>?,
    into slot: UnsafeMutablePointer<Action>
  ) -> LineInfo? {
    failureSlot.failure = nil
    guard let line = log.locateActionLine(seq) else { return nil }
    return action(Action.self, line: line, in: log, direct: direct, into: slot)
  }

  /// Decodes the action of `line` (``ReplayLog/locateActionLine(_:)``) into `slot`, as
  /// ``action(_:seq:in:direct:into:)`` does.
  func action<Action: Decodable>(
    _ type: Action.Type, line located: ReplayLog.LocatedActionLine, in log: ReplayLog,
    direct: JSONDirectCoding.Decode<Action>?, into slot: UnsafeMutablePointer<Action>
  ) -> LineInfo? {
    failureSlot.failure = nil
    guard let line = log.loadActionLine(located, into: document) else { return nil }
    guard decode(Action.self, at: line.payload, direct: direct, into: slot) else {
      failureSlot.failure?.type = line.type.string
      failureSlot.failure?.line = line.number
      return nil
    }
    return LineInfo(type: line.type, line: line.number)
  }

  /// The state of the checkpoint after `seq` in `log`, or `nil` when it needs the full path.
  func checkpointState<State: Decodable>(
    _ type: State.Type, seq: Int, in log: ReplayLog, direct: JSONDirectCoding.Decode<State>?
  ) -> State? {
    failureSlot.failure = nil
    guard let payload = log.loadCheckpointLine(seq, into: document) else { return nil }
    let slot = UnsafeMutablePointer<State>.allocate(capacity: 1)
    defer { slot.deallocate() }
    guard decode(State.self, at: payload, direct: direct, into: slot) else { return nil }
    return slot.move()
  }

  /// The state whose JSON text is `text` (a header's state kept as text), or `nil` when it needs
  /// the full path.
  func state<State: Decodable>(
    _ type: State.Type, text: UnsafeRawBufferPointer, direct: JSONDirectCoding.Decode<State>?
  ) -> State? {
    failureSlot.failure = nil
    // The document reads the bytes it loaded: it is done with them before they go.
    guard document.load(text) else { return nil }
    let slot = UnsafeMutablePointer<State>.allocate(capacity: 1)
    defer { slot.deallocate() }
    guard decode(State.self, at: document.root, direct: direct, into: slot) else { return nil }
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
      failureSlot.failure = Failure(
        error: error, onlyKey: document.onlyKey(of: index), type: nil, line: 0)
      return false
    }
  }
}
