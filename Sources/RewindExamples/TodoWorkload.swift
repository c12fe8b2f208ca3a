/// A deterministic stream of realistic todo actions — every case of ``TodoAction``, mostly adds,
/// toggles and renames, some unicode titles — for fixtures, tests and benchmarks.
///
/// The same seed gives the same actions on every machine (SplitMix64, no system randomness).
/// Every action it returns is valid for the state it is given: `move` positions are in range.
public struct TodoWorkload: Sendable {
  private var rng: UInt64

  /// Creates a workload; equal seeds give equal streams.
  public init(seed: UInt64) { rng = seed }

  private static let titles = [
    "Buy milk", "Call mum", "Write the report", "Fix the bike", "Book flights",
    "Réserver le restaurant", "Kaffee kaufen", "牛乳を買う", "Pay rent 💸", "Water the plants 🌱",
    "Read \"Dune\"", "Email Zoë", "Renew passport", "Back up the laptop", "Plan the trip ✈️",
  ]

  /// The next action for `state`.
  public mutating func next(for state: TodoState) -> TodoAction {
    let roll = nextInt(100)
    let ids = state.todos.map(\.id)
    if ids.isEmpty || roll < 30 {
      return .add(title: Self.titles[nextInt(Self.titles.count)] + suffix())
    }
    let id = ids[nextInt(ids.count)]
    switch roll {
    case 30..<55: return .toggle(id: id)
    case 55..<67: return .rename(id: id, title: Self.titles[nextInt(Self.titles.count)] + suffix())
    case 67..<77: return .remove(id: id)
    case 77..<87:
      return .move(from: nextInt(state.todos.count), to: nextInt(state.todos.count))
    case 87..<95: return .setFilter([Filter.all, .active, .completed][nextInt(3)])
    default: return .clearCompleted
    }
  }

  private mutating func suffix() -> String {
    nextInt(3) == 0 ? " #\(nextInt(1000))" : ""
  }

  private mutating func nextInt(_ bound: Int) -> Int {
    rng &+= 0x9E37_79B9_7F4A_7C15
    var z = rng
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    z ^= z >> 31
    return Int(z % UInt64(max(1, bound)))
  }
}
