import Foundation
import Testing

@testable import RewindJSON

/// ``JSONStreamEncoder/pausing(every:_:)`` and ``JSONDirectWriter/pausing(every:_:)``, which the
/// recorder's checkpoint encoder uses to give its core back now and then: the pause is called once
/// per so many containers and elements (containers, through a direct path), and the bytes are
/// those of an encoding without it.
@Suite struct JSONStreamPauseTests {
  struct Item: Codable, Equatable {
    var id: Int
    var title: String
    var done: Bool
  }

  static let items = (0..<1_000).map { Item(id: $0, title: "Item \($0)", done: $0 % 2 == 0) }

  /// The bytes of `value` with a pause every `count` containers and elements, and how many
  /// pauses there were.
  static func encodePausing<T: Encodable>(_ value: T, every count: Int) throws -> ([UInt8], Int) {
    let encoder = JSONStreamEncoder()
    var pauses = 0
    encoder.pausing(every: count) { pauses += 1 }
    var output: [UInt8] = []
    try encoder.encode(value, into: &output)
    return (output, pauses)
  }

  @Test func pausesOncePerCountOfContainersAndElements() throws {
    // The array (1 container), and each item: an element and its object (2 each): 2,001.
    let (bytes, pauses) = try Self.encodePausing(Self.items, every: 10)
    #expect(pauses == 200)
    #expect(bytes == (try RewindJSONEncoder().encode(Self.items)))
    let (_, everyOne) = try Self.encodePausing(Self.items, every: 1)
    #expect(everyOne == 2_001)
  }

  @Test func writesTheSameBytesInTheBufferedModeAndAcrossValues() throws {
    // Dictionaries are written in the buffered mode, their entries sorted.
    let dictionary = Dictionary(uniqueKeysWithValues: Self.items.prefix(300).map { ($0.title, $0) })
    let (bytes, _) = try Self.encodePausing(dictionary, every: 7)
    #expect(bytes == (try RewindJSONEncoder().encode(dictionary)))
    // One encoder, one value after another: the count goes on across them.
    let encoder = JSONStreamEncoder()
    var pauses = 0
    encoder.pausing(every: 4) { pauses += 1 }
    var output: [UInt8] = []
    try encoder.encode([[1, 2], [3]], into: &output)
    try encoder.encode([[4]], into: &output)
    // [[1,2],[3]]: 3 containers and 5 elements; [[4]]: 2 and 2 — 12 in all.
    #expect(String(decoding: output, as: UTF8.self) == "[[1,2],[3]][[4]]")
    #expect(pauses == 3)
  }

  /// A state with a direct path: a list of items written as objects, and a member that the
  /// writer encodes through `encode(to:)`.
  struct DirectList: JSONDirectEncodable {
    var items: [Item]
    var extra: [[Int]]

    func encodeJSON(to json: inout JSONDirectWriter) throws {
      json.beginObject()
      json.key("items")
      json.beginArray()
      for item in items {
        json.beginObject()
        json.key("id")
        json.integer(item.id)
        json.key("title")
        json.string(item.title)
        json.key("done")
        json.bool(item.done)
        json.endObject()
      }
      json.endArray()
      json.key("extra")
      try json.encode(extra)
      json.endObject()
    }
  }

  @Test func aDirectPathPausesOncePerCountOfContainers() throws {
    let list = DirectList(items: Self.items, extra: [[1, 2], [3]])
    var writer = JSONDirectWriter()
    var pauses = 0
    writer.pausing(every: 10) { pauses += 1 }
    try list.encodeJSON(to: &writer)
    #expect(writer.isComplete)
    // The object, the array and 1,000 items opened: 1,002 containers, 100 pauses; then `extra`
    // through the stream encoder, counting anew: 3 containers and 5 elements, no pause.
    #expect(pauses == 100)
    #expect(writer.bytes == (try RewindJSONEncoder().encode(list)))
    // Without a pause: the same bytes.
    var plain = JSONDirectWriter()
    try list.encodeJSON(to: &plain)
    #expect(plain.bytes == writer.bytes)
  }
}
