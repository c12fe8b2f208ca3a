import Foundation
import Testing

@testable import RewindJSON

/// Rewind's coders against Foundation's `JSONEncoder` and `JSONDecoder` (default strategies), in
/// both directions, on seeded random values of many shapes.
@Suite struct FoundationDifferentialTests {
  static let seeds: [UInt64] = Array(1...300)

  static func snapshot(seed: UInt64) -> Snapshot {
    var generator = ValueGenerator(seed: seed)
    return generator.snapshot()
  }

  @Test func rewindEncodedValuesDecodeWithFoundation() throws {
    for seed in Self.seeds {
      let value = Self.snapshot(seed: seed)
      let bytes = try RewindJSONEncoder().encode(value)
      let decoded = try JSONDecoder().decode(Snapshot.self, from: Data(bytes))
      #expect(decoded == value, "seed \(seed)")
    }
  }

  @Test func foundationEncodedValuesDecodeWithRewind() throws {
    for seed in Self.seeds {
      let value = Self.snapshot(seed: seed)
      let bytes = try JSONEncoder().encode(value)
      let decoded = try RewindJSONDecoder().decode(Snapshot.self, from: bytes)
      #expect(decoded == value, "seed \(seed)")
    }
  }

  @Test func rewindEncodedValuesDecodeWithRewind() throws {
    for seed in Self.seeds {
      let value = Self.snapshot(seed: seed)
      let bytes = try RewindJSONEncoder().encode(value)
      #expect(try RewindJSONDecoder().decode(Snapshot.self, from: bytes) == value, "seed \(seed)")
    }
  }

  @Test func bothEncodersWriteTheSameJSONUpToFormattingAndMemberOrder() throws {
    for seed in Self.seeds {
      let value = Self.snapshot(seed: seed)
      let ours = try RewindJSONEncoder().encodeValue(value)
      let theirs = try JSONParser.parse(try JSONEncoder().encode(value))
      #expect(ours == theirs, "seed \(seed)")
    }
  }

  @Test func encodingIsDeterministicAndSortsDictionaries() throws {
    for seed in Self.seeds.prefix(100) {
      let value = Self.snapshot(seed: seed)
      let first = try RewindJSONEncoder().encode(value)
      // The same contents inserted in another order iterate in another order.
      var shuffled = value
      shuffled.byTitle = Dictionary(uniqueKeysWithValues: value.byTitle.reversed())
      shuffled.byNumber = Dictionary(uniqueKeysWithValues: value.byNumber.reversed())
      #expect(try RewindJSONEncoder().encode(shuffled) == first, "seed \(seed)")
      #expect(try RewindJSONEncoder().encode(value) == first, "seed \(seed)")

      let parsed = try JSONParser.parse(first)
      guard case .object(let byTitle)? = parsed["byTitle"],
        case .object(let byNumber)? = parsed["byNumber"]
      else {
        Issue.record("seed \(seed): dictionaries are not objects")
        continue
      }
      let titles = byTitle.map(\.key)
      #expect(titles == titles.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
      let numbers = byNumber.compactMap { Int($0.key) }
      #expect(numbers.count == byNumber.count && numbers == numbers.sorted())
    }
  }

  @Test(arguments: [0.0, -0.0, Double.leastNonzeroMagnitude * 2_024, -Double.leastNonzeroMagnitude])
  func signedZerosAndSubnormalsKeepTheirBits(_ number: Double) throws {
    let ours = try RewindJSONEncoder().encode([number])
    #expect(
      try JSONDecoder().decode([Double].self, from: Data(ours))[0].bitPattern == number.bitPattern)
    #expect(
      try RewindJSONDecoder().decode([Double].self, from: ours)[0].bitPattern == number.bitPattern)
    let theirs = try JSONEncoder().encode([number])
    #expect(
      try RewindJSONDecoder().decode([Double].self, from: theirs)[0].bitPattern == number.bitPattern
    )
  }

  @Test func nonFiniteNumbersFailInBothEncoders() {
    for number in [Double.nan, .infinity, -.infinity] {
      #expect(throws: EncodingError.self) { try RewindJSONEncoder().encode([number]) }
      #expect(throws: EncodingError.self) { try JSONEncoder().encode([number]) }
    }
  }

  @Test func integersThatFoundationAcceptsRewindAcceptsToo() throws {
    for text in ["1.0", "1e2", "1E2", "100e-2", "-0", "1.0e1", "-0.0", "12345678901234567890e-1"] {
      let foundation = try JSONDecoder().decode([Int].self, from: Data("[\(text)]".utf8))
      let rewind = try RewindJSONDecoder().decode([Int].self, from: Array("[\(text)]".utf8))
      #expect(rewind == foundation, "\(text)")
    }
    for text in ["1.5", "1e19", "9223372036854775808", "-9223372036854775809"] {
      #expect(throws: DecodingError.self) {
        try JSONDecoder().decode([Int].self, from: Data("[\(text)]".utf8))
      }
      #expect(throws: DecodingError.self) {
        try RewindJSONDecoder().decode([Int].self, from: Array("[\(text)]".utf8))
      }
    }
  }

  @Test func floatingPointRangeErrorsMatchFoundation() throws {
    let doubles = [
      "1e400", "-1e400", "1e-400", "2e-324", "3e-324", "1e-320", "1.7976931348623157e308",
    ]
    let floats = ["1e39", "3.4028236e38", "3.40282356e38", "1e-50", "1e-45", "0.1", "16777217"]
    for text in doubles {
      let data = Data("[\(text)]".utf8)
      let foundation = try? JSONDecoder().decode([Double].self, from: data)
      let rewind = try? RewindJSONDecoder().decode([Double].self, from: data)
      #expect(rewind == foundation, "\(text)")
    }
    for text in floats {
      let data = Data("[\(text)]".utf8)
      let foundation = try? JSONDecoder().decode([Float].self, from: data)
      let rewind = try? RewindJSONDecoder().decode([Float].self, from: data)
      #expect(rewind == foundation, "\(text)")
    }
  }
}
