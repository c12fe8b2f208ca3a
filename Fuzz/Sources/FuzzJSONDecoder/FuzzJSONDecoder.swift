// Fuzzes Rewind's JSON parser, writer and Codable decoders: any input either fails with a
// JSONParseError / DecodingError or parses to a value that re-serializes and re-parses equal; and
// decoding straight from the bytes (the tape decoder, what replay uses) gives the same value as
// decoding the parsed tree, or fails where it fails.
import RewindJSON

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
  return 0
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
}
