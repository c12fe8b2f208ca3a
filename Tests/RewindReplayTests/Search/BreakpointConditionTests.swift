import RewindJSON
import RewindReplay
import Testing

/// A condition that could never fire is refused or warned about, never set in silence: a
/// mistyped operator (`>>` read as `>` then a value `"> 3"`), a bare word (`activ` compared as a
/// string), a value of another kind than the one at the path.
@Suite struct BreakpointConditionTests {
  @Test(arguments: [
    (
      "if todos.count >> 3",
      "'>>' is not an operator: did you mean '>'? Operators are == != < <= > >= contains"
    ),
    (
      "if todos.count>>3",
      "'>>' is not an operator: did you mean '>'? Operators are == != < <= > >= contains"
    ),
    (
      #"if filter = "all""#,
      "'=' is not an operator: did you mean '=='? Operators are == != < <= > >= contains"
    ),
    ("if todos.count ~ 3", "'~' is not an operator: use one of == != < <= > >= contains"),
    (
      "if filter == activ",
      #"'activ' is not a value: did you mean "activ"? A string is quoted "#
        + #"(break if filter == "activ"); numbers, true, false and null are not"#
    ),
    (
      "if filter==activ",
      #"'activ' is not a value: did you mean "activ"? A string is quoted "#
        + #"(break if filter == "activ"); numbers, true, false and null are not"#
    ),
    (
      "if todos[0].title contains Buy milk",
      #"'Buy milk' is not a value: did you mean "Buy milk"? A string is quoted "#
        + #"(break if todos[0].title contains "Buy milk"); numbers, true, false and null are not"#
    ),
    (
      "if todos.count > > 3",
      "'> 3' is not a value: write one operator between the path and the value "
        + "(== != < <= > >= contains)"
    ),
    ("if == 3", "expected a path before '==', for example: break if todos.count > 3"),
    ("if todos.count >=", "expected a value after '>=', for example: break if todos.count > 3"),
  ])
  func conditionsThatCouldNeverFireAreRefused(text: String, message: String) {
    do {
      let parsed = try Breakpoint.parseBreak(text)
      Issue.record("\(text) parsed as \(parsed)")
    } catch {
      #expect(error.description == message)
    }
  }

  @Test func shrinkConditionsAreRefusedAlike() {
    do {
      let parsed = try ShrinkCondition.parse("filter == activ")
      Issue.record("parsed as \(parsed)")
    } catch {
      #expect(error.description.contains(#"did you mean "activ"? A string is quoted"#))
      #expect(!error.description.contains("break if"))
    }
  }

  @Test(arguments: [
    // The operator is found outside brackets and quotes only.
    (
      #"if todos[title="a == b"].done == true"#,
      Breakpoint.condition(
        JSONPath([.key("todos"), .matching(key: "title", value: #""a == b""#), .key("done")]),
        .equal,
        .bool(true))
    ),
    (
      #"if todos[0].title contains "x >> y""#,
      .condition(
        JSONPath([.key("todos"), .index(0), .key("title")]), .contains, .string("x >> y"))
    ),
    ("if deleted == null", .condition(JSONPath([.key("deleted")]), .equal, .null)),
    ("if count >= -2.5", .condition(JSONPath([.key("count")]), .greaterOrEqual, .number("-2.5"))),
  ])
  func jsonValuesAndQuotedOperatorsParse(text: String, expected: Breakpoint) throws {
    #expect(try Breakpoint.parseBreak(text) == expected)
  }

  @Test(arguments: [
    (
      Breakpoint.Comparison.greater, JSONValue.number("2"), JSONValue.string("3"),
      #"todos.count is a number here and "3" is a string: '>' compares values of one kind; "#
        + "did you mean 3?"
    ),
    (
      .equal, .string("all"), .number("3"),
      #"todos.count is a string here and 3 is a number: '==' compares values of one kind; "#
        + #"did you mean "3"?"#
    ),
    (
      .greater, .array([]), .number("3"),
      "todos.count is an array here: '>' compares numbers or strings; did you mean "
        + "todos.count.count?"
    ),
    (
      .contains, .number("1"), .number("1"),
      "todos.count is a number here: 'contains' looks in a string or an array"
    ),
    (
      .contains, .string("abc"), .bool(true),
      "todos.count is a string here: 'contains' looks in it for a string, and true is a boolean; "
        + #"did you mean "true"?"#
    ),
  ])
  func kindsThatCannotCompareAreExplained(
    comparison: Breakpoint.Comparison, actual: JSONValue, expected: JSONValue, message: String
  ) {
    #expect(comparison.mismatch(actual, expected, at: "todos.count") == message)
    #expect(!comparison.holds(actual, expected), "a mismatch is a condition that cannot hold")
  }

  @Test func kindsThatCanCompareAreNotAMismatch() {
    #expect(Breakpoint.Comparison.equal.mismatch(.number("1"), .number("2"), at: "x") == nil)
    #expect(Breakpoint.Comparison.equal.mismatch(.null, .number("2"), at: "x") == nil)
    #expect(Breakpoint.Comparison.notEqual.mismatch(.string("a"), .null, at: "x") == nil)
    #expect(Breakpoint.Comparison.contains.mismatch(.array([]), .number("2"), at: "x") == nil)
    #expect(Breakpoint.Comparison.contains.mismatch(.string("a"), .string("b"), at: "x") == nil)
    #expect(Breakpoint.Comparison.less.mismatch(.string("a"), .string("b"), at: "x") == nil)
  }

  @Test func conditionsAreToldFromPaths() {
    #expect(Breakpoint.isCondition("todos.count > 3"))
    #expect(Breakpoint.isCondition("filter==activ"))
    #expect(Breakpoint.isCondition(#"todos contains "a""#))
    #expect(!Breakpoint.isCondition("todos[id=3].title"))
    #expect(!Breakpoint.isCondition(#"["a=b"]"#))
    #expect(!Breakpoint.isCondition("todos.count"))
  }
}
