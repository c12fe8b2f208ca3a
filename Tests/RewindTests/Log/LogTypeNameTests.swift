import Testing

@testable import Rewind

/// The type names a log's header holds, read from the runtime without `String(describing:)`'s
/// conformance checks: the same text as `String(describing:)`, which logs already hold.
@Suite struct LogTypeNameTests {
  enum Outer {
    struct Inner: Codable {}
    enum Action: Codable { case tap }
  }
  struct Page<Item> {}
  final class Store<State> {}

  @Test func theNameIsStringDescribingsForEveryKindOfType() {
    let types: [Any.Type] = [
      Int.self, String.self, Outer.self, Outer.Inner.self, Outer.Action.self,
      Page<Outer.Inner>.self, Page<[Outer.Action?]>.self, Store<[String: Int]>.self,
      (Int, String).self, Int?.self, [Page<Int>].self, LogTypeNameTests.self,
    ]
    for type in types {
      #expect(LogTypeName.of(type) == String(describing: type), "\(type)")
    }
    #expect(LogTypeName.of(Page<Outer.Inner>.self) == "Page<Inner>")
    #expect(LogTypeName.of(Outer.Action.self) == "Action")
  }

  @Test func aGenericContextNamesTheTypeItWasGiven() {
    func name<T>(_: T.Type) -> String { LogTypeName.of(T.self) }
    #expect(name(Page<Outer.Action>.self) == String(describing: Page<Outer.Action>.self))
  }
}
