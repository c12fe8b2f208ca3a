// Fuzzes Rewind's JSON parser, writer and Codable decoder: any input either fails with a
// JSONParseError / DecodingError or parses to a value that re-serializes and re-parses equal.
import RewindJSON

private struct Probe: Codable {
  var a: Int?
  var b: [String]?
  var c: [String: Double]?
  var d: Nested?
  struct Nested: Codable {
    var x: Int8?
    var y: UInt64?
    var z: [Nested]?
  }
}

private enum Shape: Codable {
  case one(Int)
  case two(title: String, flags: [Bool])
  case three
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONDecoder(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let buffer = UnsafeRawBufferPointer(start: data, count: size)
  guard let value = try? JSONParser.parse(buffer) else { return 0 }
  let again = try? JSONParser.parse(value.serializedBytes)
  if again != value {
    fatalError("re-parsing the serialized value gave a different value: \(value.jsonText)")
  }
  let decoder = RewindJSONDecoder()
  _ = try? decoder.decode(Probe.self, from: value)
  _ = try? decoder.decode(Shape.self, from: value)
  _ = try? decoder.decode([Shape].self, from: value)
  _ = try? decoder.decode([String: Int].self, from: value)
  _ = try? decoder.decode(Double.self, from: value)
  return 0
}
