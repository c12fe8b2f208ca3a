import Testing

@testable import RewindJSON

/// Seeded random objects — keys equal only as Swift strings (escapes, é composed and not, the
/// Kelvin sign), whitespace around every token, empty and nested containers — read with every
/// container lazy (and some) and with none: the same documents accepted, the same values, errors
/// and coding paths decoded, the same members found.
@Suite struct JSONLazyDifferentialTests {
  /// Any JSON through the containers, in member order: `allKeys` backwards, `contains` and
  /// `decodeNil` before `decode`, nested keyed and unkeyed containers.
  indirect enum Explored: Decodable, Equatable {
    case object([String], [Explored], hasAccent: Bool)
    case array([Explored])
    case string(String)
    case number(Double)
    case bool(Bool)
    case null

    init(from decoder: any Decoder) throws {
      if let container = try? decoder.container(keyedBy: JSONKey.self) {
        let keys = container.allKeys
        var values: [Explored] = []
        for key in keys.reversed() {
          _ = container.contains(key)
          if try container.decodeNil(forKey: key) {
            values.append(.null)
          } else {
            values.append(try container.decode(Explored.self, forKey: key))
          }
        }
        let hasAccent = container.contains(JSONKey(stringValue: "é"))
        self = .object(keys.map(\.stringValue), values, hasAccent: hasAccent)
      } else if var container = try? decoder.unkeyedContainer() {
        var elements: [Explored] = []
        while !container.isAtEnd { elements.append(try container.decode(Explored.self)) }
        self = .array(elements)
      } else {
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
          self = .null
        } else if let flag = try? single.decode(Bool.self) {
          self = .bool(flag)
        } else if let number = try? single.decode(Double.self) {
          self = .number(number)
        } else {
          self = .string(try single.decode(String.self))
        }
      }
    }
  }

  /// Typed members, some missing or of the wrong type: errors with coding paths.
  struct Typed: Decodable, Equatable {
    var a: Int?
    var b: [String: Int]?
    var c: [Int]
    var f: Float?
    var e: String?
    enum CodingKeys: String, CodingKey {
      case a, b, c, f
      case e = "é"
    }
  }

  static let keys = [
    #""a""#, #""\u0061""#, #""b""#, #""c""#, #""é""#, #""e\u0301""#, #""\u00e9""#, #""a\"b\\""#,
    #""\\""#, #""""#, #""f""#, #""K""#, #""\u212A""#, #""}""#, #"",:""#, #""\/""#, #""/""#,
  ]
  static let spaces = [" ", "", "", "\n", "\t ", ""]
  static let scalars = ["null", "true", "-12", #""s\"\\x""#, "1.5e2", "{}", "[]", "{ }", "[ ]"]

  struct Generator {
    var state: UInt64

    mutating func below(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }

    mutating func pick(_ choices: [String]) -> String { choices[below(choices.count)] }

    mutating func value(depth: Int) -> String {
      switch below(depth > 3 ? 5 : 9) {
      case 0...4: return pick(JSONLazyDifferentialTests.scalars)
      case 5, 6: return object(depth: depth + 1)
      default:
        let elements = (0..<below(4)).map { _ in
          pick(JSONLazyDifferentialTests.spaces) + value(depth: depth + 1)
        }
        return "[" + elements.joined(separator: ",") + "]"
      }
    }

    mutating func object(depth: Int) -> String {
      let members = (0..<below(7)).map { _ in
        pick(JSONLazyDifferentialTests.spaces) + pick(JSONLazyDifferentialTests.keys)
          + pick(JSONLazyDifferentialTests.spaces) + ":" + value(depth: depth)
      }
      return "{" + members.joined(separator: ",") + pick(JSONLazyDifferentialTests.spaces) + "}"
    }
  }

  func decode<T: Decodable & Equatable>(
    _ type: T.Type, _ text: String, lazyPast entries: Int
  ) -> JSONTapeDocumentTests.Outcome<T>? {
    JSONTapeDocumentTests.viaTape(type, text, lazyContainerEntries: entries)
  }

  @Test func lazyAndEagerTapesAgreeOnSeededObjects() {
    var generator = Generator(state: 42)
    var accepted = 0
    for _ in 0..<4_000 {
      let text = generator.object(depth: 0)
      let bytes = Array(text.utf8)
      let parses = (try? JSONParser.parse(bytes)) != nil
      for limit in [0, 1, 3, Int.max] {
        let loads = bytes.withUnsafeBytes {
          JSONTapeDocument(lazyContainerEntries: limit).load($0)
        }
        #expect(loads == parses, "limit \(limit): \(text)")
      }
      guard parses else { continue }
      accepted += 1
      let explored = decode(Explored.self, text, lazyPast: .max)
      let typed = decode(Typed.self, text, lazyPast: .max)
      for limit in [0, 1, 3] {
        #expect(decode(Explored.self, text, lazyPast: limit) == explored, "\(limit): \(text)")
        #expect(decode(Typed.self, text, lazyPast: limit) == typed, "\(limit): \(text)")
      }
      bytes.withUnsafeBytes { buffer in
        let eager = JSONTapeDocument(lazyContainerEntries: .max)
        let lazy = JSONTapeDocument(lazyContainerEntries: 0)
        guard eager.load(buffer), lazy.load(buffer) else { return }
        for name: StaticString in ["a", "é", "b", "c", "", "\\", "a\"b\\", "}", "K"] {
          let found = eager.member(name, of: 0).map { Array(eager.text(at: $0)) }
          #expect(lazy.member(name, of: 0).map { Array(lazy.text(at: $0)) } == found, "\(text)")
        }
      }
    }
    // Duplicate keys (as Swift strings) refuse many of them; enough are read.
    #expect(accepted > 1_000)
  }
}
