import Foundation
import Rewind
import RewindExamples
import Testing

private func json(_ value: some Encodable) throws -> String {
  let encoder = JSONEncoder()
  encoder.outputFormatting = .sortedKeys
  return String(decoding: try encoder.encode(value), as: UTF8.self)
}

/// Applies `actions` in order, starting from `state`.
private func apply(_ actions: TodoAction..., to state: TodoState = TodoState()) -> TodoState {
  actions.reduce(state) { todoReducer.reduced($0, $1) }
}

/// Three todos with ids 1, 2, 3; the second one is done.
private let threeTodos = TodoState(
  todos: [
    Todo(id: 1, title: "one", done: false),
    Todo(id: 2, title: "two", done: true),
    Todo(id: 3, title: "three", done: false),
  ],
  nextID: 4)

@Suite struct TodoExampleTests {
  @Test func newStateIsEmptyShowsAllAndStartsIDsAtOne() {
    #expect(TodoState() == TodoState(todos: [], filter: .all, nextID: 1))
  }

  @Test func addAppendsAnOpenTodoWithTheNextID() {
    let state = apply(.add(title: "Buy milk"), .add(title: "Walk dog"))
    #expect(
      state.todos == [
        Todo(id: 1, title: "Buy milk", done: false),
        Todo(id: 2, title: "Walk dog", done: false),
      ])
    #expect(state.nextID == 3)
  }

  @Test func addTakesTheIDFromNextIDWhateverItIs() {
    let state = apply(.add(title: "x"), to: TodoState(nextID: 41))
    #expect(state.todos == [Todo(id: 41, title: "x", done: false)])
    #expect(state.nextID == 42)
  }

  @Test func idsAreNotReusedAfterARemove() {
    let state = apply(.add(title: "a"), .remove(id: 1), .add(title: "b"))
    #expect(state.todos == [Todo(id: 2, title: "b", done: false)])
  }

  @Test func toggleFlipsDoneOfThatTodoOnly() {
    let once = apply(.toggle(id: 1), to: threeTodos)
    #expect(once.todos.map(\.done) == [true, true, false])
    let twice = apply(.toggle(id: 2), to: once)
    #expect(twice.todos.map(\.done) == [true, false, false])
    #expect(apply(.toggle(id: 3), .toggle(id: 3), to: threeTodos) == threeTodos)
  }

  @Test func renameChangesTheTitleOfThatTodoOnly() {
    let state = apply(.rename(id: 2, title: "TWO"), to: threeTodos)
    #expect(state.todos.map(\.title) == ["one", "TWO", "three"])
    #expect(state.todos.map(\.done) == [false, true, false])
  }

  @Test func removeDeletesThatTodoOnly() {
    let state = apply(.remove(id: 2), to: threeTodos)
    #expect(state.todos.map(\.id) == [1, 3])
    #expect(state.nextID == 4)
  }

  @Test(arguments: [
    TodoAction.toggle(id: 99),
    .rename(id: 99, title: "nobody"),
    .remove(id: 99),
    .toggle(id: 0),
    .remove(id: -1),
  ])
  func actionOnAnUnknownIDChangesNothing(action: TodoAction) {
    #expect(apply(action, to: threeTodos) == threeTodos)
  }

  @Test(arguments: [
    (0, 2, [2, 3, 1]),
    (2, 0, [3, 1, 2]),
    (0, 1, [2, 1, 3]),
    (1, 1, [1, 2, 3]),
    (2, 2, [1, 2, 3]),
  ])
  func moveTakesTheTodoAtOnePositionToAnother(from: Int, to: Int, expectedIDs: [Int]) {
    let state = apply(.move(from: from, to: to), to: threeTodos)
    #expect(state.todos.map(\.id) == expectedIDs)
    #expect(state.nextID == 4)
  }

  @Test func moveInAOneTodoListKeepsIt() {
    let state = apply(.add(title: "only"), .move(from: 0, to: 0))
    #expect(state.todos == [Todo(id: 1, title: "only", done: false)])
  }

  @Test(arguments: [Filter.all, .active, .completed])
  func setFilterChangesOnlyTheFilter(filter: Filter) {
    let state = apply(.setFilter(filter), to: threeTodos)
    #expect(state.filter == filter)
    #expect(state.todos == threeTodos.todos)
  }

  @Test func clearCompletedRemovesEveryDoneTodo() {
    let state = apply(.toggle(id: 3), .clearCompleted, to: threeTodos)
    #expect(state.todos == [Todo(id: 1, title: "one", done: false)])
    #expect(state.nextID == 4)
  }

  @Test func clearCompletedWithNothingDoneChangesNothing() {
    let open = apply(.toggle(id: 2), to: threeTodos)
    #expect(apply(.clearCompleted, to: open) == open)
    #expect(apply(.clearCompleted) == TodoState())
  }

  @Test(arguments: [
    (Filter.all, [1, 2, 3]),
    (Filter.active, [1, 3]),
    (Filter.completed, [2]),
  ])
  func visibleTodosFollowTheFilter(filter: Filter, expectedIDs: [Int]) {
    var state = threeTodos
    state.filter = filter
    #expect(state.visibleTodos.map(\.id) == expectedIDs)
  }

  @Test(arguments: [Filter.all, .active, .completed])
  func noTodosAreVisibleInAnEmptyList(filter: Filter) {
    #expect(TodoState(filter: filter).visibleTodos.isEmpty)
  }

  @Test(arguments: [
    (TodoAction.add(title: "Buy milk"), #"{"add":{"title":"Buy milk"}}"#),
    (TodoAction.toggle(id: 1), #"{"toggle":{"id":1}}"#),
    (TodoAction.rename(id: 2, title: "Call mum"), #"{"rename":{"id":2,"title":"Call mum"}}"#),
    (TodoAction.remove(id: 3), #"{"remove":{"id":3}}"#),
    (TodoAction.move(from: 0, to: 2), #"{"move":{"from":0,"to":2}}"#),
    (TodoAction.setFilter(.active), #"{"setFilter":{"_0":"active"}}"#),
    (TodoAction.clearCompleted, #"{"clearCompleted":{}}"#),
  ])
  func actionEncodesAsSynthesizedCodableShape(action: TodoAction, expected: String) throws {
    #expect(try json(action) == expected)
    #expect(try JSONDecoder().decode(TodoAction.self, from: Data(expected.utf8)) == action)
  }

  @Test func stateEncodesItsTodosFilterAndNextID() throws {
    let state = apply(.add(title: "Buy milk"), .toggle(id: 1), .setFilter(.completed))
    let expected =
      #"{"filter":"completed","nextID":2,"todos":[{"done":true,"id":1,"title":"Buy milk"}]}"#
    #expect(try json(state) == expected)
    #expect(try JSONDecoder().decode(TodoState.self, from: Data(expected.utf8)) == state)
  }

  @Test func storeRunsTheTodoReducer() {
    let store = Store(initialState: TodoState(), reducer: todoReducer)
    let visible = StoreTestLog<[String]>()
    let visibleTitles: @Sendable (TodoState) -> [String] = { $0.visibleTodos.map(\.title) }
    let subscription = store.subscribe(select: visibleTitles) {
      visible.append($0)
    }
    store.dispatch(.add(title: "a"))
    store.dispatch(.add(title: "b"))
    store.dispatch(.toggle(id: 1))
    store.dispatch(.setFilter(.active))
    store.dispatch(.setFilter(.active))
    #expect(visible.elements == [["a"], ["a", "b"], ["b"]])
    #expect(store.state.nextID == 3)
    _ = subscription
  }
}
