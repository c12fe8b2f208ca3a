/// A tiny seeded pseudo-random generator (SplitMix64): the same seed gives the same numbers on
/// every machine, so a failing randomised test can be rerun exactly. The one generator of every
/// test target.
public struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64

  /// Creates a generator; equal seeds give equal streams.
  public init(seed: UInt64) { state = seed }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in `range`, without the bias of a plain modulo (the standard library's algorithm).
  public mutating func int(in range: ClosedRange<Int>) -> Int {
    Int.random(in: range, using: &self)
  }

  /// `count` bytes of the stream of `seed`: each number's eight bytes in memory order.
  public static func bytes(count: Int, seed: UInt64) -> [UInt8] {
    var generator = SplitMix64(seed: seed)
    var bytes: [UInt8] = []
    bytes.reserveCapacity(count)
    while bytes.count < count {
      withUnsafeBytes(of: generator.next()) { bytes += $0.prefix(count - bytes.count) }
    }
    return bytes
  }
}
