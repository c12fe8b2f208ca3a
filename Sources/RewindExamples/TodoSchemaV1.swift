import Rewind

/// The todo app's schema version today: raised from 1 when `add`'s `text` became `title` (in
/// actions and in the state's todos) and `archive(id:)` became `remove(id:)`.
public let todoSchema = 2

/// How `replay` reads todo logs of older schemas (docs/replay.md, "A log from an older build").
public let todoMigrations = [
  SchemaMigration(
    from: 1,
    actions: [.renameKey("text", to: "title", in: "add"), .renameCase("archive", to: "remove")],
    states: [.renameKey("text", to: "title", in: "todos[]")])
]

/// The todo app as schema 1 had it: `add` carried `text`, a todo's `title` was `text`, and
/// `archive(id:)` removed a todo (since renamed `remove`). Kept to record
/// `Fixtures/todo-v1.jsonl`, a log from that build, which `replay` reads through
/// ``todoMigrations``.
public enum TodoSchemaV1 {
  /// One item of the list, schema 1.
  public struct Todo: Codable, Equatable, Sendable {
    /// Its id.
    public var id: Int
    /// Its text (today's `title`).
    public var text: String
    /// Whether it is done.
    public var done: Bool
  }

  /// The state, schema 1 (the type's name is the same as today's, as in the app).
  public struct TodoState: Codable, Equatable, Sendable {
    /// The todos, in display order.
    public var todos: [Todo] = []
    /// Which todos the list shows.
    public var filter: Filter = .all
    /// The id the next todo gets.
    public var nextID = 1
    /// An empty list.
    public init() {}
  }

  /// The actions, schema 1.
  public enum TodoAction: Codable, Equatable, Sendable {
    /// Appends a todo with `text`.
    case add(text: String)
    /// Flips `done` of the todo `id`.
    case toggle(id: Int)
    /// Removes the todo `id` (today's `remove`).
    case archive(id: Int)
    /// Sets the filter.
    case setFilter(Filter)
  }

  /// The reducer, schema 1.
  public static let reducer = Reducer<TodoState, TodoAction> { state, action in
    switch action {
    case .add(let text):
      state.todos.append(Todo(id: state.nextID, text: text, done: false))
      state.nextID += 1
    case .toggle(let id):
      if let index = state.todos.firstIndex(where: { $0.id == id }) {
        state.todos[index].done.toggle()
      }
    case .archive(let id):
      state.todos.removeAll { $0.id == id }
    case .setFilter(let filter):
      state.filter = filter
    }
  }

  /// The session of `Fixtures/todo-v1.jsonl`.
  public static let session: [TodoAction] = [
    .add(text: "Buy milk"), .add(text: "Call mum"), .add(text: "Water the plants"),
    .toggle(id: 2), .add(text: "Book flights"), .archive(id: 1), .setFilter(.active),
    .add(text: "Read \"Dune\""), .toggle(id: 3), .archive(id: 2), .add(text: "Pay rent"),
    .setFilter(.all), .toggle(id: 5),
  ]

  /// The same action in today's schema.
  public static func today(_ action: TodoAction) -> RewindExamples.TodoAction {
    switch action {
    case .add(let text): return .add(title: text)
    case .toggle(let id): return .toggle(id: id)
    case .archive(let id): return .remove(id: id)
    case .setFilter(let filter): return .setFilter(filter)
    }
  }
}
