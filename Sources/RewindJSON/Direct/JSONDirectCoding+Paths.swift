/// How Rewind reaches a type's direct path, found once per type, and the check apps run in their
/// tests.
public enum JSONDirectCoding {
  /// Decodes a `T` from a document's value, when `T` is ``JSONDirectDecodable``.
  package typealias Decode<T> = @Sendable (JSONTapeDocument, Int) throws -> T

  /// Encodes a `T` into a writer, when `T` is ``JSONDirectEncodable``: ``encoder(for:)`` gives
  /// one. A class rather than a closure, so that a call is one dynamic dispatch into the type's
  /// `encodeJSON(to:)`, with no closure context to retain and no reabstraction thunks — the
  /// recorder makes this call for every action. Usable from inlinable code: the recorder's
  /// action path is compiled into the app, specialised for its action type.
  @usableFromInline package class Encoder<T>: @unchecked Sendable {
    // `@unchecked Sendable`: no stored state.
    fileprivate init() {}

    /// Writes `value` into `writer` with its own `encodeJSON(to:)`.
    /// - Throws: What `encodeJSON(to:)` throws.
    @usableFromInline package func encode(_ value: T, to writer: inout JSONDirectWriter) throws {
      // Only ``OpenedEncoder`` is ever made; it overrides this.
      throw JSONDirectWriterError(reason: "\(T.self) has no direct encoding")
    }
  }

  /// ``Encoder`` for a type opened as ``JSONDirectEncodable``.
  private final class OpenedEncoder<D: JSONDirectEncodable>: Encoder<D>, @unchecked Sendable {
    override init() {}

    override func encode(_ value: D, to writer: inout JSONDirectWriter) throws {
      try value.encodeJSON(to: &writer)
    }
  }

  /// `T`'s direct encoding, or `nil` when it has none. Look it up once and keep it: the lookup
  /// is a conformance check.
  package static func encoder<T>(for type: T.Type) -> Encoder<T>? {
    guard let direct = type as? any JSONDirectEncodable.Type else { return nil }
    return encoder(direct, as: T.self)
  }

  private static func encoder<D: JSONDirectEncodable, T>(_: D.Type, as _: T.Type) -> Encoder<T>? {
    // `D` is `T` itself, opened from its metatype and checked here once; the encoder made for
    // `D` is then the encoder for `T`, found by a cast made once, not per value.
    guard D.self == T.self else { return nil }
    return OpenedEncoder<D>() as Encoder<D> as? Encoder<T>
  }

  /// `T`'s direct decoding, or `nil` when it has none. Look it up once and keep it.
  package static func decoder<T>(for type: T.Type) -> Decode<T>? {
    guard let direct = type as? any JSONDirectDecodable.Type else { return nil }
    return decoder(direct, as: T.self)
  }

  private static func decoder<D: JSONDirectDecodable, T>(_: D.Type, as _: T.Type) -> Decode<T>? {
    // As for ``encoder(for:)``: `D` is `T`, checked once here rather than cast per value.
    guard D.self == T.self else { return nil }
    return { document, index in
      unsafeBitCast(try D(json: JSONDirectReader(document: document, index: index)), to: T.self)
    }
  }

  /// Checks that the direct path of `values` agrees with their Codable path, for an app's tests:
  /// each value's ``JSONDirectEncodable/encodeJSON(to:)`` must write the bytes Rewind's encoder
  /// writes for `encode(to:)`, and ``JSONDirectDecodable/init(json:)`` must read those bytes
  /// back to the value.
  ///
  /// ```swift
  /// @Test func todoActionsDirectCodingMatchesCodable() throws {
  ///   try JSONDirectCoding.verify(sampleActions)
  /// }
  /// ```
  /// - Throws: ``JSONDirectCodingMismatch`` for the first value that disagrees, with both texts.
  public static func verify<T: JSONDirectCodable & Equatable>(_ values: [T]) throws {
    let encoder = RewindJSONEncoder()
    let document = JSONTapeDocument()
    for (position, value) in values.enumerated() {
      let expected = try encoder.encode(value)
      var writer = JSONDirectWriter()
      try value.encodeJSON(to: &writer)
      func mismatch(_ problem: String) -> JSONDirectCodingMismatch {
        JSONDirectCodingMismatch(
          position: position, value: String(describing: value), problem: problem,
          codable: String(decoding: expected, as: UTF8.self),
          direct: String(decoding: writer.bytes, as: UTF8.self))
      }
      guard writer.isComplete else {
        throw mismatch("encodeJSON(to:) did not write one whole JSON value")
      }
      guard writer.bytes == expected else {
        throw mismatch("encodeJSON(to:) wrote other bytes than encode(to:)")
      }
      let decoded = try expected.withUnsafeBytes { bytes -> T? in
        guard document.load(bytes) else { return nil }
        return try T(json: JSONDirectReader(document: document, index: document.root))
      }
      guard decoded == value else {
        throw mismatch(
          "init(json:) read the bytes back to another value: \(decoded.map { "\($0)" } ?? "nil")")
      }
    }
  }
}

/// A value whose direct path disagrees with its Codable path (``JSONDirectCoding/verify(_:)``).
public struct JSONDirectCodingMismatch: Error, CustomStringConvertible {
  /// The value's index in the array checked.
  public var position: Int
  /// The value, described.
  public var value: String
  /// What disagrees.
  public var problem: String
  /// What `encode(to:)` gives.
  public var codable: String
  /// What `encodeJSON(to:)` wrote.
  public var direct: String

  /// The problem, the value, both texts and what to do.
  public var description: String {
    "value \(position) (\(value)): \(problem)\n  encode(to:):      \(codable)\n"
      + "  encodeJSON(to:): \(direct)\n"
      + "  fix: make encodeJSON(to:) write the members encode(to:) writes, in its order, and "
      + "init(json:) read them back (or drop the conformance: Codable then does both)"
  }
}
