import RewindJSON

extension JSONPatch {
  /// Creates the patch that turns `old` into `new`: the patch of ``JSONDiff/diff(_:_:)``.
  ///
  /// ```swift
  /// let patch = JSONPatch(from: old, to: new)
  /// try patch.apply(to: old) == new  // true
  /// ```
  /// - Complexity: That of ``JSONDiff/diff(_:_:)``, plus O(*c* log *c*) for *c* changes.
  public init(from old: JSONValue, to new: JSONValue) {
    self.init(changes: JSONDiff.diff(old, new))
  }

  /// Creates the patch that makes `changes`, as returned by ``JSONDiff/diff(_:_:)`` for an old
  /// and a new value: applied to the old value, it gives the new one.
  ///
  /// `.removed` becomes `remove`, `.added` becomes `add` and `.changed` becomes `replace`. The
  /// operations are ordered so that every array index is right when its operation runs: in
  /// each array, removals from the highest old index down, then additions from the lowest new
  /// index up, then the changes inside kept elements (whose paths use new indices). That relies
  /// on the indexing rule described on ``JSONChange``; changes from elsewhere must follow it.
  ///
  /// - Parameter changes: The changes, or `nil` for none (an empty patch).
  /// - Complexity: O(*c* log *c* + *p*) for *c* changes whose paths have *p* components in all.
  public init(changes: [JSONChange]?) {
    var plan = PatchPlan()
    for change in changes ?? [] {
      plan.insert(change)
    }
    self.init(plan.operations())
  }

  /// Creates the patch that makes `changes`, found one at a time (``StateChanges/forEachChange(_:)``):
  /// what a removal took away is never held, only where it was.
  public init(changes: StateChanges) {
    var plan = PatchPlan()
    changes.forEachChange { plan.insert($0) }
    self.init(plan.operations())
  }
}

/// The changes arranged as a tree of the containers they touch, so that each container's
/// operations can be put in an order that keeps array indices valid.
private struct PatchPlan {
  /// The operations on one container (an object or array at some path).
  struct Node {
    var children: [JSONPath.Component: Int] = [:]
    var removals: [JSONPath.Component] = []
    var additions: [(component: JSONPath.Component, value: JSONValue)] = []
    /// Replacements of members or elements, and the nodes of containers inside this one, in the
    /// order the changes named them.
    var replacementsAndChildren: [Entry] = []
  }

  enum Entry {
    case replacement(JSONPath.Component, JSONValue)
    case child(JSONPath.Component, node: Int)
  }

  /// Operations on the whole document (changes with an empty path).
  private var rootOperations: [JSONPatchOperation] = []
  private var nodes = [Node()]

  mutating func insert(_ change: JSONChange) {
    let components = change.path.components
    guard let last = components.last else {
      switch change {
      case .added(_, let value): rootOperations.append(.add(path: .root, value: value))
      case .removed: rootOperations.append(.remove(path: .root))
      case .changed(_, _, let new): rootOperations.append(.replace(path: .root, value: new))
      }
      return
    }
    var node = 0
    for component in components.dropLast() {
      if let child = nodes[node].children[component] {
        node = child
      } else {
        let child = nodes.count
        nodes.append(Node())
        nodes[node].children[component] = child
        nodes[node].replacementsAndChildren.append(.child(component, node: child))
        node = child
      }
    }
    switch change {
    case .removed: nodes[node].removals.append(last)
    case .added(_, let value): nodes[node].additions.append((last, value))
    case .changed(_, _, let new):
      nodes[node].replacementsAndChildren.append(.replacement(last, new))
    }
  }

  func operations() -> [JSONPatchOperation] {
    var operations = rootOperations
    appendOperations(ofNode: 0, at: .root, to: &operations)
    return operations
  }

  private func appendOperations(
    ofNode index: Int, at pointer: JSONPointer, to operations: inout [JSONPatchOperation]
  ) {
    let node = nodes[index]
    for component in inOrder(node.removals, indicesDescending: true) {
      operations.append(.remove(path: pointer.appending(component.token)))
    }
    let additionOrder = inOrder(node.additions.map(\.component), indicesDescending: false)
    let additions = Dictionary(
      node.additions.map { ($0.component, $0.value) }, uniquingKeysWith: { first, _ in first })
    for component in additionOrder {
      if let value = additions[component] {
        operations.append(.add(path: pointer.appending(component.token), value: value))
      }
    }
    for entry in node.replacementsAndChildren {
      switch entry {
      case .replacement(let component, let value):
        operations.append(.replace(path: pointer.appending(component.token), value: value))
      case .child(let component, let child):
        appendOperations(ofNode: child, at: pointer.appending(component.token), to: &operations)
      }
    }
  }

  /// Array indices sorted (descending or ascending) followed by object keys in their given
  /// order; a component given twice appears once.
  private func inOrder(
    _ components: [JSONPath.Component], indicesDescending: Bool
  ) -> [JSONPath.Component] {
    var seen = Set<JSONPath.Component>()
    var indices: [Int] = []
    var keys: [JSONPath.Component] = []
    for component in components where seen.insert(component).inserted {
      switch component {
      case .index(let index): indices.append(index)
      case .key, .matching: keys.append(component)
      }
    }
    indices.sort(by: indicesDescending ? (>) : (<))
    return indices.map(JSONPath.Component.index) + keys
  }
}
