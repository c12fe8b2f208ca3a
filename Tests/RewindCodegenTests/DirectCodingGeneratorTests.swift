import Foundation
import RewindTestSupport
import Testing

@testable import RewindCodegen

/// What the generator reads from Swift source and what it writes.
@Suite struct DirectCodingGeneratorTests {
  private func generator(_ source: String) -> DirectCodingGenerator {
    var generator = DirectCodingGenerator()
    generator.add(source: source, path: "App.swift")
    return generator
  }

  @Test func theSamplesReportSaysWhyEachSkippedTypeIsSkipped() throws {
    let path = Repository.root.appendingPathComponent("Sources/CodegenSamples/SampleSkipped.swift")
    let source = try String(contentsOf: path, encoding: .utf8)
    #expect(
      generator(source).report == [
        "App.swift:7: note: SkippedCustomKeys: not generated, for a CodingKeys type",
        "App.swift:13: note: SkippedHandWritten: not generated, for a hand-written encode(to:)",
        "App.swift:25: note: SkippedGeneric: not generated, for generic parameters",
        "App.swift:30: note: SkippedClass: not generated, for being a class",
        "App.swift:36: note: SkippedByComment: not generated, for the comment 'rewind-codegen: skip'",
        "App.swift:41: note: SkippedPrivate: not generated, for the private property a",
        "App.swift:46: note: SkippedWrapped: not generated, for a property with the attribute @SampleClamped",
        "App.swift:51: note: SampleClamped: not generated, for the attribute @propertyWrapper",
        "App.swift:57: note: SkippedConditional: not generated, for its declaration inside #if",
        "App.swift:66: note: SkippedUnknownFirst: not generated, for a first inherited type, SampleMarker, that may be a raw type",
        "App.swift:73: note: SampleWrappers.Doubled: not generated, for the attribute @propertyWrapper",
        "App.swift:79: note: SkippedDottedWrapper: not generated, for a property with the attribute @SampleWrappers.Doubled",
        "App.swift:84: note: SkippedCaseKeys: not generated, for a CircleCodingKeys type",
        "App.swift:90: note: SkippedMemberIf: not generated, for #if inside its declaration",
      ])
  }

  @Test func aStructIsWrittenMemberByMemberAndALetWithAValueIsNotRead() {
    let source = """
      public struct Item: Codable {
        public let id: Int
        let kind = "item"
        var title: String = "" { didSet { print("}") } }
        var label: String { "\\(title) {" }
        static var count = 0
        var a = [1, 2]
        let b, c: Int?
      }
      """
    #expect(
      generator(source).generatedSource.hasSuffix(
        """
        extension Item: JSONDirectCodable {
          nonisolated public func encodeJSON(to json: inout JSONDirectWriter) throws {
            json.beginObject()
            try json.write("id", self.id)
            try json.write("kind", self.kind)
            try json.write("title", self.title)
            try json.write("a", self.a)
            try json.write("b", self.b)
            try json.write("c", self.c)
            json.endObject()
          }

          nonisolated public init(json: JSONDirectReader) throws {
            self.id = try json.read("id")
            self.title = try json.read("title")
            self.a = try json.read("a")
            self.b = try json.read("b")
            self.c = try json.read("c")
          }
        }

        """))
  }

  @Test func anEnumIsWrittenCaseByCaseWithItsLabels() {
    let source = """
      enum Action: Equatable, Codable {
        case open(_ path: String, line: Int = 1)
        case `default`, close
      }
      """
    #expect(
      generator(source).generatedSource.hasSuffix(
        """
        extension Action: JSONDirectCodable {
          nonisolated func encodeJSON(to json: inout JSONDirectWriter) throws {
            json.beginObject()
            switch self {
            case .open(let v0, let v1):
              json.key("open")
              json.beginObject()
              try json.write("_0", v0)
              try json.write("line", v1)
            case .`default`:
              json.key("default")
              json.beginObject()
            case .close:
              json.key("close")
              json.beginObject()
            }
            json.endObject()
            json.endObject()
          }

          nonisolated init(json: JSONDirectReader) throws {
            let (key, value) = try json.onlyMember()
            if key.matches("open") {
              self = .open(try value.read("_0"), line: try value.read("line"))
            } else if key.matches("default") {
              try value.requireObject()
              self = .`default`
            } else if key.matches("close") {
              try value.requireObject()
              self = .close
            } else {
              throw json.failure("no case of Action by this name")
            }
          }
        }

        """))
  }

  @Test func bracesInLiteralsAndCommentsDoNotEndADeclaration() {
    let source = #"""
      /* a comment with a brace { /* nested } */ still comment } */
      struct A: Codable {
        var x = "}" // }
        var y = #"raw "} \(not)"#
        var z = """
          multi } line \(["}"].count) "
          """
        var w = "\("interpolated \("}")")"
      }
      struct B: Codable { var b: Int }
      """#
    let report = generator(source).report
    #expect(
      report == [
        "App.swift:2: note: A: generated encodeJSON(to:) and init(json:)",
        "App.swift:10: note: B: generated encodeJSON(to:) and init(json:)",
      ])
    #expect(generator(source).generatedSource.contains(#"try json.write("w", self.w)"#))
  }

  @Test func extensionsAddConformancesNestingAndTheirProblems() {
    let source = """
      public struct Outer {}
      public extension Outer {
        struct Inner { var v: Int }
        enum Mode: String, Codable { case a }
      }
      extension Outer.Inner: Codable {}
      struct Coded: Decodable { var v: Int }
      extension Coded {
        init(from decoder: any Decoder) throws { v = 0 }
      }
      private struct Hidden: Codable { var v: Int }
      struct Written: Encodable { private(set) var v: Int }
      """
    #expect(
      generator(source).report == [
        "App.swift:3: note: Outer.Inner: generated encodeJSON(to:) and init(json:)",
        "App.swift:4: note: Outer.Mode: generated encodeJSON(to:) and init(json:)",
        "App.swift:7: note: Coded: not generated, for a hand-written init(from:)",
        "App.swift:11: note: Hidden: not generated, for private access",
        "App.swift:12: note: Written: generated encodeJSON(to:)",
      ])
    let generated = generator(source).generatedSource
    // Public conformances: the imports are public, for modules whose imports are internal.
    #expect(generated.contains("\npublic import Rewind\npublic import RewindJSON\n"))
    #expect(
      generated.contains("extension Outer.Inner: JSONDirectCodable {\n  nonisolated public func"))
    #expect(generated.contains("extension Written: JSONDirectEncodable {\n  nonisolated func"))
  }

  @Test func availabilityAndImportsAreCarriedOver() {
    let source = """
      import Foundation
      @preconcurrency import Dispatch
      import struct Foundation.URL
      #if canImport(UIKit)
      import UIKit
      #endif
      @available(macOS 14, iOS 17, *)
      struct New: Codable { var at: Date }
      """
    let generated = generator(source).generatedSource
    #expect(
      generated.contains(
        "import Rewind\nimport RewindJSON\n@preconcurrency import Dispatch\nimport Foundation\n"))
    #expect(generated.contains("\nimport struct Foundation.URL\n"))
    #expect(!generated.contains("UIKit"))
    #expect(
      generated.contains("@available(macOS 14, iOS 17, *)\nextension New: JSONDirectCodable {"))
  }

  @Test func aProtocolExtensionsCodingTakesThePlaceOfTheSynthesizedOne() {
    let source = """
      protocol Tagged: Codable {}
      extension Tagged {
        func encode(to encoder: any Encoder) throws {}
      }
      struct A: Tagged, Codable { var v: Int }
      struct D: Tagged { var v: Int }
      struct B: Codable { var v: Int }
      """
    #expect(
      generator(source).report == [
        "App.swift:5: note: A: not generated, for an encode(to:) or init(from:) from an extension of a protocol (Tagged)",
        "App.swift:7: note: B: generated encodeJSON(to:) and init(json:)",
      ])
    // D is Codable through Tagged, which the generator cannot see: it is left alone.
    let everywhere = "extension Encodable { func encode(to encoder: any Encoder) throws {} }\n"
    #expect(
      generator(everywhere + "struct C: Codable { var v: Int }").report == [
        "App.swift:2: note: C: not generated, for an encode(to:) or init(from:) from an extension of a protocol (Encodable)"
      ])
  }

  @Test func aSkippedDecodingHalfIsSaidInTheReport() {
    let source = "struct S: Codable { fileprivate(set) var v: Int }"
    #expect(
      generator(source).report == [
        "App.swift:1: note: S: generated encodeJSON(to:); not init(json:), for the property v, whose setter is not visible"
      ])
  }
}

/// The generator reads whatever source it is given to the end: broken and half-written code
/// included (a build runs it before the compiler has said anything).
@Suite struct DirectCodingGeneratorRobustnessTests {
  static let fragments = [
    "struct", "enum", "class", "extension", "protocol", "case", "var", "let", "func", "init",
    "static", "private(set)", "public", "@available(iOS 17, *)", "@Wrapper", "#if", "#endif",
    "#else", "A", "B.C", "Codable", "String", ":", ",", "=", "{", "}", "(", ")", "[", "]", "<",
    ">", "?", ".", "\"", "\"\"\"", "#\"", "\\(", "//", "/*", "*/", "\n", " ", "0", "_", "`x`",
    "where", "indirect", "CodingKeys", "encode(to", "from:", "->", "willSet", "import",
  ]

  @Test func randomFragmentsOfSwiftAreReadToTheEnd() {
    var random = SplitMix64(seed: 24)
    var generatedSomething = 0
    for _ in 0..<3_000 {
      let count = Int(random.next() % 60)
      let source = (0..<count).map { _ in
        Self.fragments[Int(random.next() % UInt64(Self.fragments.count))]
      }.joined(separator: random.next() % 2 == 0 ? " " : "")
      var generator = DirectCodingGenerator()
      generator.add(source: source, path: "Soup.swift")
      if generator.generatedSource.contains("extension ") { generatedSomething += 1 }
      _ = generator.report
    }
    // Some soups hold a whole declaration: the loop got past reading into generating.
    #expect(generatedSomething > 0)
  }

  @Test func everySwiftFileOfThisRepositoryIsRead() throws {
    var generator = DirectCodingGenerator()
    var files = 0
    for folder in ["Sources", "Tests"] {
      let root = Repository.root.appendingPathComponent(folder)
      let paths = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String }
      for path in paths ?? [] where path.hasSuffix(".swift") {
        let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
        generator.add(source: text, path: path)
        files += 1
      }
    }
    #expect(files > 400)
    let report = generator.report
    // A file whose braces it could not match would stop all generation (a regular expression
    // or a string literal read wrong, say).
    #expect(!report.contains { $0.contains("cannot match this file's braces") })
    // The one action type left out of a catalog, read across every target at once: the
    // stand-in's own `ReSwiftInit` (an app's target holds only its own actions).
    #expect(
      report.filter { $0.contains("warning:") }.map { $0.prefix { $0 != ":" } } == [
        "ReSwiftStandIn/ReSwiftStandIn.swift"
      ])
    #expect(
      report.contains {
        $0.hasSuffix("note: CounterAction: generated encodeJSON(to:) and init(json:)")
      })
    #expect(
      report.contains { $0.contains("SkippedCustomKeys: not generated, for a CodingKeys type") })
  }
}
