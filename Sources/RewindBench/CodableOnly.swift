import Rewind
import RewindExamples

/// A value coded through its `Codable` conformance only — never through its
/// ``JSONDirectEncodable`` or ``JSONDirectDecodable`` path — for the rows that show what the
/// direct path buys: the same bytes, through Codable's containers.
struct CodableOnly<Value: Codable & Sendable>: Codable, Sendable {
  var value: Value

  init(_ value: Value) { self.value = value }

  init(from decoder: any Decoder) throws { value = try Value(from: decoder) }

  func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
}

/// The todo reducer for actions that go through Codable only.
let codableOnlyTodoReducer = Reducer<TodoState, CodableOnly<TodoAction>> { state, action in
  todoReducer.reduce(&state, action.value)
}
