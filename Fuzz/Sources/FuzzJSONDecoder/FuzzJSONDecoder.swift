// Fuzzes Rewind's JSON parser, writer and Codable decoders: any input either fails with a
// JSONParseError / DecodingError or parses to a value that re-serializes and re-parses equal; and
// decoding straight from the bytes (the tape decoder, what replay uses) gives the same value as
// decoding the parsed tree, or fails where it fails. Each decoding is done again with every array
// read lazily (the path of arrays past a million tape entries, which no input of libFuzzer's
// sizes reaches otherwise), and through a `JSONDirectDecodable` type's `init(json:)` (the direct
// path, whose `elements()` reads a lazy array one element at a time) against its `init(from:)`.
@_spi(Testing) import RewindJSON

private struct Probe: Codable, Equatable {
  var a: Int?
  var b: [String]?
  var c: [String: Double]?
  var d: Nested?
  struct Nested: Codable, Equatable {
    var x: Int8?
    var y: UInt64?
    var z: [Nested]?
  }
}

/// A type with both paths: `init(json:)` reads what the synthesized `init(from:)` reads.
private struct Rows: JSONDirectDecodable, Decodable, Equatable {
  var numbers: [Int]
  var rows: [[String]]
  var flags: [Bool]?

  init(json: JSONDirectReader) throws {
    numbers = try json.required("numbers").elements().map { try $0.integer() }
    rows = try json.required("rows").elements().map { row in
      try row.elements().map { try $0.string() }
    }
    if let flags = try json.member("flags"), !flags.isNull {
      self.flags = try flags.elements().map { try $0.bool() }
    }
  }
}

private enum Shape: Codable, Equatable {
  case one(Int)
  case two(title: String, flags: [Bool])
  case three
}

/// libFuzzer's entry point: one input, `size` bytes at `data`; returns 0.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONDecoder(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let buffer = UnsafeRawBufferPointer(start: data, count: size)
  let bytes = Array(buffer)
  let decoder = RewindJSONDecoder()
  guard let value = try? JSONParser.parse(buffer) else {
    // What the parser rejects, decoding from the bytes must reject too.
    if (try? decoder.decode(Probe.self, from: bytes)) != nil {
      fatalError("the byte decoder accepted a text the parser rejects")
    }
    return 0
  }
  let again = try? JSONParser.parse(value.serializedBytes)
  if again != value {
    fatalError("re-parsing the serialized value gave a different value: \(value.jsonText)")
  }
  same(Probe.self, bytes, value, decoder)
  same(Shape.self, bytes, value, decoder)
  same([Shape].self, bytes, value, decoder)
  same([String: Int].self, bytes, value, decoder)
  same(Double.self, bytes, value, decoder)
  same(Rows.self, bytes, value, decoder)
  sameDirectly(Rows.self, buffer)
  return 0
}

/// Decoders whose arrays and objects go lazy past 0 and 2 tape entries (every array and every
/// object of two members or more, and all but the shortest).
private let lazyDecoders: [RewindJSONDecoder] = [0, 2].map { entries in
  var decoder = RewindJSONDecoder()
  decoder.lazyContainerEntries = entries
  return decoder
}

/// Decodes `T` from the bytes and from the parsed value; both must fail, or give equal values.
private func same<T: Decodable & Equatable>(
  _ type: T.Type, _ bytes: [UInt8], _ value: JSONValue, _ decoder: RewindJSONDecoder
) {
  let fromBytes = try? decoder.decode(type, from: bytes)
  let fromValue = try? decoder.decode(type, from: value)
  if fromBytes != fromValue {
    fatalError(
      "\(type): from the bytes \(String(describing: fromBytes)), from the value "
        + "\(String(describing: fromValue))")
  }
  for lazy in lazyDecoders {
    let fromLazy = try? lazy.decode(type, from: bytes)
    if fromLazy != fromBytes {
      fatalError(
        "\(type): with lazy containers (past \(lazy.lazyContainerEntries) entries) "
          + "\(String(describing: fromLazy)), eager \(String(describing: fromBytes))")
    }
  }
}

/// Decodes `T` through `init(json:)`, with eager and lazy arrays, and through `init(from:)`:
/// all must fail, or give equal values.
private func sameDirectly<T: JSONDirectDecodable & Decodable & Equatable>(
  _ type: T.Type, _ bytes: UnsafeRawBufferPointer
) {
  let codable = try? RewindJSONDecoder().decode(type, from: bytes)
  for decoder in [RewindJSONDecoder()] + lazyDecoders {
    let direct = try? decoder.decodeDirectly(type, from: bytes)
    if direct != codable {
      fatalError(
        "\(type): init(json:) (containers lazy past \(decoder.lazyContainerEntries) entries) "
          + "\(String(describing: direct)), init(from:) \(String(describing: codable))")
    }
  }
}
