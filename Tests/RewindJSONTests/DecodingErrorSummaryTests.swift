import Foundation
import Testing

@testable import RewindJSON

@Suite struct DecodingErrorSummaryTests {
  struct Key: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue }
    init(intValue: Int) {
      self.stringValue = "Index \(intValue)"
      self.intValue = intValue
    }
  }

  @Test func rendersPathsWithDotsAndBrackets() {
    let path: [any CodingKey] = [
      Key(stringValue: "todos"), Key(intValue: 2), Key(stringValue: "title"),
    ]
    let error = DecodingError.typeMismatch(
      String.self,
      DecodingError.Context(codingPath: path, debugDescription: "expected String, found number"))
    #expect(error.pathDescription == "todos[2].title")
    #expect(error.reasonDescription == "expected String, found number")
    #expect(error.summary == "todos[2].title: expected String, found number")
  }

  @Test func putsTheMissingKeyAtTheEndOfThePath() {
    let error = DecodingError.keyNotFound(
      Key(stringValue: "title"),
      DecodingError.Context(codingPath: [Key(stringValue: "add")], debugDescription: "whatever"))
    #expect(error.summary == "add.title: key not found")
  }

  @Test func leavesThePathOutAtTheTopLevel() {
    let error = DecodingError.dataCorrupted(
      DecodingError.Context(codingPath: [], debugDescription: "number 300 does not fit in Int8"))
    #expect(error.pathDescription.isEmpty)
    #expect(error.summary == "number 300 does not fit in Int8")
  }

  @Test func bracketsIntegerDictionaryKeysAndKeepsOtherKeysDotted() {
    let path: [any CodingKey] = [
      JSONKey(stringValue: "scores"), JSONKey(intValue: 7), JSONKey(stringValue: "a b"),
    ]
    let error = DecodingError.valueNotFound(
      Int.self, DecodingError.Context(codingPath: path, debugDescription: ""))
    #expect(error.summary == "scores[7].a b: expected Int, found null")
  }

  @Test func summarizesFoundationsErrorsToo() throws {
    do {
      _ = try JSONDecoder().decode(
        [TodoAction].self, from: Data(#"[{"clear":{}},{"add":{}}]"#.utf8))
      Issue.record("decoded")
    } catch let error as DecodingError {
      #expect(error.summary == "[1].add.title: key not found")
    }
  }

  @Test func summarizesEncodingErrors() {
    let error = EncodingError.invalidValue(
      Double.nan,
      EncodingError.Context(
        codingPath: [Key(stringValue: "items"), Key(intValue: 0), Key(stringValue: "price")],
        debugDescription: "Double.nan cannot be encoded: JSON has no NaN or infinity\nmore"))
    #expect(error.pathDescription == "items[0].price")
    #expect(
      error.summary == "items[0].price: Double.nan cannot be encoded: JSON has no NaN or infinity")
  }
}
