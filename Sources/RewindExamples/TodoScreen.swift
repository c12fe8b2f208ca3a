import Rewind

/// The todo app's screen, without a UI: what each of its controls does. Each method is one of
/// the app's call sites of `dispatch`, which a recorder that records origins writes on the
/// action's line (`"site":"RewindExamples/TodoScreen.swift:31"`), and `replay`'s `where N`
/// turns into a path an editor opens.
public struct TodoScreen: Sendable {
  /// The store the screen dispatches to.
  public let store: Store<TodoState, TodoAction>

  /// A screen over `store`.
  public init(store: Store<TodoState, TodoAction>) { self.store = store }

  /// The "Add" button, with the text field's title.
  public func addTapped(title: String) { store.dispatch(.add(title: title)) }

  /// A row's checkbox.
  public func checkboxTapped(id: Int) { store.dispatch(.toggle(id: id)) }

  /// A row's title, edited in place.
  public func titleEdited(id: Int, title: String) { store.dispatch(.rename(id: id, title: title)) }

  /// A row swiped away.
  public func rowDeleted(id: Int) { store.dispatch(.remove(id: id)) }

  /// A row dragged from one place in the list to another.
  public func rowDragged(from: Int, to: Int) { store.dispatch(.move(from: from, to: to)) }

  /// The filter picker.
  public func filterPicked(_ filter: Filter) { store.dispatch(.setFilter(filter)) }

  /// The "Clear completed" button.
  public func clearCompletedTapped() { store.dispatch(.clearCompleted) }

  /// Sends `action` through the control that dispatches it: how a scripted session (a fixture, a
  /// benchmark) drives the screen as a user would.
  public func perform(_ action: TodoAction) {
    switch action {
    case .add(let title): addTapped(title: title)
    case .toggle(let id): checkboxTapped(id: id)
    case .rename(let id, let title): titleEdited(id: id, title: title)
    case .remove(let id): rowDeleted(id: id)
    case .move(let from, let to): rowDragged(from: from, to: to)
    case .setFilter(let filter): filterPicked(filter)
    case .clearCompleted: clearCompletedTapped()
    }
  }
}

/// A middleware of the todo app that tidies up: when a checkbox marks a todo done and more than
/// `limit` todos would then be done, it dispatches ``TodoAction/clearCompleted`` — an action the
/// user never dispatched, whose cause (the `toggle`) a recorder that records origins writes.
public func todoAutoClear(limit: Int) -> Middleware<TodoState, TodoAction> {
  Middleware(name: "auto-clear") { action, context in
    guard case .toggle(let id) = action else { return action }
    let state = context.state
    guard let todo = state.todos.first(where: { $0.id == id }), !todo.done else { return action }
    if state.todos.filter(\.done).count + 1 > limit { context.dispatch(.clearCompleted) }
    return action
  }
}
