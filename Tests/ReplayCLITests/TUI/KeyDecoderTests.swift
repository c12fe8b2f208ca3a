import Testing

@testable import ReplayCLI

/// The bytes of keys in raw mode, as xterm, tmux, the Linux console and macOS Terminal send
/// them, decoded into keys.
@Suite struct KeyDecoderTests {
  private func decode(_ text: String) -> [TerminalKey] {
    var decoder = KeyDecoder()
    decoder.feed(Array(text.utf8))
    return decoder.keys()
  }

  @Test(arguments: [
    ("\u{1B}[A", TerminalKey.up), ("\u{1B}[B", .down), ("\u{1B}[C", .right), ("\u{1B}[D", .left),
    ("\u{1B}OA", .up), ("\u{1B}OB", .down), ("\u{1B}OC", .right), ("\u{1B}OD", .left),
    ("\u{1B}[H", .home), ("\u{1B}[1~", .home), ("\u{1B}[7~", .home), ("\u{1B}OH", .home),
    ("\u{1B}[F", .end), ("\u{1B}[4~", .end), ("\u{1B}[8~", .end), ("\u{1B}OF", .end),
    ("\u{1B}[5~", .pageUp), ("\u{1B}[6~", .pageDown), ("\u{1B}[3~", .delete),
    ("\u{1B}[2~", .insert), ("\u{1B}[Z", .backTab), ("\u{1B}[1;5C", .right),
    ("\u{1B}[1;2H", .home), ("\u{1B}[15~", .unknown), ("\u{1B}[M", .unknown),
  ])
  func escapeSequencesDecodeToOneKey(bytes: String, key: TerminalKey) {
    #expect(decode(bytes) == [key])
  }

  @Test func controlBytesAndText() {
    #expect(
      decode("a\r\n\t\u{7F}\u{08}\u{01}\u{05}\u{12}\u{03}\u{04} Z")
        == [
          .character("a"), .enter, .enter, .tab, .backspace, .backspace, .control("a"),
          .control("e"), .control("r"), .control("c"), .control("d"), .character(" "),
          .character("Z"),
        ])
  }

  @Test func multiByteCharactersArriveWhole() {
    #expect(decode("é牛💸") == [.character("é"), .character("牛"), .character("💸")])
  }

  @Test func aCharacterSplitAcrossReadsWaitsForItsLastByte() {
    var decoder = KeyDecoder()
    let bytes = Array("💸".utf8)
    decoder.feed(bytes.prefix(2))
    #expect(decoder.keys() == [])
    #expect(decoder.hasPending)
    decoder.feed(bytes.dropFirst(2))
    #expect(decoder.keys() == [.character("💸")])
    #expect(!decoder.hasPending)
  }

  @Test func aSequenceSplitAcrossReadsWaitsForItsFinalByte() {
    var decoder = KeyDecoder()
    decoder.feed(Array("\u{1B}[6".utf8))
    #expect(decoder.keys() == [])
    decoder.feed(Array("~q".utf8))
    #expect(decoder.keys() == [.pageDown, .character("q")])
  }

  @Test func aLoneEscapeIsAKeyOnlyOnceNoMoreBytesCame() {
    var decoder = KeyDecoder()
    decoder.feed([0x1B])
    #expect(decoder.keys() == [])
    #expect(decoder.hasPending)
    #expect(decoder.flushPending() == [.escape])
    #expect(!decoder.hasPending)
  }

  @Test func escapeBeforeALetterIsAlt() {
    #expect(decode("\u{1B}b\u{1B}f") == [.alt("b"), .alt("f")])
  }

  @Test func aCutOffSequenceFlushesAsUnknownNotAsText() {
    var decoder = KeyDecoder()
    decoder.feed(Array("\u{1B}[12".utf8))
    #expect(decoder.flushPending() == [.unknown])
  }

  @Test func invalidUTF8AndC1ControlsAreNotText() {
    var decoder = KeyDecoder()
    decoder.feed([0xFF, 0xC2, 0x9B, UInt8(ascii: "x")])
    #expect(decoder.keys() == [.unknown, .unknown, .character("x")])
  }
}
