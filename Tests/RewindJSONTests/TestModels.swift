import Foundation
import RewindTestSupport

/// Types shaped like Rewind's actions and states, used by the coder tests.
struct Todo: Codable, Equatable, Hashable {
  var id: UUID
  var title: String
  var isDone: Bool
  var due: Date?
  var note: String?
  var tags: [String]
  var priority: Int8
}

indirect enum TodoAction: Codable, Equatable {
  case add(title: String)
  case toggle(id: UUID)
  case rename(id: UUID, title: String)
  case setNote(String?)
  case move(from: Int, to: Int)
  case clear
  case batch([TodoAction])
}

struct IntegerWidths: Codable, Equatable {
  var int: Int
  var int8: Int8
  var int16: Int16
  var int32: Int32
  var int64: Int64
  var uint: UInt
  var uint8: UInt8
  var uint16: UInt16
  var uint32: UInt32
  var uint64: UInt64
}

struct Foundations: Codable, Equatable {
  var date: Date
  var data: Data
  var url: URL
  var decimal: Decimal
  var uuid: UUID
}

struct Empty: Codable, Equatable {}

enum Color: String, Codable, CodingKeyRepresentable, Hashable {
  case red, green, blue
}

/// A state snapshot with a bit of everything.
struct Snapshot: Codable, Equatable {
  var todos: [Todo]
  var byTitle: [String: Int]
  var byNumber: [Int: String]
  var byColor: [Color: Bool]
  var widths: IntegerWidths
  var foundations: Foundations
  var ratio: Double
  var small: Float
  var grid: [[Int?]]
  var optionalEmpty: Empty?
  var empty: Empty
  var history: [TodoAction]
  var emptyList: [String]
  var emptyMap: [String: String]
  var text: String
}

/// Makes random values of the test types, leaning towards edge cases.
struct ValueGenerator {
  var random: SplitMix64

  init(seed: UInt64) {
    random = SplitMix64(seed: seed)
  }

  static let stringPieces = [
    "", "a", "Buy milk", "é", "e\u{301}", "日本語", "😀", "👩‍👩‍👧", "\"", "\\", "/", "\n", "\t", "\r",
    "\u{0}", "\u{1}", "\u{1F}", "\u{7F}", "\u{2028}", "\u{2029}", "\u{FEFF}", "\u{10FFFF}",
    "<script>", "{\"a\":1}", "  ", "null", "1e5", "🇫🇷",
  ]

  static let doubles: [Double] = [
    0, -0.0, 1, -1, 0.1, 0.2, 1.0 / 3, .pi, 1e300, -1e300, 1e-7, 5e20, 1e16, 123_456.789,
    .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNonzeroMagnitude,
    -.leastNonzeroMagnitude, .leastNormalMagnitude, 0x1p53 + 2, 0.000_1, 1e-5,
  ]

  static let floats: [Float] = [
    0, -0.0, 1, 0.1, 1e-7, .greatestFiniteMagnitude, .leastNonzeroMagnitude, 16_777_216, 3.4e38,
  ]

  static let urls = [
    "https://example.com", "https://example.com/a/b?c=1&d=%20e#f", "file:///tmp/x%20y.json",
    "mailto:someone@example.com", "http://[::1]:8080/", "urn:isbn:0451450523",
  ]

  mutating func int(in range: ClosedRange<Int>) -> Int {
    Int.random(in: range, using: &random)
  }

  mutating func chance(_ percent: Int) -> Bool {
    int(in: 0...99) < percent
  }

  mutating func string() -> String {
    (0..<int(in: 0...4)).map { _ in Self.stringPieces[int(in: 0...Self.stringPieces.count - 1)] }
      .joined()
  }

  mutating func integer<T: FixedWidthInteger>(_ type: T.Type) -> T {
    switch int(in: 0...5) {
    case 0: return .min
    case 1: return .max
    case 2: return 0
    default: return T(truncatingIfNeeded: random.next())
    }
  }

  mutating func double() -> Double {
    if chance(60) {
      return Self.doubles[int(in: 0...Self.doubles.count - 1)]
    }
    while true {
      let value = Double(bitPattern: random.next())
      if value.isFinite { return value }
    }
  }

  mutating func float() -> Float {
    if chance(60) {
      return Self.floats[int(in: 0...Self.floats.count - 1)]
    }
    while true {
      let value = Float(bitPattern: UInt32(truncatingIfNeeded: random.next()))
      if value.isFinite { return value }
    }
  }

  mutating func decimal() -> Decimal {
    let digits = String(random.next() % 1_000_000_000_000_000_000)
    let exponent = int(in: -20...20)
    let sign = chance(50) ? "-" : ""
    return Decimal(string: "\(sign)\(digits)e\(exponent)") ?? 0
  }

  mutating func uuid() -> UUID {
    let a = random.next()
    let b = random.next()
    return withUnsafeBytes(of: (a, b)) { bytes in
      UUID(
        uuid: (
          bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
          bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
        ))
    }
  }

  mutating func foundations() -> Foundations {
    Foundations(
      date: Date(
        timeIntervalSinceReferenceDate: chance(50) ? double() : Double(int(in: 0...1 << 30))),
      data: Data((0..<int(in: 0...20)).map { _ in UInt8.random(in: 0...255, using: &random) }),
      url: URL(string: Self.urls[int(in: 0...Self.urls.count - 1)]) ?? URL(fileURLWithPath: "/"),
      decimal: decimal(),
      uuid: uuid())
  }

  mutating func todo() -> Todo {
    Todo(
      id: uuid(), title: string(), isDone: chance(50),
      due: chance(50) ? Date(timeIntervalSinceReferenceDate: double()) : nil,
      note: chance(50) ? string() : nil,
      tags: (0..<int(in: 0...3)).map { _ in string() },
      priority: integer(Int8.self))
  }

  mutating func action(depth: Int = 0) -> TodoAction {
    switch int(in: 0...(depth < 2 ? 6 : 5)) {
    case 0: return .add(title: string())
    case 1: return .toggle(id: uuid())
    case 2: return .rename(id: uuid(), title: string())
    case 3: return .setNote(chance(50) ? string() : nil)
    case 4: return .move(from: integer(Int.self), to: integer(Int.self))
    case 5: return .clear
    default: return .batch((0..<int(in: 0...3)).map { _ in action(depth: depth + 1) })
    }
  }

  mutating func widths() -> IntegerWidths {
    IntegerWidths(
      int: integer(Int.self), int8: integer(Int8.self), int16: integer(Int16.self),
      int32: integer(Int32.self), int64: integer(Int64.self), uint: integer(UInt.self),
      uint8: integer(UInt8.self), uint16: integer(UInt16.self), uint32: integer(UInt32.self),
      uint64: integer(UInt64.self))
  }

  mutating func snapshot() -> Snapshot {
    var byTitle: [String: Int] = [:]
    var byNumber: [Int: String] = [:]
    var byColor: [Color: Bool] = [:]
    for _ in 0..<int(in: 0...12) {
      byTitle[string()] = integer(Int.self)
      byNumber[integer(Int.self)] = string()
      byColor[[Color.red, .green, .blue][int(in: 0...2)]] = chance(50)
    }
    return Snapshot(
      todos: (0..<int(in: 0...4)).map { _ in todo() },
      byTitle: byTitle, byNumber: byNumber, byColor: byColor, widths: widths(),
      foundations: foundations(), ratio: double(), small: float(),
      grid: (0..<int(in: 0...3)).map { _ in
        (0..<int(in: 0...3)).map { _ in chance(30) ? nil : integer(Int.self) }
      },
      optionalEmpty: chance(50) ? Empty() : nil, empty: Empty(),
      history: (0..<int(in: 0...4)).map { _ in action() },
      emptyList: [], emptyMap: [:], text: string())
  }
}
