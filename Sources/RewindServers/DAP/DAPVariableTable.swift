import RewindJSON
import RewindReplay

/// The containers a client may expand, by `variablesReference`: the ids a stop hands out (its
/// scopes and the containers inside them), forgotten at the next stop (``reset()``), as the
/// protocol allows.
package struct DAPVariableTable: Sendable {
  /// What a reference stands for.
  package enum Container: Sendable, Equatable {
    /// The value at `path` in the state at `position`, read a level at a time.
    case state(position: Int, path: JSONPath)
    /// A value held whole (the action and its parts, a change of a diff): small.
    case value(JSONValue)
    /// What the action at `position` changed.
    case diff(position: Int)
  }

  /// The containers; reference `n` is `containers[n - 1]`.
  private var containers: [Container] = []

  /// An empty table.
  package init() {}

  /// Forgets every reference.
  package mutating func reset() { containers.removeAll(keepingCapacity: true) }

  /// The most references one stop hands out: past them, a container is shown without
  /// children (a client that expands a million containers without stepping holds no more).
  package static let maxReferences = 1 << 20

  /// The reference of `container` (a new one each time), or 0 (not expandable) when the stop
  /// has handed out ``maxReferences`` already.
  package mutating func reference(to container: Container) -> Int {
    guard containers.count < Self.maxReferences else { return 0 }
    containers.append(container)
    return containers.count
  }

  /// The container of `reference`, or `nil` for a reference of an earlier stop or none.
  package func container(_ reference: Int) -> Container? {
    guard reference >= 1, reference <= containers.count else { return nil }
    return containers[reference - 1]
  }
}
