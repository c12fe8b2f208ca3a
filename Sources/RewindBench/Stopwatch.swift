import Rewind

/// Times code on the monotonic clock.
enum Stopwatch {
  /// Seconds taken by `body`.
  static func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = Platform.monotonicNanoseconds()
    try body()
    return Double(Platform.monotonicNanoseconds() - start) / 1e9
  }

  /// Seconds taken by `body`, and what it returned.
  static func timed<T>(_ body: () throws -> T) rethrows -> (seconds: Double, value: T) {
    let start = Platform.monotonicNanoseconds()
    let value = try body()
    return (Double(Platform.monotonicNanoseconds() - start) / 1e9, value)
  }
}

/// The repetitions of one figure: their median, minimum and maximum.
struct Sample: Sendable {
  var values: [Double]

  init(_ values: [Double]) {
    precondition(!values.isEmpty, "a sample needs at least one value")
    self.values = values
  }

  var median: Double {
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }

  var min: Double { values.min() ?? .nan }
  var max: Double { values.max() ?? .nan }

  /// The same sample with every value scaled.
  func scaled(by factor: Double) -> Sample { Sample(values.map { $0 * factor }) }

  /// Paired ratios, repetition by repetition (`self[i] / other[i]`); repetitions are interleaved,
  /// so each pair saw the same machine load.
  func ratios(to other: Sample) -> Sample {
    Sample(zip(values, other.values).map { $0 / $1 })
  }
}

/// Runs `repetitions` rounds; each round runs every measurement once, in order, so a subject and
/// its baseline alternate and share whatever else the machine is doing.
func interleaved(
  _ repetitions: Int, _ measurements: [() throws -> Double]
) throws -> [Sample] {
  var values = Array(repeating: [Double](), count: measurements.count)
  for _ in 0..<repetitions {
    for (index, measure) in measurements.enumerated() {
      values[index].append(try measure())
    }
  }
  return values.map(Sample.init)
}

/// Takes a value and does nothing with it, opaquely to the optimiser: what a measured loop
/// computes is then not thrown away as unused.
@inline(never) @_optimize(none)
func blackHole<T>(_ value: T) {}
