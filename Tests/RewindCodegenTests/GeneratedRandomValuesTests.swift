import Foundation
import Rewind
@_spi(Testing) import RewindJSON
import RewindTestSupport
import Testing

@testable import CodegenSamples

/// The generated path against Codable on seeded random values that lean towards the edges.
@Suite struct GeneratedRandomValuesTests {
  struct Values {
    var random: SplitMix64

    mutating func int<T: FixedWidthInteger>(_: T.Type = T.self) -> T {
      switch random.next() % 4 {
      case 0: T.min
      case 1: T.max
      case 2: T(truncatingIfNeeded: random.next() % 3)
      default: T(truncatingIfNeeded: random.next())
      }
    }

    mutating func double() -> Double {
      [0, -0.0, 1e-300, 1.7976931348623157e308, 0.1, -2.5, Double(int(Int32.self)) / 7][
        Int(random.next() % 7)]
    }

    mutating func string() -> String {
      ["", "plain", "tab\t\"quote\"\\", "é🎉", "\u{0}\u{1F}\u{7F}", "\u{2028}", "e\u{301}"][
        Int(random.next() % 7)]
    }

    mutating func bool() -> Bool { random.next() % 2 == 0 }

    mutating func count() -> Int { Int(random.next() % 4) }

    mutating func todo() -> SampleTodo {
      SampleTodo(id: int(), title: string(), done: bool())
    }

    mutating func action() -> SampleTodoAction {
      switch random.next() % 7 {
      case 0: .add(title: string())
      case 1: .toggle(id: int())
      case 2: .rename(id: int(), title: string())
      case 3: .remove(id: int())
      case 4: .move(from: int(), to: int())
      case 5: .setFilter([.all, .active, .completed][Int(random.next() % 3)])
      default: .clearCompleted
      }
    }

    mutating func shape(depth: Int = 0) -> SampleShape {
      switch random.next() % (depth > 2 ? 5 : 7) {
      case 0: .point
      case 1: .circle(double())
      case 2: .rect(width: double(), height: double())
      case 3: .labeled(string(), count: int(), bool() ? nil : string())
      case 4: .default
      case 5: .group((0..<count()).map { _ in shape(depth: depth + 1) })
      default: .framed(shape(depth: depth + 1), margin: bool() ? nil : int())
      }
    }

    mutating func snapshot() -> SampleSnapshot {
      SampleSnapshot(
        todos: (0..<count()).map { _ in todo() },
        byTitle: Dictionary((0..<count()).map { _ in (string(), int()) }) { a, _ in a },
        byNumber: Dictionary((0..<count()).map { _ in (int(), string()) }) { a, _ in a },
        byColor: Dictionary((0..<count()).map { _ in (SampleColor.allCases[count() % 3], bool()) })
        { a, _ in a },
        colors: Set((0..<count()).map { _ in SampleColor.allCases[count() % 3] }),
        widths: SampleWidths(
          int: int(), int8: int(), int16: int(), int32: int(), int64: int(), uint: int(),
          uint8: int(), uint16: int(), uint32: int(), uint64: int()),
        foundations: SampleFoundations(
          date: Date(timeIntervalSinceReferenceDate: double()),
          data: Data((0..<count()).map { _ in UInt8(truncatingIfNeeded: random.next()) }),
          url: URL(string: "https://example.com/\(count())?q=\(count())")
            ?? URL(fileURLWithPath: "/"),
          decimal: Decimal(int(Int32.self)) / 100, uuid: UUID()),
        ratio: double(),
        small: [0, -1.5, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 0.1][
          count()],
        grid: (0..<count()).map { _ in (0..<count()).map { _ in bool() ? nil : int() } },
        maybe: bool() ? nil : .some(int()),  // .some(nil) is read back as nil, by Codable too
        shapes: (0..<count()).map { _ in shape() },
        actions: bool() ? nil : (0..<count()).map { _ in action() },
        text: string())
    }
  }

  @Test func threeThousandRandomValuesReadAndWriteAsCodableDoes() throws {
    var values = Values(random: SplitMix64(seed: 19))
    try JSONDirectCoding.verify((0..<1_000).map { _ in values.action() })
    try JSONDirectCoding.verify((0..<1_000).map { _ in values.shape() })
    try JSONDirectCoding.verify((0..<1_000).map { _ in values.snapshot() })
  }
}
