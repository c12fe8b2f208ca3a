// The app side of the ReSwift recipe, as a ReSwift app has it: each action is its own type,
// and the reducer returns a new state. It imports only ReSwift (here its stand-in); the
// recording glue is in ReSwiftTodo+Recording.swift.
import ReSwiftStandIn

/// One item of the ReSwift todo list.
public struct ReSwiftTodoItem: Codable, Equatable, Sendable {
  /// A unique id.
  public var id: Int
  /// The text.
  public var title: String
  /// Whether it is done.
  public var done: Bool
}

/// The state of the ReSwift todo app.
public struct ReSwiftTodoState: Codable, Equatable, Sendable {
  /// The items, in display order.
  public var items: [ReSwiftTodoItem] = []
  /// The id the next item gets.
  public var nextID = 1
  /// How many items were ever completed (raised by ``ItemCompleted``).
  public var completedCount = 0

  /// An empty list.
  public init() {}
}

/// Adds an item.
public struct AddTodo: Action, Codable, Sendable {
  /// The item's text.
  public var title: String
  /// Adds an item with `title`.
  public init(title: String) { self.title = title }
}

/// Flips an item's `done`.
public struct ToggleTodo: Action, Codable, Sendable {
  /// The item's id; an unknown id changes nothing.
  public var id: Int
  /// Toggles the item `id`.
  public init(id: Int) { self.id = id }
}

/// Removes an item.
public struct RemoveTodo: Action, Codable, Sendable {
  /// The item's id; an unknown id changes nothing.
  public var id: Int
  /// Removes the item `id`.
  public init(id: Int) { self.id = id }
}

/// Counts an item completed: dispatched by ``CompletionCounter``, a subscriber, while the
/// toggle that completed it is still being handled.
public struct ItemCompleted: Action, Codable, Sendable {
  /// The item's id.
  public var id: Int
  /// Counts item `id`.
  public init(id: Int) { self.id = id }
}

/// The reducer, in ReSwift's shape.
public func reSwiftTodoReducer(action: Action, state: ReSwiftTodoState?) -> ReSwiftTodoState {
  var state = state ?? ReSwiftTodoState()
  switch action {
  case let add as AddTodo:
    state.items.append(ReSwiftTodoItem(id: state.nextID, title: add.title, done: false))
    state.nextID += 1
  case let toggle as ToggleTodo:
    if let index = state.items.firstIndex(where: { $0.id == toggle.id }) {
      state.items[index].done.toggle()
    }
  case let remove as RemoveTodo:
    state.items.removeAll { $0.id == remove.id }
  case is ItemCompleted:
    state.completedCount += 1
  default:
    break
  }
  return state
}

/// A subscriber that dispatches ``ItemCompleted`` when an item becomes done: a nested dispatch,
/// which ReSwift runs at once, inside the dispatch of the toggle.
public final class CompletionCounter: StoreSubscriber {
  private let dispatch: DispatchFunction
  private var done: Set<Int> = []

  /// Counts completions into `store`.
  public init(store: Store<ReSwiftTodoState>) {
    dispatch = { [weak store] in store?.dispatch($0) }
  }

  /// Dispatches ``ItemCompleted`` for each item done since the last state.
  public func newState(state: ReSwiftTodoState) {
    let nowDone = Set(state.items.filter(\.done).map(\.id))
    let newlyDone = nowDone.subtracting(done).sorted()
    done = nowDone
    for id in newlyDone { dispatch(ItemCompleted(id: id)) }
  }
}
