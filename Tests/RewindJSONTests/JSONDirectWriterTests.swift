import Testing

@testable import RewindJSON

/// The recorder names an action by the bytes the writer says hold its name: they must be the
/// name escaped as a JSON string holds it, whatever way the name was written.
@Suite struct JSONDirectWriterTests {
  /// The name's bytes, as text, and what ``JSONDirectWriter/topLevel`` says.
  private func name(_ write: (inout JSONDirectWriter) -> Void) -> (
    bytes: String?, topLevel: JSONStreamEncoder.TopLevel
  ) {
    var writer = JSONDirectWriter()
    write(&writer)
    #expect(writer.isComplete)
    let bytes = writer.topLevelName.map {
      String(decoding: UnsafeRawBufferPointer(rebasing: writer.output.bytes[$0]), as: UTF8.self)
    }
    return (bytes, writer.topLevel)
  }

  @Test func aLiteralKeyIsItsOwnBytes() {
    let (bytes, topLevel) = name { json in
      json.beginObject()
      json.key("add")
      json.beginObject()
      json.key("title")
      json.string("first")
      json.endObject()
      json.endObject()
    }
    #expect(bytes == "add")
    #expect(topLevel == .singleKeyObject("add"))
  }

  @Test func aLiteralKeyThatNeedsEscapesIsHeldEscaped() {
    let (bytes, topLevel) = name { json in
      json.beginObject()
      json.key("say \"hi\"\n")
      json.integer(1)
      json.endObject()
    }
    #expect(bytes == #"say \"hi\"\n"#)
    #expect(topLevel == .singleKeyObject("say \"hi\"\n"))
  }

  @Test func aKeyNamedAtRunTimeIsHeldEscaped() {
    let (bytes, topLevel) = name { json in
      json.beginObject()
      json.key(named: "tab\there 🌱")
      json.null()
      json.endObject()
    }
    #expect(bytes == #"tab\there 🌱"#)
    #expect(topLevel == .singleKeyObject("tab\there 🌱"))
  }

  @Test func aTopLevelStringIsTheName() {
    let (bytes, topLevel) = name { json in json.string("reset \\ all") }
    #expect(bytes == #"reset \\ all"#)
    #expect(topLevel == .string("reset \\ all"))
  }

  @Test func onlyAnObjectWithOneMemberHasAName() {
    let twoKeys = name { json in
      json.beginObject()
      json.key("a")
      json.integer(1)
      json.key("b")
      json.integer(2)
      json.endObject()
    }
    #expect(twoKeys.bytes == nil)
    #expect(twoKeys.topLevel == .other)
    let array = name { json in
      json.beginArray()
      json.string("not a name")
      json.endArray()
    }
    #expect(array.bytes == nil)
    #expect(array.topLevel == .other)
    let empty = name { json in
      json.beginObject()
      json.endObject()
    }
    #expect(empty.bytes == nil)
  }

  /// A nested object's keys never name the top level.
  @Test func nestedKeysAreNotTheName() {
    let (bytes, _) = name { json in
      json.beginObject()
      json.key("outer")
      json.beginObject()
      json.key("inner")
      json.string("x")
      json.endObject()
      json.endObject()
    }
    #expect(bytes == "outer")
  }
}
