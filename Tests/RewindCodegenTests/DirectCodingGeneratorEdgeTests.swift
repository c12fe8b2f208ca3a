import Testing

@testable import RewindCodegen

/// Declarations a generated conformance would get wrong, each left to Codable with its reason,
/// and shapes that must still be read right.
@Suite struct DirectCodingGeneratorEdgeTests {
  private func report(_ source: String, module: String? = nil) -> [String] {
    var generator = DirectCodingGenerator(moduleName: module)
    generator.add(source: source, path: "App.swift")
    return generator.report
  }

  private func generated(_ source: String) -> String {
    var generator = DirectCodingGenerator()
    generator.add(source: source, path: "App.swift")
    return generator.generatedSource
  }

  @Test(arguments: [
    (
      "enum Shape: Codable {\n case circle(radius: Double)\n"
        + " enum CircleCodingKeys: String, CodingKey { case radius = \"r\" }\n}",
      "App.swift:1: note: Shape: not generated, for a CircleCodingKeys type"
    ),
    (
      "struct S: Codable {\n @MyLib.Clamped var level: Int\n}",
      "App.swift:1: note: S: not generated, for a property with the attribute @MyLib.Clamped"
    ),
    (
      "struct S: Codable {\n @Clamped<Int>(range: 0...10) var level = 5\n}",
      "App.swift:1: note: S: not generated, for a property with the attribute @Clamped<Int>"
    ),
    (
      "struct Config: Codable {\n #if DEBUG\n var level = 3\n #else\n var level = 0\n #endif\n}",
      "App.swift:1: note: Config: not generated, for #if inside its declaration"
    ),
    (
      "enum E: Codable {\n case a\n @available(*, deprecated) case b\n}",
      "App.swift:1: note: E: not generated, for a case with an attribute"
    ),
    (
      "struct S: Codable {\n var cache = Dictionary<String, Int>()\n var x: Int\n}",
      "App.swift:1: note: S: not generated, for a property declaration it cannot read (line 2)"
    ),
    (
      "struct S: Codable {\n var a: Foo<X>.Y = 0, b = 1\n}",
      "App.swift:1: note: S: not generated, for a property declaration it cannot read (line 2),"
        + " no stored properties"
    ),
    (
      "protocol Base {}\nextension Base {\n func encode(to encoder: any Encoder) throws {}\n}\n"
        + "protocol Model: Base {}\nstruct User: Model, Codable { var id: Int }",
      "App.swift:6: note: User: not generated, for an encode(to:) or init(from:) from an extension of a protocol (Model)"
    ),
    (
      "typealias Cash = Money\nstruct Money: Codable { var cents: Int }\n"
        + "extension Cash {\n init(from decoder: any Decoder) throws { cents = 0 }\n}",
      "App.swift:2: note: Money: not generated, for a hand-written init(from:)"
    ),
    (
      "struct Money: Codable { var cents: Int }\nextension Elsewhere.Money {\n"
        + " func encode(to encoder: any Encoder) throws {}\n}",
      "App.swift:1: note: Money: not generated, for a hand-written encode(to:) in an extension of"
        + " Elsewhere.Money"
    ),
    (
      "struct P: OptionSet, Codable { let rawValue: Int }",
      "App.swift:1: note: P: not generated, for the standard library's Codable (it adopts OptionSet)"
    ),
    (
      "struct ID: Codable, Hashable {\n let rawValue: String\n}\nextension ID: RawRepresentable {\n"
        + " init(rawValue: String) { self.rawValue = rawValue }\n}",
      "App.swift:1: note: ID: not generated, for the standard library's Codable (it adopts RawRepresentable)"
    ),
    (
      "protocol Base {}\nextension Base {\n func encode(to encoder: any Encoder) throws {}\n}\n"
        + "protocol Model where Self: Base {}\nstruct User: Model, Codable { var id: Int }",
      "App.swift:6: note: User: not generated, for an encode(to:) or init(from:) from an extension"
        + " of a protocol (Model)"
    ),
    (
      "protocol Base {}\nprotocol Other {}\nextension Base {\n"
        + " func encode(to encoder: any Encoder) throws {}\n}\ntypealias Model = Base & Other\n"
        + "struct User: Model, Codable { var id: Int }",
      "App.swift:7: note: User: not generated, for an encode(to:) or init(from:) from an extension"
        + " of a protocol (Model)"
    ),
    (
      "protocol Base {}\nextension Base {\n func encode(to encoder: any Encoder) throws {}\n}\n"
        + "struct User: Codable { var id: Int }\nextension Aliases.User: Base {}",
      "App.swift:5: note: User: not generated, for an encode(to:) or init(from:) from an extension"
        + " of a protocol (Base)"
    ),
    (
      "struct S: Codable {\n #Stored(\"x\", Int.self)\n var a: Int\n}",
      "App.swift:1: note: S: not generated, for the macro #Stored in its declaration"
    ),
    (
      "#if hasAttribute(Foo)\n@Foo\n#endif\nstruct S: Codable { var a: Int }",
      "App.swift:4: note: S: not generated, for attributes inside #if before it"
    ),
    (
      "struct S: @MainActor Codable { var a: Int }",
      "App.swift:1: note: S: not generated, for an isolated conformance"
    ),
    (
      "struct S { var a: Int }\n@MainActor extension S: Codable {}",
      "App.swift:1: note: S: not generated, for an extension with the attribute @MainActor"
    ),
    (
      "extension [String: Int] {\n struct Stats: Codable { var n: Int }\n}",
      "App.swift:2: note: Stats: not generated, for a declaration in an extension of a type it"
        + " cannot name"
    ),
    (
      "protocol Base {}\nextension Base {\n func encode(to encoder: any Encoder) throws {}\n}\n"
        + "typealias Model = Base\nstruct User: Model, Codable { var id: Int }",
      "App.swift:6: note: User: not generated, for an encode(to:) or init(from:) from an extension"
        + " of a protocol (Model)"
    ),
    (
      "protocol StringID: RawRepresentable, Hashable where RawValue == String {}\n"
        + "struct UserID: StringID, Codable { let rawValue: String }",
      "App.swift:2: note: UserID: not generated, for the standard library's Codable (it adopts"
        + " StringID)"
    ),
    (
      "enum E: Codable {\n case a(x: Int = Dictionary<String, Int>().count, y: Int)\n}",
      "App.swift:1: note: E: not generated, for a default value it cannot read (line 2)"
    ),
  ])
  func aDeclarationItCannotBeSureOfIsLeftToCodable(source: String, line: String) {
    #expect(report(source) == [line])
  }

  @Test func anExtensionNamedWithTheModuleIsTheTypes() {
    let source =
      "struct Money: Codable { var cents: Int }\nextension MyApp.Money {\n"
      + " func encode(to encoder: any Encoder) throws {}\n}"
    #expect(
      report(source, module: "MyApp") == [
        "App.swift:1: note: Money: not generated, for a hand-written encode(to:)"
      ])
  }

  @Test func bracesInRegularExpressionsDoNotEndADeclaration() {
    let source = #"""
      struct Doc: Codable {
        var title: String
        func words() -> Int { title.split(separator: /\}/).count }
        func lines() -> Int { title.split(separator: #/\{ "/#).count }
        var body = ""
        func half() -> Int { title.count / 2 }
        var footer = ""
      }
      struct After: Codable { var a: Int }
      """#
    #expect(
      report(source) == [
        "App.swift:1: note: Doc: generated encodeJSON(to:) and init(json:)",
        "App.swift:9: note: After: generated encodeJSON(to:) and init(json:)",
      ])
    #expect(generated(source).contains(#"try json.write("footer", self.footer)"#))
  }

  @Test func aFileWhoseBracesDoNotMatchStopsAllGeneration() {
    let source = "struct A: Codable { var a: Int }\n}\nstruct B: Codable { var b: Int }"
    #expect(
      report(source) == [
        "App.swift:2: warning: a '}' that closes nothing: the generator cannot match this file's"
          + " braces, so it generates nothing for the target (please report the file)",
        "App.swift:1: note: A: not generated, for braces it could not match (App.swift:2: a '}'"
          + " that closes nothing)",
      ])
    #expect(!generated(source).contains("extension"))
  }

  @Test func genericArgumentsFollowedByAMemberAreOneType() {
    let source = """
      enum E: Codable { case at(Array<Int>.Index), b }
      struct S: Codable {
        let i: Array<Int>.Index = 0
        var j: Dictionary<String, Int>? = nil
        var k: Int
      }
      """
    let text = generated(source)
    #expect(text.contains(#"self = .at(try value.read("_0"))"#))
    #expect(text.contains(#"try json.write("i", self.i)"#))
    #expect(!text.contains(#"self.i = "#))
    #expect(text.contains(#"self.j = try json.read("j")"#))
    #expect(text.contains(#"self.k = try json.read("k")"#))
  }

  @Test func namesThatNeedBackticksGetThem() {
    let source =
      "enum R: Codable { case `1080p`(Int), `Type` }\nstruct T: Codable { var `Type`: Int }"
    let text = generated(source)
    #expect(text.contains("case .`1080p`(let v0):\n      json.key(\"1080p\")"))
    #expect(text.contains("self = .`Type`"))
    #expect(text.contains("try json.write(\"Type\", self.`Type`)"))
  }

  @Test func theOptOutCommentWorksInAFileWithWindowsLineEnds() {
    let source =
      "struct A: Codable { var a: Int }\r\n// rewind-codegen: skip\r\nstruct B: Codable { var b: Int }\r\n"
    #expect(
      report(source) == [
        "App.swift:1: note: A: generated encodeJSON(to:) and init(json:)",
        "App.swift:3: note: B: not generated, for the comment 'rewind-codegen: skip'",
      ])
  }

  @Test func defaultValuesOfAssociatedValuesDoNotHideTheirKeys() {
    let source = """
      enum E: Codable {
        case page(range: Range<Int> = 0..<20, sort: String)
        case a(r: Range<Int> = 0..<5, f: Bool = 3 > 2, s: Int = 1 << 3)
        case b(x: Int,)
      }
      """
    let text = generated(source)
    #expect(
      text.contains(#"self = .page(range: try value.read("range"), sort: try value.read("sort"))"#))
    #expect(
      text.contains(
        #"self = .a(r: try value.read("r"), f: try value.read("f"), s: try value.read("s"))"#))
    #expect(text.contains(#"self = .b(x: try value.read("x"))"#))
  }

  @Test func aSlashThatIsAnOperatorIsNotARegularExpression() {
    let source = #"""
      struct Calc: Codable {
        var numbers: [Double]
        var op: (Double, Double) -> Double { (/) } // a/b
        func inverse() -> Double { numbers.reduce(1.0, /) } // 1/x
        func pick(_ strict: Bool) -> Bool { strict ? /\{/ : /x/ } != nil
        var total: Double
      }
      """#
    #expect(
      report(source) == ["App.swift:1: note: Calc: generated encodeJSON(to:) and init(json:)"])
    #expect(generated(source).contains(#"self.total = try json.read("total")"#))
  }

  @Test func availabilityOfOuterTypesAndOfTheConformingExtensionIsCarried() {
    let source = """
      @available(iOS 17, *) struct Feature {}
      extension Feature { enum Mode: String, Codable { case a } }
      struct S { var a: Int }
      @available(macOS 14, *) extension S: Codable {}
      """
    let text = generated(source)
    #expect(text.contains("@available(iOS 17, *)\nextension Feature.Mode: JSONDirectCodable {"))
    #expect(text.contains("@available(macOS 14, *)\nextension S: JSONDirectCodable {"))
  }

  @Test func aTypeAnnotationOverTwoLinesIsOneType() {
    let source = "struct S: Codable {\n let lookup: Dictionary<String,\n Int> = [:]\n var b: Int\n}"
    let text = generated(source)
    #expect(text.contains(#"try json.write("lookup", self.lookup)"#))
    #expect(!text.contains("self.lookup ="))
    #expect(text.contains(#"self.b = try json.read("b")"#))
  }

  @Test func inAMainActorModuleOnlyNonisolatedTypesAreGenerated() {
    var generator = DirectCodingGenerator(isMainActorByDefault: true)
    generator.add(
      source: "nonisolated struct A: Codable { var a: Int }\nstruct B: Codable { var b: Int }",
      path: "App.swift")
    #expect(
      generator.report == [
        "App.swift:1: note: A: generated encodeJSON(to:) and init(json:)",
        "App.swift:2: note: B: not generated, for no nonisolated, in a module whose default"
          + " isolation is the main actor",
      ])
  }

  @Test func aSemicolonEndsAStaticMember() {
    let text = generated(
      "struct Page: Codable { var title = \"\"; static let empty = Page(); var id = 0 }")
    #expect(text.contains(#"try json.write("id", self.id)"#))
  }

  @Test func aBacktickedTypeNameAndALabelSpelledLikeAKeyAreWrittenAsDeclared() {
    let text = generated(
      "struct Field {\n enum `Type`: String, Codable { case text }\n}\nenum P: Codable { case p(_0: Int) }"
    )
    #expect(text.contains("extension Field.`Type`: JSONDirectCodable {"))
    #expect(text.contains(#"self = .p(_0: try value.read("_0"))"#))
  }

  @Test func slashesSwiftReadsAsOperatorsOrLiteralsAreReadTheSameWay() {
    let source = #"""
      struct S: Codable {
        var ops: [(Double, Double) -> Double] { [+, -, *, /] }  // a/b
        func f() { reducer.ifLet(\.child, action: /Action.child) { Child() }  // parent/child
        }
        var opensBlock: Bool { (try? /\{/.firstMatch(in: text)) != nil }
        var pattern: Regex<Substring> {
          Regex {
            Capture { OneOrMore(.word) }
            /\s*=\s*\{/
          }
        }
        var hash = /#/
        var id: Int
      }
      struct After: Codable { var a: Int }
      """#
    #expect(
      report(source) == [
        "App.swift:1: note: S: generated encodeJSON(to:) and init(json:)",
        "App.swift:15: note: After: generated encodeJSON(to:) and init(json:)",
      ])
  }
}
