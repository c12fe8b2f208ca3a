/// States kept between steps, within a budget: every `stride`-th position, thinned out (the
/// stride doubled) when the budget is reached, so memory stays bounded however long the log; and,
/// with a `window`, only the states near the last one kept.
struct StateCache<State> {
  private(set) var stride: Int
  private let capacity: Int
  /// How far from the last position kept another may be; `Int.max`: any distance.
  var window: Int {
    didSet { window = max(1, window) }
  }
  private var positions: [Int] = []
  private var states: [Int: State] = [:]

  /// - Parameters:
  ///   - stride: Keep the state of every `stride`-th position.
  ///   - capacity: The most states kept (at least 4); past it, every other one is dropped. 0
  ///     keeps none: for states too large for any to be kept.
  ///   - window: Drop the states more than this many positions from the one just kept (a log
  ///     with checkpoints: beyond a few checkpoint intervals, a checkpoint is as near a
  ///     starting point as a cached state); `Int.max` keeps states at any distance.
  init(stride: Int, capacity: Int, window: Int = Int.max) {
    self.stride = max(1, stride)
    self.capacity = capacity <= 0 ? 0 : max(4, capacity)
    self.window = max(1, window)
  }

  var count: Int { states.count }

  /// Whether `position` is one the cache keeps.
  @inline(__always)
  func wants(_ position: Int) -> Bool {
    capacity > 0 && position % stride == 0 && lacks(position)
  }

  /// Whether there is no state for `position`. Out of line: in generic code, the `State?` of a
  /// dictionary lookup costs a metadata lookup wherever it appears, even on paths not taken.
  @inline(never)
  private func lacks(_ position: Int) -> Bool { states[position] == nil }

  /// Keeps `state` for `position` (pinned positions survive thinning).
  mutating func insert(_ state: State, at position: Int) {
    guard capacity > 0, states[position] == nil else { return }
    states[position] = state
    let index = insertionIndex(position)
    positions.insert(position, at: index)
    if window < Int.max { dropOutsideWindow(around: position) }
    if states.count > capacity { thin() }
  }

  /// Drops the states more than ``window`` positions before or after `position`.
  private mutating func dropOutsideWindow(around position: Int) {
    let low = insertionIndex(position - window)
    let high = position > Int.max - window ? positions.count : insertionIndex(position + window + 1)
    guard low > 0 || high < positions.count else { return }
    for dropped in positions[high...] { states[dropped] = nil }
    for dropped in positions[..<low] { states[dropped] = nil }
    positions.removeSubrange(high...)
    positions.removeSubrange(..<low)
  }

  /// The cached position nearest at or before `position`, and its state.
  /// - Complexity: O(log n).
  func nearest(atOrBefore position: Int) -> (position: Int, state: State)? {
    let index = insertionIndex(position + 1)
    guard index > 0 else { return nil }
    let found = positions[index - 1]
    guard let state = states[found] else { return nil }
    return (found, state)
  }

  /// Drops every state after `position` (a skip changed them).
  mutating func removeAll(after position: Int) {
    let index = insertionIndex(position + 1)
    for dropped in positions[index...] { states[dropped] = nil }
    positions.removeSubrange(index...)
  }

  /// Drops states off the stride (checkpoints kept as starting points), then doubles the stride
  /// until the cache fits its capacity again.
  private mutating func thin() {
    dropPositionsOffStride()
    while states.count > capacity {
      stride *= 2
      dropPositionsOffStride()
    }
  }

  private mutating func dropPositionsOffStride() {
    let first = positions.first
    positions.removeAll { position in
      let drop = position % stride != 0 && position != first
      if drop { states[position] = nil }
      return drop
    }
  }

  private func insertionIndex(_ position: Int) -> Int {
    var low = 0
    var high = positions.count
    while low < high {
      let mid = (low + high) / 2
      if positions[mid] < position { low = mid + 1 } else { high = mid }
    }
    return low
  }
}
