import Foundation
import RewindJSON

/// Which JSON coder turns an app's actions and states into a log's bytes (the recorder,
/// ``RecordingOptions/coder``) and back (the replay engine's timelines).
///
/// Both write and read the same log format, so a log recorded with one replays with the other.
/// Rewind's own coder is the default and the fast one; Foundation's is there to compare against
/// (the benchmark harness measures one against the other) and to rule out a coder bug when a
/// value does not come back as it went in.
public enum LogCoder: String, Sendable, Equatable, CaseIterable {
  /// Rewind's own coder: actions are encoded straight into the line's bytes and decoded straight
  /// from the log's bytes. It writes what Foundation's `JSONEncoder` writes with its default
  /// strategies (keys in the order `encode(to:)` writes them, `/` unescaped), and reads what it
  /// reads.
  case rewind
  /// Foundation's `JSONEncoder` and `JSONDecoder`, with their default strategies. The encoder
  /// sorts keys (`.sortedKeys`: on Linux its own key order changes from one process to the next,
  /// and a log must be the same bytes in every process) and leaves `/` unescaped
  /// (`.withoutEscapingSlashes`, as the log format's other lines do).
  case foundation
}

extension LogCoder {
  /// Foundation's encoder as the ``foundation`` coder sets it up.
  package static func makeFoundationEncoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }

  /// `value` as compact JSON bytes, encoded with this coder (Rewind's takes the value's
  /// ``JSONDirectEncodable`` path when it has one and it writes one whole value).
  /// - Throws: The coder's `EncodingError`, or the error `value`'s `encode(to:)` throws.
  package func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
    switch self {
    case .rewind:
      if let direct = value as? any JSONDirectEncodable {
        var writer = JSONDirectWriter()
        if (try? direct.encodeJSON(to: &writer)) != nil, writer.isComplete { return writer.bytes }
      }
      return try RewindJSONEncoder().encode(value)
    case .foundation: return Array(try Self.makeFoundationEncoder().encode(value))
    }
  }

  /// `value` as ``encode(_:)`` gives it, calling `pause` now and then on the calling thread: the
  /// checkpoint encoder's, which gives its core back there (``EncodingPacer``). Through
  /// `encode(to:)`, after about every `count` containers and array elements written; through a
  /// ``JSONDirectEncodable`` path, after every `count` containers opened. Foundation's coder
  /// encodes without pausing.
  /// - Throws: As ``encode(_:)``.
  package func encode<T: Encodable>(
    _ value: T, pausingEvery count: Int, _ pause: @escaping () -> Void
  ) throws -> [UInt8] {
    guard self == .rewind else { return try encode(value) }
    if let direct = value as? any JSONDirectEncodable {
      var writer = JSONDirectWriter()
      writer.pausing(every: count, pause)
      if (try? direct.encodeJSON(to: &writer)) != nil, writer.isComplete { return writer.bytes }
    }
    let encoder = JSONStreamEncoder()
    encoder.pausing(every: count, pause)
    var output: [UInt8] = []
    try encoder.encode(value, into: &output)
    return output
  }

  /// A `T` decoded with this coder from `bytes` (JSON within the default limits): how the
  /// recorder reads an action the live viewer sent.
  /// - Throws: ``JSONParseError`` or the coder's `DecodingError`.
  package func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
    switch self {
    case .rewind: return try RewindJSONDecoder().decode(type, from: bytes)
    case .foundation: return try JSONDecoder().decode(type, from: Data(bytes))
    }
  }

  /// `value` as a ``JSONValue``, encoded with this coder.
  /// - Throws: As ``encode(_:)``.
  package func encodeValue<T: Encodable>(_ value: T) throws -> JSONValue {
    switch self {
    case .rewind: return try RewindJSONEncoder().encodeValue(value)
    case .foundation: return try JSONParser.parse(encode(value))
    }
  }
}
