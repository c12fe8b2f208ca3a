import Rewind
import RewindJSON

/// The result of re-running a log through today's reducer and comparing with its checkpoints.
public struct VerifyReport: Sendable {
  /// A checkpoint whose recorded state the reducer no longer reproduces.
  public struct Divergence: Sendable {
    /// The checkpoint's seq.
    public var seq: Int
    /// The line of the checkpoint in the log.
    public var line: Int
    /// The last position known to match (the previous matching checkpoint, or the header).
    public var lastMatching: Int
    /// The changes from the recorded state to the replayed one.
    public var changes: StateChanges
  }

  /// An action that no longer decodes.
  public struct UndecodableAction: Sendable, Codable {
    /// The action's seq.
    public var seq: Int
    /// What went wrong (line, type, coding path).
    public var error: ReplayError
  }

  /// The log's path.
  public var path: String
  /// How many checkpoints were compared (up to the first divergence).
  public var checkpointsCompared: Int
  /// The first checkpoint that differs, if any.
  public var divergence: Divergence?
  /// Actions that no longer decode with the app's `Action` type.
  public var undecodable: [UndecodableAction]
  /// Whether the log has checkpoints at all.
  public var hasCheckpoints: Bool

  /// Whether the reducer reproduces the log: every checkpoint matches and every action decodes.
  public var isReproduced: Bool { divergence == nil && undecodable.isEmpty }

  /// The report as text: what matched, where it first diverged, the state diff there, and the
  /// narrowest range of actions that contains the first difference.
  public var text: String {
    var lines: [String] = []
    forEachLine { lines.append($0) }
    return lines.joined(separator: "\n")
  }

  /// Calls `body` with each line of ``text``, in order, without building the whole text (a
  /// diff of a large state can run to millions of lines).
  public func forEachLine(_ body: (String) -> Void) {
    for item in undecodable.prefix(10) {
      body(
        "action \(item.seq) no longer decodes: \(item.error.location.map { "\($0): " } ?? "")\(item.error.message)"
      )
    }
    if undecodable.count > 10 {
      body("… and \(undecodable.count - 10) more undecodable actions")
    }
    if let divergence {
      body(
        "\(path): checkpoint at seq \(divergence.seq) (line \(divergence.line)) differs from the "
          + "state the current reducer computes")
      let first = divergence.lastMatching + 1
      body(
        "the first difference comes from actions \(first)…\(divergence.seq) (the state matched at "
          + "position \(divergence.lastMatching))")
      body("recorded → replayed:")
      divergence.changes.forEachChange { change in body("  \(change)") }
    } else if !hasCheckpoints {
      body("\(path): the log has no checkpoints, so only decoding was checked")
    } else if undecodable.isEmpty {
      body(
        checkpointsCompared == 1
          ? "\(path): the checkpoint was reproduced"
          : "\(path): all \(checkpointsCompared) checkpoints reproduced")
    }
  }
}

/// What the walk of ``Verifier`` found, before any diff is made: small enough to come back whole
/// from a replay worker process, which walks the log in one request.
public struct VerifyWalk: Sendable, Codable {
  /// How many checkpoints were compared (up to the first that differs).
  public var checkpointsCompared = 0
  /// The first checkpoint that differs, and the last position known to match before it.
  public var divergence: Divergence?
  /// Actions that no longer decode with the app's `Action` type.
  public var undecodable: [VerifyReport.UndecodableAction] = []

  /// Where the reducer first parted from the log's checkpoints.
  public struct Divergence: Sendable, Codable, Equatable {
    /// The checkpoint's seq.
    public var seq: Int
    /// The previous matching checkpoint, or the first position.
    public var lastMatching: Int
  }

  /// Nothing found yet.
  public init() {}
}

/// Re-runs a log through the current reducer and compares with every recorded checkpoint.
public enum Verifier {
  /// Verifies `log` with `app`'s reducer.
  ///
  /// Every state comes from the reducer (checkpoints are compared, never used as starting
  /// points). Stops at the first checkpoint that differs. The walk runs whole where the
  /// timeline's reducer runs (``ReplayTimeline/verifyWalk()``: in a replay worker process, one
  /// request); only a divergence's diff is made here, from the one state it needs.
  /// - Throws: `ReplayError` when the log cannot be replayed at all (for example its header
  ///   state does not decode).
  /// - Complexity: One forward pass over the log, plus decoding every checkpoint.
  public static func verify(_ timeline: any ReplayTimeline) throws(ReplayError) -> VerifyReport {
    let log = timeline.log
    let walk = try timeline.verifyWalk()
    var report = VerifyReport(
      path: log.path, checkpointsCompared: walk.checkpointsCompared, divergence: nil,
      undecodable: walk.undecodable,
      hasCheckpoints: !log.checkpointSeqs.isEmpty)
    guard let divergence = walk.divergence,
      let changes = try changes(at: divergence.seq, of: timeline)
    else { return report }
    report.divergence = .init(
      seq: divergence.seq, line: log.checkpointLine(at: divergence.seq) ?? 0,
      lastMatching: divergence.lastMatching, changes: changes)
    return report
  }

  /// Walks `timeline`'s log in this process: decodes every action, then rebuilds the state at
  /// each checkpoint with the reducer and compares, stopping at the first that differs.
  /// ``ReplayTimeline/verifyWalk()`` of a timeline in this process.
  public static func walk(_ timeline: any ReplayTimeline) throws(ReplayError) -> VerifyWalk {
    let log = timeline.log
    var walk = VerifyWalk()
    if log.actionCount > 0 {
      for seq in log.firstSeq...log.lastSeq {
        do { try timeline.checkActions(seq...seq) } catch {
          // An action that no longer decodes is a finding; a damaged line is trouble.
          guard case .actionDecodingFailed = error else { throw error }
          walk.undecodable.append(.init(seq: seq, error: error))
        }
      }
    }
    guard walk.undecodable.isEmpty else { return walk }
    var lastMatching = log.positions.lowerBound
    for seq in log.checkpointSeqs {
      if log.checkpointStateSource(at: seq) == nil, try log.checkpointState(at: seq) == nil {
        continue
      }
      walk.checkpointsCompared += 1
      if try changes(at: seq, of: timeline) != nil {
        walk.divergence = .init(seq: seq, lastMatching: lastMatching)
        return walk
      }
      lastMatching = seq
    }
    return walk
  }

  /// The changes from the checkpoint at `seq` as recorded to the state the reducer rebuilds
  /// there, or `nil` when they are equal.
  private static func changes(
    at seq: Int, of timeline: any ReplayTimeline
  ) throws(ReplayError) -> StateChanges? {
    let log = timeline.log
    // The recorder writes a state as the encoder writes it: the same bytes are the same state,
    // found without building either as a tree (a large state's tree costs many times its
    // text). Any other difference — a hand-written checkpoint's spacing or member order, or a
    // real divergence — is compared value by value.
    if let recorded = log.checkpointStateSource(at: seq) {
      // From the two texts, neither built as a tree; the recorded one in the log's bytes.
      return try StateChanges(
        from: recorded, to: StateText(try timeline.stateJSONText(at: seq)),
        what: "checkpoint at seq \(seq)")
    }
    // Migrated (or unreadable as text): the recorded state as the migration left it.
    guard let recorded = try log.checkpointState(at: seq) else { return nil }
    return StateChanges(JSONDiff.diff(recorded, try timeline.stateJSON(at: seq)))
  }
}
