import Rewind

/// The state of the "todo" example app.
public struct TodoState: Codable, Equatable, Sendable {
  /// The todos, in display order.
  public var todos: [Todo] = []
  /// Which todos the list shows.
  public var filter: Filter = .all
  /// The id the next added todo gets.
  public var nextID = 1

  /// Creates a todo state.
  public init(todos: [Todo] = [], filter: Filter = .all, nextID: Int = 1) {
    self.todos = todos
    self.filter = filter
    self.nextID = nextID
  }
}

/// One item of the todo list.
public struct Todo: Codable, Equatable, Sendable {
  /// A unique id, assigned from `TodoState.nextID`.
  public var id: Int
  /// The text of the todo.
  public var title: String
  /// Whether it is done.
  public var done: Bool

  /// Creates a todo.
  public init(id: Int, title: String, done: Bool) {
    self.id = id
    self.title = title
    self.done = done
  }
}

/// Which todos the list shows.
public enum Filter: String, Codable, Sendable {
  /// Every todo.
  case all
  /// Only todos not done.
  case active
  /// Only todos done.
  case completed
}

/// The actions of the "todo" example app.
public enum TodoAction: Codable, Equatable, Sendable {
  /// Appends `Todo(id: nextID, title: title, done: false)` and increments `nextID`.
  case add(title: String)
  /// Flips `done` of the todo with that id; an unknown id changes nothing.
  case toggle(id: Int)
  /// Renames the todo with that id; an unknown id changes nothing.
  case rename(id: Int, title: String)
  /// Removes the todo with that id; an unknown id changes nothing.
  case remove(id: Int)
  /// Moves the todo at array position `from` to array position `to`.
  ///
  /// - Important: Deliberately buggy, for the crash demo: there is **no bounds check**, so a
  ///   position out of range traps, the way a real app crashes in the field. The recorder writes
  ///   the action before the reducer runs, so the crash log ends with this action.
  case move(from: Int, to: Int)
  /// Sets which todos the list shows.
  case setFilter(Filter)
  /// Removes every todo that is done.
  case clearCompleted
}

/// The reducer of the "todo" example app.
///
/// `move(from:to:)` has an intentional bug (no bounds check) and traps on a position out of
/// range: `Fixtures/todo-crash.jsonl` is a log recorded by a process that died of it.
public let todoReducer = Reducer<TodoState, TodoAction> { state, action in
  switch action {
  case .add(let title):
    state.todos.append(Todo(id: state.nextID, title: title, done: false))
    state.nextID += 1
  case .toggle(let id):
    if let index = state.todos.firstIndex(where: { $0.id == id }) {
      state.todos[index].done.toggle()
    }
  case .rename(let id, let title):
    if let index = state.todos.firstIndex(where: { $0.id == id }) {
      state.todos[index].title = title
    }
  case .remove(let id):
    state.todos.removeAll { $0.id == id }
  case .move(let from, let to):
    // Intentionally unchecked: this is the example's crash (see the doc comment above).
    let todo = state.todos.remove(at: from)
    state.todos.insert(todo, at: to)
  case .setFilter(let filter):
    state.filter = filter
  case .clearCompleted:
    state.todos.removeAll { $0.done }
  }
}

extension TodoState {
  /// The todos that the current filter shows.
  public var visibleTodos: [Todo] {
    switch filter {
    case .all: return todos
    case .active: return todos.filter { !$0.done }
    case .completed: return todos.filter { $0.done }
    }
  }
}
