import Foundation
import Testing

@testable import RewindCodegen

/// The `RecordedActions` catalog the generator writes for a target whose actions are types
/// conforming to `Action` (ReSwift, Swidux): every Codable and Sendable one, listed once.
@Suite struct ActionCatalogGenerationTests {
  private func generator(_ source: String) -> DirectCodingGenerator {
    var generator = DirectCodingGenerator()
    generator.add(source: source, path: "App.swift")
    return generator
  }

  @Test func everyCodableSendableActionTypeIsListedAndTheOthersAreSaidWhyNot() {
    let source = """
      import ReSwift

      public struct AddTodo: Action, Codable, Sendable { public var title: String }
      struct ToggleTodo: Codable, Sendable, Action { var id: Int }
      typealias AppAction = Action & Codable & Sendable
      enum Filter: AppAction { case all, active }
      struct NotCodable: Action, Sendable { var id: Int }
      struct NotSendable: Action, Codable { var id: Int }
      struct Later: Codable { var id: Int }
      extension Later: Action, Sendable {}
      struct State: Codable, Sendable { var n = 0 }
      """
    let generator = generator(source)
    let text = generator.generatedSource
    #expect(text.contains("enum RecordedActions: ActionCatalog {"))
    #expect(!text.contains("public enum RecordedActions"))
    #expect(text.contains("  typealias Base = any Action"))
    #expect(
      text.contains(
        """
          static let types: [any (Codable & Sendable).Type] = [
            AddTodo.self,
            ToggleTodo.self,
            Filter.self,
            Later.self,
          ]
        """))
    #expect(text.contains("import ReSwift"))
    let report = generator.report
    #expect(
      report.contains(
        "App.swift:7: warning: NotCodable conforms to Action but is not in RecordedActions, for not Codable; the recorder will mark its actions as unregistered"
      ))
    #expect(
      report.contains(
        "App.swift:8: warning: NotSendable conforms to Action but is not in RecordedActions, for not declared Sendable (a catalog's types are Codable & Sendable); the recorder will mark its actions as unregistered"
      ))
    #expect(report.last == "note: RecordedActions lists AddTodo, ToggleTodo, Filter, Later")
  }

  @Test func everyPublicTypeMakesAPublicCatalog() {
    let source = """
      public struct AddTodo: Action, Codable, Sendable { public var title: String }
      public struct RemoveTodo: Action, Codable, Sendable { public var id: Int }
      """
    #expect(generator(source).generatedSource.contains("public enum RecordedActions"))
    #expect(generator(source).generatedSource.contains("  public typealias Base = any Action"))
  }

  @Test func aTargetWithoutActionTypesGetsNoCatalog() {
    let source = "struct State: Codable, Sendable { var n = 0 }"
    #expect(!generator(source).generatedSource.contains("RecordedActions"))
    #expect(!generator(source).report.contains { $0.contains("RecordedActions") })
  }
}
