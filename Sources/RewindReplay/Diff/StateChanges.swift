import RewindJSON

/// The changes from one state to another (``JSONDiff/diff(oldText:newText:limits:)``'s), kept as
/// the two states' texts and found again from them each time they are read
/// (``forEachChange(_:)``): the changes of two large states that differ throughout, such as a
/// list replaced whole, are never all held at once, only the texts they come from.
public struct StateChanges: Sendable {
  private enum Storage: Sendable {
    case texts(old: StateText, new: StateText)
    case found([JSONChange])
  }

  private let storage: Storage

  /// The changes from the state written `old` to the one written `new`, or `nil` when the two
  /// are equal (the same bytes, or the same value written otherwise).
  ///
  /// Up to ``heldChanges`` changes are found once and kept; the texts are kept instead only
  /// when there are more.
  ///
  /// - Parameter what: Names the two states in the error.
  /// - Throws: `.encodingFailed` when a text is not one JSON value.
  package init?(from old: StateText, to new: StateText, what: String) throws(ReplayError) {
    // nil: more than can be held.
    let found = try old.withUnsafeBytes { (oldBytes) throws(ReplayError) -> [JSONChange]? in
      try new.withUnsafeBytes { (newBytes) throws(ReplayError) -> [JSONChange]? in
        if oldBytes.elementsEqual(newBytes) { return [] }
        for (name, text) in [("oldText", oldBytes), ("newText", newBytes)] {
          if let error = JSONParser.firstError(in: text, limits: .unlimited) {
            throw .encodingFailed(
              what: what, reason: "\(JSONTextDiffError(source: name, error: error))")
          }
        }
        var changes: [JSONChange] = []
        var isWhole = true
        JSONDiff.forEachChange(checkedOldBytes: oldBytes, checkedNewBytes: newBytes) { change in
          guard changes.count < Self.heldChanges else {
            isWhole = false
            return false
          }
          changes.append(change)
          return true
        }
        return isWhole ? changes : nil
      }
    }
    switch found {
    case .none: storage = .texts(old: old, new: new)
    case .some(let changes) where changes.isEmpty: return nil
    case .some(let changes): storage = .found(changes)
    }
  }

  /// The most changes kept as they are: a diff with more is found again from the texts each time
  /// it is read.
  static let heldChanges = 1_000

  /// `changes`, found some other way (from trees), or `nil` when there are none.
  package init?(_ changes: [JSONChange]?) {
    guard let changes, !changes.isEmpty else { return nil }
    storage = .found(changes)
  }

  /// Calls `body` with each change, in order (``JSONDiff/diff(_:_:)``'s), as it is found.
  /// - Complexity: A diff of the two texts each time.
  public func forEachChange(_ body: (JSONChange) -> Void) {
    switch storage {
    case .found(let changes):
      changes.forEach(body)
    case .texts(let old, let new):
      old.withUnsafeBytes { old in
        new.withUnsafeBytes { new in
          JSONDiff.forEachChange(checkedOldBytes: old, checkedNewBytes: new) { change in
            body(change)
            return true
          }
        }
      }
    }
  }

  /// Every change, in order, held at once (at least one).
  public var all: [JSONChange] {
    var changes: [JSONChange] = []
    forEachChange { changes.append($0) }
    return changes
  }
}
