import Testing

@testable import RewindJSON

/// Indenting compact JSON text: what `prettyText()` shows and what `replay state` prints as
/// text, straight from the encoder's bytes.
@Suite struct JSONIndenterTests {
  func indented(_ text: String, indent: Int = 2) -> String {
    let bytes = Array(text.utf8)
    return String(
      decoding: bytes.withUnsafeBytes { JSONIndenter.indented($0, indent: indent) }, as: UTF8.self)
  }

  @Test func stringsKeepTheirBracketsCommasColonsAndEscapes() {
    let text = #"{"a":"x,y:{[\"]}","b":[[],{}],"c":[1,{"d\\":"\\"}],"e":-1.5e3,"f":null}"#
    #expect(
      indented(text) == """
        {
          "a": "x,y:{[\\"]}",
          "b": [
            [],
            {}
          ],
          "c": [
            1,
            {
              "d\\\\": "\\\\"
            }
          ],
          "e": -1.5e3,
          "f": null
        }
        """)
    #expect(indented("[1,[2]]", indent: 0) == "[\n1,\n[\n2\n]\n]")
    #expect(indented("[1,[2]]", indent: -3) == indented("[1,[2]]", indent: 0))
    #expect(indented(#""plain""#) == #""plain""#)
    #expect(indented("{}") == "{}" && indented("7") == "7")
  }

  /// `prettyText()` of seeded snapshots, re-parsed, is the value again; and indenting the
  /// encoder's bytes gives the same text as `prettyText()` of the value they parse into.
  @Test func seededSnapshotsRoundTrip() throws {
    for seed in FoundationDifferentialTests.seeds.prefix(40) {
      let value = FoundationDifferentialTests.snapshot(seed: seed)
      let bytes = try RewindJSONEncoder().encode(value)
      let tree = try JSONParser.parse(bytes)
      let pretty = bytes.withUnsafeBytes { JSONIndenter.indented($0) }
      #expect(String(decoding: pretty, as: UTF8.self) == tree.prettyText(), "seed \(seed)")
      #expect(try JSONParser.parse(pretty) == tree, "seed \(seed)")
    }
  }
}
