import RewindJSON
import RewindReplay

/// One request from `replay` to its crash-isolation worker (``WorkerMode``), as one line of JSON
/// (its `Codable` form, written and read with Rewind's JSON coder).
///
/// Each operation names its reply (``WorkerReply``): a state comes back as its text
/// (``WorkerReply/stateText(in:)``), a batch of states as their texts
/// (``WorkerReply/stateTexts(in:)``), `reach` and `check` as ``WorkerReply/done``, `equal` as
/// ``WorkerReply/equal(_:)``, and a walk of the log (`verify`, `check`) as its result, whole: a
/// request that walks the log runs inside the worker and sends back what it found, never one round
/// trip per action. Any of them may instead answer ``WorkerReply/failed(_:)`` with the typed
/// ``ReplayError``, or end with the worker's death (the reducer trapped).
package struct WorkerRequest: Codable, Sendable, Equatable {
  /// What to do.
  package enum Operation: Codable, Sendable, Equatable {
    /// Rebuild the state at `at` and send it as text; a session's worker then rebuilds ahead, up
    /// to `aheadLimit` at most.
    case state(at: Int, aheadLimit: Int?)
    /// Rebuild the state at `at` and keep it for the next request, sending nothing back.
    case reach(at: Int, aheadLimit: Int?)
    /// Whether the states at `a` and `b` are equal.
    case equal(a: Int, b: Int)
    /// The state after applying only the actions `seqs`, in that order, to the header's state.
    case run(seqs: [Int])
    /// Whether every action from `from` through `through` still decodes: one request for the
    /// range (``ReplayTimeline/checkActions(_:)``).
    case check(from: Int, through: Int)
    /// ``Verifier``'s walk of the whole log (``ReplayTimeline/verifyWalk()``).
    case verify
    /// The states from `from` through `through`, as many as fit in `maxBytes` (at least one):
    /// ``ReplayTimeline/stateJSONTexts(from:through:maxBytes:)``.
    case states(from: Int, through: Int, maxBytes: Int)
    /// Every change of the value at `path` (as a session writes it) from `from` through
    /// `through`, at most `limit`: ``ReplayTimeline/valueHistory(of:from:through:limit:)``.
    case history(path: String, from: Int, through: Int, limit: Int?)
    /// Where having a match for `query` changes, going backward or not from `from`
    /// (``ReplayTimeline/presenceChange(of:from:direction:isPresent:)``).
    case search(query: StateQuery, from: Int, backward: Bool, present: Bool)
    /// What each action through `through` cost the reducer, timed in the worker over `passes`
    /// replays, with the `top` slowest, of `type` alone when given
    /// (``ReplayTimeline/actionProfile(through:passes:top:type:)``).
    case profile(through: Int, passes: Int, top: Int, type: String?)
  }

  /// What to do.
  package var operation: Operation
  /// The actions replayed as if they had not happened.
  package var skips: [Int]
  /// Whether a long rebuild reports its progress first (``WorkerReply/progress(done:total:)``).
  package var progress: Bool

  /// A request for `operation` with these skipped actions.
  package init(_ operation: Operation, skips: Set<Int> = [], progress: Bool = false) {
    self.operation = operation
    self.skips = skips.sorted()
    self.progress = progress
  }

  /// The request as one line of JSON, without its line feed: its `Codable` form, the same bytes
  /// as Rewind's encoder writes (`WorkerProtocolTests` checks it), written here without the
  /// encoder. A session sends one a step, after a pause in which the caches went cold, and the
  /// generic encoder then costs more than the rest of the round trip (docs/performance.md, 8e).
  package var line: [UInt8] {
    func number(_ value: Int) -> JSONValue { .number(String(value)) }
    func object(_ members: [(String, JSONValue?)]) -> JSONValue {
      .object(members.compactMap { key, value in value.map { JSONMember(key, $0) } })
    }
    let operation: JSONValue
    switch self.operation {
    case .state(let at, let aheadLimit):
      operation = object([
        ("state", object([("at", number(at)), ("aheadLimit", aheadLimit.map(number))]))
      ])
    case .reach(let at, let aheadLimit):
      operation = object([
        ("reach", object([("at", number(at)), ("aheadLimit", aheadLimit.map(number))]))
      ])
    case .equal(let a, let b):
      operation = object([("equal", object([("a", number(a)), ("b", number(b))]))])
    case .run(let seqs):
      operation = object([("run", object([("seqs", .array(seqs.map(number)))]))])
    case .check(let from, let through):
      operation = object([
        ("check", object([("from", number(from)), ("through", number(through))]))
      ])
    case .verify:
      operation = object([("verify", object([]))])
    case .states(let from, let through, let maxBytes):
      operation = object([
        (
          "states",
          object([
            ("from", number(from)), ("through", number(through)), ("maxBytes", number(maxBytes)),
          ])
        )
      ])
    case .history(let path, let from, let through, let limit):
      operation = object([
        (
          "history",
          object([
            ("path", .string(path)), ("from", number(from)), ("through", number(through)),
            ("limit", limit.map(number)),
          ])
        )
      ])
    case .search(let query, let from, let backward, let present):
      operation = object([
        (
          "search",
          object([
            ("query", try? RewindJSONEncoder().encodeValue(query)), ("from", number(from)),
            ("backward", .bool(backward)), ("present", .bool(present)),
          ])
        )
      ])
    case .profile(let through, let passes, let top, let type):
      operation = object([
        (
          "profile",
          object([
            ("through", number(through)), ("passes", number(passes)), ("top", number(top)),
            ("type", type.map(JSONValue.string)),
          ])
        )
      ])
    }
    return JSONValue.object([
      JSONMember("operation", operation), JSONMember("skips", .array(skips.map(number))),
      JSONMember("progress", .bool(progress)),
    ]).serializedBytes
  }

  /// The request in `line`.
  /// - Throws: ``ReplayError/encodingFailed(what:reason:)`` naming what does not read.
  package init(line: [UInt8]) throws(ReplayError) {
    // What ``line`` writes is read without the generic decoder (a worker reads one request a
    // step, with cold caches); anything else goes to the decoder, which says what is wrong.
    if let request = Self.read(line) {
      self = request
      return
    }
    do {
      self = try RewindJSONDecoder().decode(WorkerRequest.self, from: line)
    } catch {
      throw .encodingFailed(what: "worker request", reason: "\(error)")
    }
  }

  /// The request in `line` when it has the form ``line`` writes, else `nil`.
  private static func read(_ line: [UInt8]) -> WorkerRequest? {
    guard let value = try? JSONParser.parse(line), case .object(let members) = value,
      members.count == 3, case .array(let skips)? = value["skips"],
      let progress = value["progress"]?.boolValue,
      case .object(let cases)? = value["operation"], cases.count == 1,
      case .object(let fields) = cases[0].value
    else { return nil }
    let ints = skips.compactMap { $0.intValue }
    guard ints.count == skips.count else { return nil }
    func int(_ key: String) -> Int? { cases[0].value[key]?.intValue }
    let operation: Operation
    switch (cases[0].key, fields.count) {
    case ("state", 1...2):
      guard let at = int("at"), fields.count == (int("aheadLimit") == nil ? 1 : 2) else {
        return nil
      }
      operation = .state(at: at, aheadLimit: int("aheadLimit"))
    case ("reach", 1...2):
      guard let at = int("at"), fields.count == (int("aheadLimit") == nil ? 1 : 2) else {
        return nil
      }
      operation = .reach(at: at, aheadLimit: int("aheadLimit"))
    case ("check", 2):
      guard let from = int("from"), let through = int("through") else { return nil }
      operation = .check(from: from, through: through)
    default:
      // The rest are not sent a step at a time: the decoder reads them.
      return nil
    }
    var request = WorkerRequest(operation, progress: progress)
    request.skips = ints
    return request
  }

  /// The position whose state the request rebuilds last, when it is one state's (`state`,
  /// `reach`): a worker that answers it has shown that rebuilding there does not trap.
  package var reaching: Int? {
    switch operation {
    case .state(let at, _), .reach(let at, _): return at
    case .equal, .run, .check, .verify, .states, .history, .search, .profile: return nil
    }
  }

  /// The same request with a session worker's `aheadLimit` replaced (a retry after the worker
  /// was lost ahead); other operations as they are.
  package func limitingAhead(to aheadLimit: Int?) -> WorkerRequest {
    var request = self
    switch operation {
    case .state(let at, _): request.operation = .state(at: at, aheadLimit: aheadLimit)
    case .reach(let at, _): request.operation = .reach(at: at, aheadLimit: aheadLimit)
    case .equal, .run, .check, .verify, .states, .history, .search, .profile: break
    }
    return request
  }
}
