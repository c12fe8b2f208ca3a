// The app side of the Swidux recipe, as a Swidux app has it: actions are enums conforming to
// `Action`, reducers over parts of the state are lifted through key paths, and a middleware
// dispatches an action of its own after another. It imports only Swidux (here its stand-in);
// the recording glue is in SwiduxTodo+Recording.swift.
import SwiduxStandIn

/// One item of the Swidux todo list.
public struct SwiduxTodoItem: Codable, Equatable, Sendable {
  /// A unique id.
  public var id: Int
  /// The text.
  public var title: String
  /// Whether it is done.
  public var done: Bool
}

/// The todo list: the part of the state ``swiduxTodoListReducer`` reduces.
public struct SwiduxTodoList: Codable, Equatable, Sendable {
  /// The items, in display order.
  public var items: [SwiduxTodoItem] = []
  /// The id the next item gets.
  public var nextID = 1
}

/// The state of the Swidux todo app.
public struct SwiduxTodoState: Codable, Equatable, Sendable {
  /// The list.
  public var list = SwiduxTodoList()
  /// How many items were ever completed (raised by ``SwiduxStatsAction/completed(id:)``).
  public var completedCount = 0

  /// An empty list.
  public init() {}
}

/// What views do to the list.
public enum SwiduxTodoAction: Action, Codable, Sendable {
  /// Adds an item.
  case add(title: String)
  /// Flips an item's `done`; an unknown id changes nothing.
  case toggle(id: Int)
  /// Removes an item; an unknown id changes nothing.
  case remove(id: Int)
}

/// What ``swiduxCompletionMiddleware`` dispatches.
public enum SwiduxStatsAction: Action, Codable, Sendable {
  /// An item became done.
  case completed(id: Int)
}

/// The list's reducer, over the list alone.
public var swiduxTodoListReducer: Reducer<SwiduxTodoList> {
  Reducer { list, action in
    switch action {
    case SwiduxTodoAction.add(let title):
      list.items.append(SwiduxTodoItem(id: list.nextID, title: title, done: false))
      list.nextID += 1
    case SwiduxTodoAction.toggle(let id):
      if let index = list.items.firstIndex(where: { $0.id == id }) {
        list.items[index].done.toggle()
      }
    case SwiduxTodoAction.remove(let id):
      list.items.removeAll { $0.id == id }
    default:
      break
    }
  }
}

/// The count's reducer, over the count alone.
public var swiduxCompletedCountReducer: Reducer<Int> {
  Reducer { count, action in
    if case SwiduxStatsAction.completed = action { count += 1 }
  }
}

/// The app's reducer: each part's, lifted to the app state. (A computed property: a Swidux
/// reducer holds a closure, so it is not `Sendable` and cannot be a global `let` in Swift 6.)
public var swiduxTodoReducer: Reducer<SwiduxTodoState> {
  .combine(reducers: [
    swiduxTodoListReducer.lift(\.list),
    swiduxCompletedCountReducer.lift(\.completedCount),
  ])
}

/// A middleware with a side effect: after a toggle has reached the reducer, it dispatches
/// ``SwiduxStatsAction/completed(id:)`` if the item is now done — an action of its own, which
/// the store runs after the toggle.
public var swiduxCompletionMiddleware: Middleware<SwiduxTodoState> {
  Middleware(run: { store in
    { next in
      { action in
        next(action)
        guard case SwiduxTodoAction.toggle(let id) = action,
          store.getState().list.items.contains(where: { $0.id == id && $0.done })
        else { return }
        store.dispatch(SwiduxStatsAction.completed(id: id))
      }
    }
  })
}
