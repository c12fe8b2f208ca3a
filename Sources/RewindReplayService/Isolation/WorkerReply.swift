import RewindJSON
import RewindReplay

/// One reply of the crash-isolation worker (``WorkerMode``) to a ``WorkerRequest``, as one line of
/// JSON: its `Codable` form, except a state, whose text is sent as the encoder wrote it,
/// `{"state":TEXT}`, and a batch of states, `{"states":[TEXT,…]}`: never built as a tree on
/// either side.
///
/// A failure carries the typed ``ReplayError`` across the process boundary: the parent throws
/// what the worker threw.
package enum WorkerReply: Codable, Sendable {
  /// How far a long rebuild has got (before the reply it precedes).
  case progress(done: Int, total: Int)
  /// `reach` and `check` succeeded.
  case done
  /// Whether the two states of `equal` are equal.
  case equal(Bool)
  /// What the walk of `verify` found.
  case verified(VerifyWalk)
  /// The changes `history` found.
  case history(ValueHistory)
  /// The position `search` found, or none.
  case found(position: Int?)
  /// What `profile` measured.
  case profiled(ActionProfile)
  /// The request failed with this error (the reducer did not trap: that ends the worker).
  case failed(ReplayError)

  /// The reply as one line of JSON, with its line feed.
  package var line: [UInt8] {
    var bytes: [UInt8]
    do { bytes = try RewindJSONEncoder().encode(self) } catch {
      // A reply that cannot be encoded (never expected) still answers, saying so.
      bytes =
        (try? RewindJSONEncoder().encode(
          WorkerReply.failed(.encodingFailed(what: "worker reply", reason: "\(error)")))) ?? []
    }
    bytes.append(UInt8(ascii: "\n"))
    return bytes
  }

  /// The reply in `line` (without its line feed), or `nil` when it is a state's
  /// (``stateText(in:)``).
  /// - Throws: ``ReplayError/encodingFailed(what:reason:)`` when the line is not a reply.
  package init(line: ArraySlice<UInt8>) throws(ReplayError) {
    // The reply of a session's every goto, read without the generic decoder (see
    // ``WorkerRequest/line``).
    if line.elementsEqual(Self.doneLine) {
      self = .done
      return
    }
    do {
      self = try line.withUnsafeBytes {
        try RewindJSONDecoder().decode(WorkerReply.self, from: $0, limits: .unlimited)
      }
    } catch {
      throw .encodingFailed(what: "worker reply", reason: "\(error)")
    }
  }

  /// ``done``'s line, without its line feed.
  private static let doneLine = Array(#"{"done":{}}"#.utf8)

  /// What a state reply starts with.
  package static let statePrefix = Array(#"{"state":"#.utf8)
  /// What a progress line starts with (``progress(done:total:)``'s `Codable` form).
  package static let progressPrefix = Array(#"{"progress":"#.utf8)

  /// The reply line to a `state` or `run` request: `{"state":TEXT}` with the state's `text` as it
  /// was encoded, and a line feed.
  package static func stateLine(_ text: [UInt8]) -> [UInt8] {
    var line = statePrefix
    line.reserveCapacity(line.count + text.count + 2)
    line += text
    line += Array("}\n".utf8)
    return line
  }

  /// What a batch of states' reply starts with.
  package static let statesPrefix = Array(#"{"lengths":["#.utf8)
  private static let statesMiddle = Array(#"],"states":["#.utf8)
  private static let statesEnd = Array("]}".utf8)

  /// The reply line to a `states` request, `{"lengths":[N,…],"states":[TEXT,…]}`: each state's
  /// text as it was encoded, its length in bytes first (the parent cuts the texts apart without
  /// scanning them), and a line feed.
  package static func statesLine(_ texts: [[UInt8]]) -> [UInt8] {
    var line = statesPrefix
    line.reserveCapacity(texts.reduce(64 + texts.count * 8) { $0 + $1.count + 1 })
    line += texts.map { String($0.count) }.joined(separator: ",").utf8
    line += statesMiddle
    for (index, text) in texts.enumerated() {
      if index > 0 { line.append(UInt8(ascii: ",")) }
      line += text
    }
    line += statesEnd
    line.append(UInt8(ascii: "\n"))
    return line
  }

  /// The states' texts in a reply `line` to `states`, cut apart by their lengths: every length
  /// within the line, the texts one after the other with a comma between, and nothing after the
  /// last. Each text is not read again here: the worker checked it as one JSON value
  /// (``ReplayTimeline/stateJSONTexts(from:through:maxBytes:)``) while `replay` used the batch
  /// before, and a worker that dies while writing the reply leaves no line. A typed failure
  /// there is thrown.
  /// - Throws: The worker's ``ReplayError``; `.encodingFailed` saying where the line is not a
  ///   reply.
  package static func stateTexts(in line: ArraySlice<UInt8>) throws(ReplayError) -> [[UInt8]] {
    guard line.starts(with: statesPrefix) else {
      switch try WorkerReply(line: line) {
      case .failed(let error): throw error
      default: throw .encodingFailed(what: "worker reply", reason: "it holds no states")
      }
    }
    func malformed(_ offset: Int, _ what: String) -> ReplayError {
      .encodingFailed(
        what: "worker reply",
        reason: "byte \(offset - line.startIndex) of a batch of states: \(what)")
    }
    // The lengths: digits and commas up to the `]`.
    var lengths: [Int] = []
    var index = line.startIndex + statesPrefix.count
    var number = 0
    var digits = 0
    while index < line.endIndex, line[index] != UInt8(ascii: "]") {
      let byte = line[index]
      if byte == UInt8(ascii: ",") {
        guard digits > 0 else { throw malformed(index, "a length is missing") }
        lengths.append(number)
        (number, digits) = (0, 0)
      } else if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte), digits < 12 {
        number = number * 10 + Int(byte - UInt8(ascii: "0"))
        digits += 1
      } else {
        throw malformed(index, "a length is not a number")
      }
      index += 1
    }
    guard digits > 0 else { throw malformed(index, "no lengths") }
    lengths.append(number)
    guard line[index...].starts(with: statesMiddle) else { throw malformed(index, "no states") }
    index += statesMiddle.count
    var texts: [[UInt8]] = []
    texts.reserveCapacity(lengths.count)
    for (number, length) in lengths.enumerated() {
      if number > 0 {
        guard index < line.endIndex, line[index] == UInt8(ascii: ",") else {
          throw malformed(index, "state \(number) does not follow a comma")
        }
        index += 1
      }
      guard length > 0 else { throw malformed(index, "state \(number) is empty") }
      guard length <= line.endIndex - index else {
        throw malformed(index, "state \(number) is cut off")
      }
      texts.append(Array(line[index..<(index + length)]))
      index += length
    }
    guard line[index...].elementsEqual(statesEnd) else {
      throw malformed(index, "it does not end after its last state")
    }
    return texts
  }

  /// The state's text in a reply `line` to `state` or `run` (checked as JSON, never built as a
  /// tree); a typed failure there is thrown.
  /// - Throws: The worker's ``ReplayError``; `.encodingFailed` when the line is neither.
  package static func stateText(in line: ArraySlice<UInt8>) throws(ReplayError) -> [UInt8] {
    guard line.starts(with: statePrefix) else {
      switch try WorkerReply(line: line) {
      case .failed(let error): throw error
      default:
        throw .encodingFailed(what: "worker reply", reason: "it holds no state")
      }
    }
    let (error, state) = line.withUnsafeBytes { bytes -> (JSONParseError?, [UInt8]?) in
      if let error = JSONParser.firstError(in: bytes, limits: .unlimited) { return (error, nil) }
      var state: Range<Int>?
      JSONScan.forEachMember(ofObjectIn: bytes) { key, value in
        if key == "state" { state = value }
      }
      return (nil, state.map { Array(bytes[$0]) })
    }
    if let error { throw .encodingFailed(what: "worker reply", reason: error.description) }
    guard let state else {
      throw .encodingFailed(what: "worker reply", reason: "it holds no state")
    }
    return state
  }
}
