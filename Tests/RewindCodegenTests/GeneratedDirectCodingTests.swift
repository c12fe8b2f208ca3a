import Foundation
import Rewind
@_spi(Testing) import RewindJSON
import Testing

@testable import CodegenSamples

/// The conformances the RewindDirectCoding plugin generated for `CodegenSamples`, against each
/// type's own `Codable`: the same bytes, the same values back, and never a different reading.
@Suite struct GeneratedDirectCodingTests {
  static let todo = SampleTodo(id: 7, title: "tab\there \"quoted\" é 🎉", done: true)

  static let profiles: [SampleProfile] = [
    SampleProfile(
      name: "Ada", nickname: nil, age: -128, score: 0.1, ratio: nil, tags: [], counts: [:],
      friends: [], best: nil, joined: Date(timeIntervalSinceReferenceDate: 0), default: false,
      level: .low),
    SampleProfile(
      name: "", nickname: "\u{0}\u{1F}", age: 127, score: -1e300, ratio: 0.5,
      tags: ["a", "b\\c"], counts: ["x": 1], friends: [todo, todo], best: todo,
      joined: Date(timeIntervalSinceReferenceDate: 1_234.5), default: true, level: .high),
  ]

  static let shapes: [SampleShape] = [
    .point, .circle(2.5), .rect(width: 1, height: 1e-7), .labeled("l", count: -3, nil),
    .labeled("", count: Int.max, "note"), .group([]), .group([.point, .group([.circle(0)])]),
    .framed(.default, margin: nil), .framed(.rect(width: 0, height: 0), margin: 4), .default,
  ]

  static let actions: [SampleTodoAction] = [
    .add(title: "milk"), .toggle(id: Int.min), .rename(id: 1, title: "\u{7F}"), .remove(id: 0),
    .move(from: 3, to: 1), .setFilter(.active), .setFilter(.completed), .clearCompleted,
  ]

  @Test func everyCodableTypeTheGeneratorReadsGetsBothHalves() {
    let generated: [Any.Type] = [
      SampleTodoAction.self, SampleFilter.self, SampleTodo.self, SampleTodoState.self,
      SampleProfile.self, SampleLevel.self, SampleShape.self, SampleSwitch.self,
      SampleOuter.Inner.self, SampleOuter.Kind.self, SampleLater.self, SampleQuery.self,
      SampleCalc.self, SampleFeature.Mode.self, SampleLaterAvailable.self,
    ]
    for type in generated {
      #expect(type is any JSONDirectEncodable.Type, "\(type)")
      #expect(type is any JSONDirectDecodable.Type, "\(type)")
    }
  }

  @Test func aHiddenSetterGetsTheEncodingHalfOnly() throws {
    #expect((SampleReadOnly.self as Any.Type) is any JSONDirectEncodable.Type)
    #expect(!((SampleReadOnly.self as Any.Type) is any JSONDirectDecodable.Type))
    var writer = JSONDirectWriter()
    try SampleReadOnly(count: 3).encodeJSON(to: &writer)
    #expect(String(decoding: writer.bytes, as: UTF8.self) == #"{"count":3}"#)
  }

  @Test func theTypesItCannotReadKeepTheirCodableAlone() {
    let skipped: [Any.Type] = [
      SkippedCustomKeys.self, SkippedHandWritten.self, SkippedGeneric<Int>.self,
      SkippedClass.self, SkippedByComment.self, SkippedPrivate.self, SkippedWrapped.self,
      SkippedConditional.self, SkippedUnknownFirst.self, SkippedDottedWrapper.self,
      SkippedCaseKeys.self, SkippedMemberIf.self,
    ]
    for type in skipped {
      #expect(!(type is any JSONDirectEncodable.Type), "\(type)")
      #expect(!(type is any JSONDirectDecodable.Type), "\(type)")
    }
  }

  @Test func theGeneratedPathWritesAndReadsWhatCodableDoes() throws {
    try JSONDirectCoding.verify(Self.actions)
    try JSONDirectCoding.verify([SampleFilter.all, .active, .completed])
    try JSONDirectCoding.verify([Self.todo, SampleTodo(id: -1, title: "", done: false)])
    try JSONDirectCoding.verify([
      SampleTodoState(), SampleTodoState(todos: [Self.todo], filter: .completed, nextID: 9),
    ])
    try JSONDirectCoding.verify(Self.profiles)
    try JSONDirectCoding.verify(Self.shapes)
    try JSONDirectCoding.verify(SampleSwitch.allCases)
    try JSONDirectCoding.verify([
      SampleOuter.Inner(value: 1, text: nil), SampleOuter.Inner(value: 2, text: "t"),
    ])
    try JSONDirectCoding.verify([SampleOuter.Kind.first, .second])
    try JSONDirectCoding.verify([SampleLater(a: 1, b: nil), SampleLater(a: 2, b: [1, 2])])
    try JSONDirectCoding.verify([
      SampleQuery.page(sort: "name"), .page(range: 5..<9, sort: ""), .flags(), .at(3),
      .flags(on: false, mask: -1),
    ])
    try JSONDirectCoding.verify([
      SampleCalc(numbers: [], total: 0), SampleCalc(numbers: [2, 4], total: 1.5),
    ])
    try JSONDirectCoding.verify([SampleRatio.half, .whole])
    try JSONDirectCoding.verify([SampleByte.low, .high])
    if #available(macOS 10.15, iOS 13, tvOS 13, watchOS 6, *) {
      try JSONDirectCoding.verify([SampleFeature.Mode.fast, .careful])
      try JSONDirectCoding.verify([SampleLaterAvailable(a: 3)])
    }
  }

  @Test func aDecodableOnlyTypeIsReadAsInitFromReadsIt() throws {
    #expect(!((SampleResponse.self as Any.Type) is any JSONDirectEncodable.Type))
    let decoder = RewindJSONDecoder()
    for text in [
      #"{"items":[{"id":1,"title":"t","done":false}],"next":"p2"}"#, #"{"items":[]}"#,
      #"{"items":[],"next":null}"#,
    ] {
      let direct = try Array(text.utf8).withUnsafeBytes {
        try decoder.decodeDirectly(SampleResponse.self, from: $0)
      }
      #expect(direct == (try decoder.decode(SampleResponse.self, from: Data(text.utf8))))
    }
  }

  @Test func anIntegerWiderThan64BitsGetsTheErrorCodableGives() throws {
    guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
    var writer = JSONDirectWriter()
    writer.beginObject()
    #expect(throws: EncodingError.self) { try writer.write("v", Int128(5)) }
  }

  @Test func anOptionalLeftOutIsWrittenAsCodableLeavesItOut() throws {
    var writer = JSONDirectWriter()
    try SampleOuter.Inner(value: 1, text: nil).encodeJSON(to: &writer)
    #expect(String(decoding: writer.bytes, as: UTF8.self) == #"{"value":1}"#)
    writer = JSONDirectWriter()
    try SampleShape.labeled("l", count: 2, nil).encodeJSON(to: &writer)
    #expect(String(decoding: writer.bytes, as: UTF8.self) == #"{"labeled":{"_0":"l","count":2}}"#)
  }

  /// Texts a generated `init(json:)` must either refuse (the engine then runs `init(from:)`) or
  /// read to exactly what `init(from:)` reads.
  @Test(arguments: [
    #"{"value":1,"text":null}"#, #"{"value":1}"#, #"{"text":"t"}"#, #"{"value":"1"}"#,
    #"{"value":1.0,"text":"t"}"#, #"{"value":1e2}"#, #"{"value":1,"value":2}"#,
    #"{"value":1,"text":7}"#, #"[1]"#, #"{"value":1,"extra":{"deep":[1,2]}}"#,
    #"{"value":9223372036854775808}"#, #"{"value":-0}"#,
  ])
  func anInnerValueIsNeverReadOtherwise(text: String) {
    expectSameReading(SampleOuter.Inner.self, text)
  }

  @Test(arguments: [
    #"{"add":{"title":"x"}}"#, #"{"add":{}}"#, #"{"add":{"title":null}}"#,
    #"{"add":{"title":"x"},"junk":1}"#, #"{"clearCompleted":[]}"#, #"{"clearCompleted":{"a":1}}"#,
    #"{"setFilter":{"_0":"none"}}"#, #"{"setFilter":{"_0":"all"}}"#, #"{"nope":{}}"#, #"{}"#,
    #"{"move":{"from":1,"to":2,"from":3}}"#, #""add""#, #"{"toggle":{"id":1.5}}"#,
  ])
  func anActionIsNeverReadOtherwise(text: String) {
    expectSameReading(SampleTodoAction.self, text)
  }

  @Test(arguments: [
    #"{"labeled":{"_0":"l","count":1}}"#, #"{"labeled":{"_0":"l","count":1,"_2":null}}"#,
    #"{"labeled":{"_0":"l","count":1,"_2":5}}"#, #"{"framed":{"_0":{"point":{}}}}"#,
    #"{"group":{"_0":[{"point":{}},{"circle":{"_0":1}}]}}"#, #"{"group":{"_0":[{"point":1}]}}"#,
    #"{"rect":{"width":1,"height":"2"}}"#, #"{"circle":{"_0":1e400}}"#,
  ])
  func aShapeIsNeverReadOtherwise(text: String) {
    expectSameReading(SampleShape.self, text)
  }

  @Test(arguments: [
    #"{"name":"n","age":1,"score":1,"tags":[],"counts":{},"friends":[],"joined":0,"default":true,"level":2,"observed":1,"changes":0}"#,
    #"{"name":"n","age":300,"score":1,"tags":[],"counts":{},"friends":[],"joined":0,"default":true,"level":2,"observed":1,"changes":0}"#,
    #"{"name":"n","age":1,"score":1,"tags":[],"counts":{},"friends":[],"joined":0,"default":true,"level":3,"observed":1,"changes":0}"#,
    #"{"name":"n","age":1,"score":1,"ratio":0.1,"tags":["a",null],"counts":{},"friends":[],"joined":0,"default":true,"level":1,"observed":1,"changes":0}"#,
  ])
  func aProfileIsNeverReadOtherwise(text: String) {
    expectSameReading(SampleProfile.self, text)
  }

  @Test func thePlainFormsTakeTheDirectPath() throws {
    let decoder = RewindJSONDecoder()
    for text in [
      #"{"add":{"title":"x"}}"#, #"{"clearCompleted":{}}"#, #"{"setFilter":{"_0":"all"}}"#,
    ] {
      let action = try Array(text.utf8).withUnsafeBytes {
        try decoder.decodeDirectly(SampleTodoAction.self, from: $0)
      }
      #expect(action == (try decoder.decode(SampleTodoAction.self, from: Data(text.utf8))))
    }
    let inner = try Array(#"{"value":1,"text":null}"#.utf8).withUnsafeBytes {
      try decoder.decodeDirectly(SampleOuter.Inner.self, from: $0)
    }
    #expect(inner == SampleOuter.Inner(value: 1, text: nil))
  }

  private func expectSameReading<T: JSONDirectDecodable & Equatable>(
    _ type: T.Type, _ text: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let decoder = RewindJSONDecoder()
    let codable = try? decoder.decode(T.self, from: Data(text.utf8))
    let direct = Array(text.utf8).withUnsafeBytes { try? decoder.decodeDirectly(T.self, from: $0) }
    if let direct {
      #expect(
        direct == codable, "init(json:) read \(text) otherwise", sourceLocation: sourceLocation)
    }
  }
}
