import Foundation
import Rewind

// The todo app's model declared again with its synthesized Codable alone: the RewindDirectCoding
// plugin generates its direct path (rewind-bench's row 1g sets it against the hand-written one
// of RewindExamples' `TodoAction`).

/// A todo action, as `RewindExamples.TodoAction` with no hand-written direct path.
public enum SampleTodoAction: Codable, Equatable, Sendable {
  case add(title: String)
  case toggle(id: Int)
  case rename(id: Int, title: String)
  case remove(id: Int)
  case move(from: Int, to: Int)
  case setFilter(SampleFilter)
  case clearCompleted
}

/// Which todos are shown.
public enum SampleFilter: String, Codable, Equatable, Sendable {
  case all, active, completed
}

/// One todo.
public struct SampleTodo: Codable, Equatable, Sendable {
  /// The todo's id.
  public var id: Int
  /// The todo's title.
  public var title: String
  /// Whether it is done.
  public var done: Bool

  /// A todo.
  public init(id: Int, title: String, done: Bool) {
    self.id = id
    self.title = title
    self.done = done
  }
}

/// The todo app's state.
public struct SampleTodoState: Codable, Equatable, Sendable {
  /// The todos, in order.
  public var todos: [SampleTodo]
  /// Which todos are shown.
  public var filter: SampleFilter
  /// The id of the next todo added.
  public var nextID: Int

  /// A state.
  public init(todos: [SampleTodo] = [], filter: SampleFilter = .all, nextID: Int = 1) {
    self.todos = todos
    self.filter = filter
    self.nextID = nextID
  }
}
