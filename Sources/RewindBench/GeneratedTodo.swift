import CodegenSamples
import Rewind
import RewindExamples

// The todo actions as `SampleTodoAction`, whose direct path the RewindDirectCoding plugin
// generated from its synthesized Codable: rows 1j and 2f set it against TodoAction's hand-written
// one. The reducer maps each action to a TodoAction and runs the todo reducer.

extension SampleTodoAction {
  /// The same action as a sample action.
  init(_ action: TodoAction) {
    switch action {
    case .add(let title): self = .add(title: title)
    case .toggle(let id): self = .toggle(id: id)
    case .rename(let id, let title): self = .rename(id: id, title: title)
    case .remove(let id): self = .remove(id: id)
    case .move(let from, let to): self = .move(from: from, to: to)
    case .setFilter(let filter): self = .setFilter(SampleFilter(rawValue: filter.rawValue) ?? .all)
    case .clearCompleted: self = .clearCompleted
    }
  }

  /// The same action as a todo action.
  var todoAction: TodoAction {
    switch self {
    case .add(let title): .add(title: title)
    case .toggle(let id): .toggle(id: id)
    case .rename(let id, let title): .rename(id: id, title: title)
    case .remove(let id): .remove(id: id)
    case .move(let from, let to): .move(from: from, to: to)
    case .setFilter(let filter): .setFilter(Filter(rawValue: filter.rawValue) ?? .all)
    case .clearCompleted: .clearCompleted
    }
  }
}

/// The todo reducer for actions with a generated direct path.
let generatedTodoReducer = Reducer<TodoState, SampleTodoAction> { state, action in
  todoReducer.reduce(&state, action.todoAction)
}
