import Foundation
import Testing

@testable import RewindJSON

/// The `allKeys` of one-member objects are kept from one value to the next
/// (``JSONOnlyKeyCache``): decoding through one document must give the values a fresh decoder
/// gives, whatever mix of cases, key types and key texts comes along.
@Suite struct JSONOnlyKeyCacheTests {
  enum Shape: Codable, Equatable {
    case add(title: String)
    case remove(id: Int)
    case clear
  }

  /// Another enum with the same case names, in another order: its keys are another type, and
  /// one mistaken for the other would decode the wrong case.
  enum Other: Codable, Equatable {
    case remove
    case add(count: Int)
  }

  /// Decodes `text` as `T` through `document`, which keeps its decoder between calls.
  private func decode<T: Decodable>(
    _ type: T.Type, _ text: String, with document: JSONTapeDocument
  ) throws -> T {
    let bytes = Array(text.utf8)
    return try bytes.withUnsafeBytes { buffer in
      guard document.load(buffer) else { throw JSONOnlyKeyCacheTestError.invalid(text) }
      return try document.decode(T.self, at: document.root)
    }
  }

  @Test func casesOfTwoEnumsWithTheSameKeyTextsDecodeAsAFreshDecoderDecodesThem() throws {
    let document = JSONTapeDocument()
    let texts: [(String, Bool)] = [
      (#"{"add":{"title":"Milk"}}"#, true), (#"{"add":{"count":3}}"#, false),
      (#"{"remove":{"id":7}}"#, true), (#"{"remove":{}}"#, false), (#"{"clear":{}}"#, true),
      (#"{"a\u0064d":{"title":"escaped"}}"#, true), (#"{"add":{"count":4}}"#, false),
    ]
    for round in 0..<3 {
      for (text, isShape) in texts {
        if isShape {
          let fresh = try RewindJSONDecoder().decode(Shape.self, from: Array(text.utf8))
          #expect(try decode(Shape.self, text, with: document) == fresh, "round \(round): \(text)")
        } else {
          let fresh = try RewindJSONDecoder().decode(Other.self, from: Array(text.utf8))
          #expect(try decode(Other.self, text, with: document) == fresh, "round \(round): \(text)")
        }
      }
    }
    // A key that is a case of one enum but not the other is still an error for the other.
    #expect(throws: DecodingError.self) {
      _ = try decode(Other.self, #"{"clear":{}}"#, with: document)
    }
  }

  @Test func moreKeyTextsThanTheCacheHoldsStillDecode() throws {
    let document = JSONTapeDocument()
    let count = JSONOnlyKeyCache.capacity * 3
    for round in 0..<2 {
      for index in 0..<count {
        let text = #"{"key\#(index)":\#(index)}"#
        let value = try decode([String: Int].self, text, with: document)
        #expect(value == ["key\(index)": index], "round \(round)")
      }
    }
  }
}

private enum JSONOnlyKeyCacheTestError: Error {
  case invalid(String)
}
