import Foundation
import ReSwiftStandIn
import Rewind
import RewindJSON
import RewindReplay
import RewindTestSupport
import StoreRecipes
import Testing

/// What the recorder catches as it records, through the ReSwift recipe: a reducer that reads the
/// clock or picks a random element (reported once per action type, with the action and the path
/// where the two runs part), a store that starts from another state than the header's, and an
/// action type the catalog does not list; a deterministic reducer reports nothing.
@Suite struct RecordTimeChecksTests {
  /// A todo item with when it was done: the reducer reads the clock.
  struct ClockState: Codable, Equatable, Sendable {
    var items: [ClockItem] = []
  }
  struct ClockItem: Codable, Equatable, Sendable {
    var title: String
    var doneAt: Double?
  }
  struct AddItem: Action, Codable, Sendable { var title: String }
  struct CheckItem: Action, Codable, Sendable { var index: Int }
  /// An animal name picked at random, as the SwiftUI tutorials' generator does.
  struct PickAnimal: Action, Codable, Sendable {}
  enum ClockActions: ActionCatalog {
    typealias Base = any Action
    static let types: [any (Codable & Sendable).Type] = [
      AddItem.self, CheckItem.self, PickAnimal.self,
    ]
  }
  struct AnimalState: Codable, Equatable, Sendable { var names: [String] = [] }

  static func clockReducer(action: Action, state: ClockState?) -> ClockState {
    var state = state ?? ClockState()
    switch action {
    case let add as AddItem: state.items.append(ClockItem(title: add.title))
    case let check as CheckItem where state.items.indices.contains(check.index):
      state.items[check.index].doneAt = Date().timeIntervalSinceReferenceDate
    default: break
    }
    return state
  }

  static func animalReducer(action: Action, state: AnimalState?) -> AnimalState {
    var state = state ?? AnimalState()
    if action is PickAnimal {
      state.names.append(
        ["cat", "dog", "owl", "fox", "eel", "yak", "emu", "gnu"].randomElement() ?? "")
    }
    return state
  }

  /// Errors reported through `onError`, in order.
  final class Reports: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [RecorderError] = []
    func add(_ error: RecorderError) { lock.withLock { errors.append(error) } }
    var all: [RecorderError] { lock.withLock { errors } }
  }

  @Test func aReducerThatReadsTheClockIsReportedWithTheActionAndThePath() throws {
    let path = RecipeLog.temporaryPath("clock")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let reports = Reports()
    let recorder = try Recorder(
      path: path, app: "clock", initialState: ClockState(), actions: ClockActions.self,
      options: RecordingOptions(determinismCheck: .sampled(every: 1)), onError: reports.add)
    let store = ReSwiftStandIn.Store(reducer: recorder.recording(Self.clockReducer), state: nil)
    store.dispatch(AddItem(title: "milk"))
    store.dispatch(AddItem(title: "eggs"))
    store.dispatch(CheckItem(index: 1))
    store.dispatch(CheckItem(index: 0))
    recorder.close()
    let found = reports.all.compactMap { error -> (Int, String, String)? in
      guard case .nondeterministicReducer(let seq, let type, let path, _, _) = error.reason
      else { return nil }
      return (seq, type, path)
    }
    // Once per action type: the second CheckItem is not reported again.
    #expect(found.count == 1)
    #expect(found.first?.0 == 3)
    #expect(found.first?.1 == "CheckItem")
    #expect(found.first?.2 == "items[1].doneAt")
    let text = try #require(reports.all.first).description
    #expect(text.contains("action 3 (CheckItem) gave items[1].doneAt: "))
    #expect(text.contains("carry the value in the action"))
  }

  @Test func aReducerThatPicksARandomElementIsReported() throws {
    let path = RecipeLog.temporaryPath("animals")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let reports = Reports()
    let recorder = try Recorder(
      path: path, app: "animals", initialState: AnimalState(), actions: ClockActions.self,
      options: RecordingOptions(determinismCheck: .sampled(every: 1)), onError: reports.add)
    let store = ReSwiftStandIn.Store(reducer: recorder.recording(Self.animalReducer), state: nil)
    // Eight names: two picks agree by chance with probability 1/8 each; 40 picks all agreeing
    // is (1/8)^40.
    for _ in 0..<40 { store.dispatch(PickAnimal()) }
    recorder.close()
    let found = reports.all.compactMap { error -> (String, String)? in
      guard case .nondeterministicReducer(_, let type, let path, _, _) = error.reason else {
        return nil
      }
      return (type, path)
    }
    #expect(found.count == 1)
    #expect(found.first?.0 == "PickAnimal")
    #expect(found.first?.1.hasPrefix("names[") == true)
  }

  @Test func aDeterministicReducerReportsNothingOver10000Actions() throws {
    let path = RecipeLog.temporaryPath("deterministic")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let reports = Reports()
    let recorder = try Recorder(
      path: path, app: "reswift-todo", initialState: ReSwiftTodoState(),
      actions: RecordedActions.self,
      options: RecordingOptions(checkpointInterval: 0, determinismCheck: .sampled(every: 1)),
      onError: reports.add)
    let store = ReSwiftStandIn.Store(reducer: recorder.recording(reSwiftTodoReducer), state: nil)
    for n in 0..<10_000 {
      switch n % 4 {
      case 0: store.dispatch(AddTodo(title: "item \(n)"))
      case 1: store.dispatch(ToggleTodo(id: n / 4 + 1))
      case 2: store.dispatch(ItemCompleted(id: n / 4 + 1))
      default: store.dispatch(RemoveTodo(id: n / 4))
      }
    }
    recorder.close()
    #expect(reports.all.map(\.description) == [])
    #expect(recorder.lastSeq == 10_000)
  }

  @Test func aStoreThatStartsFromAnotherStateThanTheHeaderIsReported() throws {
    let path = RecipeLog.temporaryPath("initial")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let reports = Reports()
    var live = ReSwiftTodoState()
    live.nextID = 7
    let recorder = try Recorder(
      path: path, app: "reswift-todo", initialState: ReSwiftTodoState(),
      actions: RecordedActions.self, onError: reports.add)
    let store = ReSwiftStandIn.Store(reducer: recorder.recording(reSwiftTodoReducer), state: live)
    store.dispatch(AddTodo(title: "milk"))
    store.dispatch(AddTodo(title: "eggs"))
    recorder.close()
    let differs = reports.all.compactMap { error -> (String, String, String)? in
      guard case .initialStateDiffers(let path, let header, let store) = error.reason else {
        return nil
      }
      return (path, header, store)
    }
    #expect(differs.count == 1)
    #expect(differs.first?.0 == "nextID")
    #expect(differs.first?.1 == "1")
    #expect(differs.first?.2 == "7")
    // The first action got a checkpoint: `verify` finds the difference there too.
    #expect(try RecipeLog.checkpointSeqs(path).first == 1)
    #expect(throws: LogAssertionFailure.self) {
      _ = try assertReplays(path, reducer: RecordedActions.reducer(reSwiftTodoReducer))
    }
  }

  @Test func releasingTheRecorderWritesTheFinalCheckpointOfTheReducersLastState() throws {
    let path = RecipeLog.temporaryPath("release")
    defer { try? FileManager.default.removeItem(atPath: path) }
    do {
      let recorder = try Recorder(
        path: path, app: "reswift-todo", initialState: ReSwiftTodoState(),
        actions: RecordedActions.self, options: RecordingOptions(checkpointInterval: 0))
      let store = ReSwiftStandIn.Store(
        reducer: recorder.recording(reSwiftTodoReducer), state: nil)
      store.dispatch(AddTodo(title: "milk"))
      store.dispatch(AddTodo(title: "eggs"))
    }
    let records = try RecipeLog.records(path)
    let last = try #require(records.last { $0["kind"] as? String == "checkpoint" })
    #expect(last["seq"] as? Int == 2)
    #expect(records.last?["kind"] as? String == "end")
  }
}

/// A catalog type that is an enum, as many ReSwift apps write their actions: its case name is a
/// type for every filter (`actions --type check`, `find type=check`), as the type's name is.
@Suite struct CatalogTypeFilterTests {
  enum ListAction: Action, Codable, Sendable {
    case check(id: Int)
    case add(title: String)
  }
  enum Actions: ActionCatalog {
    typealias Base = any Action
    static let types: [any (Codable & Sendable).Type] = [ListAction.self, AddTodo.self]
  }

  @Test func aCatalogEnumsCaseNameFiltersLikeItsTypeName() throws {
    let path = RecipeLog.temporaryPath("catalog-enum")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let recorder = try Recorder(
      path: path, app: "list", initialState: ReSwiftTodoState(), actions: Actions.self)
    recorder.willReduce(ListAction.add(title: "milk") as any Action)
    recorder.willReduce(ListAction.check(id: 1) as any Action)
    recorder.willReduce(AddTodo(title: "eggs") as any Action)
    recorder.close()
    let log = try ReplayLog(path: path, recovery: .strict)
    #expect(log.header.recordsCatalogActions)
    #expect(try log.action(at: 2, isOfType: "check"))
    #expect(try log.action(at: 2, isOfType: "ListAction"))
    #expect(try !log.action(at: 1, isOfType: "check"))
    #expect(try log.action(at: 3, isOfType: "AddTodo"))
    // A struct's one property is not a case name.
    #expect(try !log.action(at: 3, isOfType: "title"))
  }

  @Test func outsideACatalogOnlyTheTypeMatches() throws {
    let log = try ReplayLog(path: Repository.fixture("todo-session.jsonl"), recovery: .strict)
    #expect(!log.header.recordsCatalogActions)
    #expect(try log.action(at: 1, isOfType: "add"))
    #expect(try !log.action(at: 1, isOfType: "title"))
  }
}
