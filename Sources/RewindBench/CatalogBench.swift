import CodegenSamples
import Foundation
import Rewind
import RewindExamples
import RewindJSON
import StoreRecipes
import SwiduxRecipe

/// (14) Protocol-typed actions (an ``ActionCatalog``, as ReSwift and Swidux apps write them)
/// against the same actions as the cases of one enum, both with a synthesized `Codable` only:
/// 14a recorded with the default durability (a `write(2)` per line), 14b recorded into the
/// buffer (`.buffered`: the encoding alone, no system call per action), 14c decoded as the
/// replay engine decodes a line's action. A 10-item state, checkpoints off, the recorder driven
/// as an app does without a store (`willReduce`, the reducer, `didReduce`). The note of 14a
/// says how many values of the repository's real types the stream encoder had to encode twice.
struct CatalogBench {
  let directory: String
  let actionCount: Int
  let repetitions: Int

  func run() throws -> [Row] {
    let enumActions = (0..<actionCount).map(BenchItemAction.init(index:))
    let catalogActions = enumActions.map(\.protocolAction)
    /// Nanoseconds per action, recording the enum's cases.
    func recordEnum(_ durability: Durability) throws -> Double {
      let recorder = try Recorder<BenchItems, BenchItemAction>(
        path: path("enum", durability), app: "catalog-bench", initialState: BenchItems(),
        options: Self.options(durability))
      var state = BenchItems()
      let seconds = Stopwatch.seconds {
        for action in enumActions {
          recorder.willReduce(action)
          state.apply(action)
          recorder.didReduce(state)
        }
      }
      return try Self.closed(recorder, seconds: seconds, count: enumActions.count)
    }
    /// Nanoseconds per action, recording the same actions as the catalog's types.
    func recordCatalog(_ durability: Durability) throws -> Double {
      let recorder = try Recorder<BenchItems, CatalogAction<BenchItemCatalog>>(
        path: path("catalog", durability), app: "catalog-bench", initialState: BenchItems(),
        actions: BenchItemCatalog.self, options: Self.options(durability))
      var state = BenchItems()
      let seconds = Stopwatch.seconds {
        for action in catalogActions {
          recorder.willReduce(action)
          state.apply(action.enumAction)
          recorder.didReduce(state)
        }
      }
      return try Self.closed(recorder, seconds: seconds, count: catalogActions.count)
    }
    let buffered = Durability.buffered(capacity: 1 << 20)
    let recorded = try interleaved(
      repetitions,
      [
        { try recordCatalog(.processCrash) }, { try recordEnum(.processCrash) },
        { try recordCatalog(buffered) }, { try recordEnum(buffered) },
      ])
    let enumTexts = try actionTexts(label: "enum")
    let catalogTexts = try actionTexts(label: "catalog")
    let decoded = try interleaved(
      repetitions,
      [
        { try decode(CatalogAction<BenchItemCatalog>.self, catalogTexts) },
        { try decode(BenchItemAction.self, enumTexts) },
      ])
    let workload =
      "\(grouped(actionCount)) actions (add, toggle, rename, remove), a 10-item state, "
      + "checkpoints off, synthesized Codable on both sides"
    return [
      Row(
        id: "14a", title: "a catalog action recorded vs the same action as an enum case",
        subject: Figure(label: "catalog", unit: .nanosecondsPerAction, sample: recorded[0]),
        baseline: Figure(label: "enum", unit: .nanosecondsPerAction, sample: recorded[1]),
        target: .ratioAtMost(1.1),
        note: workload + ", default durability (a write(2) each); " + (try Self.fallbackNote())),
      Row(
        id: "14b", title: "a catalog action recorded vs an enum case, into the buffer",
        subject: Figure(label: "catalog", unit: .nanosecondsPerAction, sample: recorded[2]),
        baseline: Figure(label: "enum", unit: .nanosecondsPerAction, sample: recorded[3]),
        target: .ratioAtMost(1.1), note: workload + ", .buffered(capacity: 1 MiB)"),
      Row(
        id: "14c", title: "a catalog action decoded vs the same action as an enum case",
        subject: Figure(label: "catalog", unit: .nanosecondsPerAction, sample: decoded[0]),
        baseline: Figure(label: "enum", unit: .nanosecondsPerAction, sample: decoded[1]),
        target: .ratioAtMost(1.1),
        note: "each action's JSON from the 14b logs read into a tape and decoded as the replay "
          + "engine does (the direct path, else init(from:))"),
    ]
  }

  private func path(_ label: String, _ durability: Durability) -> String {
    "\(directory)/catalog-bench-\(label)-\(durability == .processCrash ? "write" : "buffered").jsonl"
  }

  private static func options(_ durability: Durability) -> RecordingOptions {
    RecordingOptions(durability: durability, checkpointInterval: 0, ifExists: .replace)
  }

  /// `seconds` per action in nanoseconds, once `recorder` closed without an error.
  private static func closed<Action>(
    _ recorder: Recorder<BenchItems, Action>, seconds: Double, count: Int
  ) throws -> Double {
    recorder.close()
    if case .stopped(let error) = recorder.status { throw error }
    return seconds * 1e9 / Double(count)
  }

  /// The action JSON of each line of the buffered log `label`.
  private func actionTexts(label: String) throws -> [[UInt8]] {
    let data = try Data(contentsOf: URL(fileURLWithPath: path(label, .buffered(capacity: 1 << 20))))
    var texts: [[UInt8]] = []
    for line in data.split(separator: UInt8(ascii: "\n")) {
      guard case .object(let members) = try JSONParser.parse(Array(line)),
        let action = members.first(where: { $0.key == "action" })?.value
      else { continue }
      var text: [UInt8] = []
      action.write(into: &text)
      texts.append(text)
    }
    guard texts.count == actionCount else {
      throw BenchError("the \(label) log holds \(texts.count) actions, not \(actionCount)")
    }
    return texts
  }

  /// Nanoseconds per action to decode `texts` as the replay engine decodes a line's action.
  private func decode<Action: Decodable>(_ type: Action.Type, _ texts: [[UInt8]]) throws -> Double {
    let document = JSONTapeDocument()
    let direct = JSONDirectCoding.decoder(for: Action.self)
    let seconds = try Stopwatch.seconds {
      for text in texts {
        try text.withUnsafeBytes { bytes in
          guard document.load(bytes) else { throw BenchError("an action's JSON did not load") }
          if let direct, let action = try? direct(document, document.root) {
            blackHole(action)
          } else {
            blackHole(try document.decode(Action.self, at: document.root))
          }
        }
      }
    }
    return seconds * 1e9 / Double(texts.count)
  }

  /// How many values of the repository's example types the stream encoder (their `encode(to:)`,
  /// not their direct paths) could not write in one pass and encoded again in its buffered mode.
  static func fallbackNote() throws -> String {
    let encoder = JSONStreamEncoder()
    var output: [UInt8] = []
    var parts: [String] = []
    for (family, values) in fallbackSamples() {
      let counter = JSONStreamFallbackCounter()
      try JSONStreamFallbackCounter.$current.withValue(counter) {
        for value in values {
          output.removeAll(keepingCapacity: true)
          try encoder.encode(value, into: &output)
        }
      }
      let types = counter.byType.keys.sorted().joined(separator: ", ")
      parts.append(
        "\(family) \(counter.total) of \(grouped(values.count))"
          + (types.isEmpty ? "" : " (\(types))"))
    }
    return "values encoded twice (the stream encoder's buffered mode): "
      + parts.joined(separator: ", ")
  }

  /// Values of the repository's example types, by where they come from: what
  /// ``fallbackNote()`` encodes.
  static func fallbackSamples() -> [(String, [any Encodable])] {
    var todo: [any Encodable] = []
    var workload = TodoWorkload(seed: 5)
    var state = TodoState()
    for _ in 0..<1_000 {
      let action = workload.next(for: state)
      todoReducer.reduce(&state, action)
      todo += [action, state] as [any Encodable]
    }
    let id = UUID(uuidString: "00000000-0000-4000-8000-000000000001") ?? UUID()
    let date = Date(timeIntervalSinceReferenceDate: 812_345_678.5)
    let examples: [any Encodable] =
      todo + [
        CounterAction.increment, CounterAction.decrement, CounterAction.add(3),
        CounterState(count: 4), JournalAction.write(id: id, text: "day one", at: date),
        JournalAction.delete(id: id),
        JournalState(entries: [JournalEntry(id: id, text: "day one", writtenAt: date)]),
      ]
    let todoSample = SampleTodo(id: 1, title: "milk", done: false)
    let samples: [any Encodable] = [
      SampleTodoAction.add(title: "milk"), SampleTodoAction.toggle(id: 1),
      SampleTodoAction.rename(id: 1, title: "eggs"), SampleTodoAction.remove(id: 1),
      SampleTodoAction.move(from: 0, to: 1), SampleTodoAction.setFilter(.active),
      SampleTodoAction.clearCompleted,
      SampleTodoState(todos: [todoSample], filter: .completed, nextID: 2),
      SampleShape.point, SampleShape.circle(1.5), SampleShape.rect(width: 2, height: 3),
      SampleShape.labeled("a", count: 2, nil), SampleShape.labeled("b", count: 1, "note"),
      SampleShape.group([.point, .circle(1)]), SampleShape.framed(.point, margin: nil),
      SampleShape.framed(.rect(width: 1, height: 1), margin: 4), SampleShape.default,
      SampleProfile(
        name: "ann", nickname: nil, age: 30, score: 0.5, ratio: 0.25, tags: ["a"],
        counts: ["b": 2, "a": 1], friends: [todoSample], best: todoSample, joined: date,
        default: true, level: .high),
      SampleCalc(numbers: [1, 2.5], total: 3.5), SampleReadOnly(count: 3),
      SampleOuter.Inner(value: 1, text: nil), SampleOuter.Kind.second, SampleSwitch.on,
      SampleQuery.page(range: 0..<20, sort: "title"), SampleQuery.flags(on: true, mask: 8),
      SampleQuery.at(2), SampleRatio.half, SampleByte.high,
    ]
    let catalog: [any Encodable] = (0..<8).compactMap {
      CatalogAction<BenchItemCatalog>(BenchItemAction(index: $0).protocolAction)
    }
    let reSwift: [any Encodable] = [
      CatalogAction<StoreRecipes.RecordedActions>(AddTodo(title: "milk")),
      CatalogAction<StoreRecipes.RecordedActions>(ToggleTodo(id: 1)),
      CatalogAction<StoreRecipes.RecordedActions>(RemoveTodo(id: 1)),
      CatalogAction<StoreRecipes.RecordedActions>(ItemCompleted(id: 1)),
    ].compactMap { $0 }
    let swidux: [any Encodable] = [
      CatalogAction<SwiduxRecipe.RecordedActions>(SwiduxTodoAction.add(title: "milk")),
      CatalogAction<SwiduxRecipe.RecordedActions>(SwiduxTodoAction.toggle(id: 1)),
      CatalogAction<SwiduxRecipe.RecordedActions>(SwiduxTodoAction.remove(id: 1)),
      CatalogAction<SwiduxRecipe.RecordedActions>(SwiduxStatsAction.completed(id: 1)),
    ].compactMap { $0 }
    let recipes: [any Encodable] =
      reSwift + swidux + [
        ReSwiftTodoState(), SwiduxTodoState(), RecombineCounterState(),
        RecombineCounterAction.Refined.increment, RecombineCounterAction.Refined.set(3),
        RecombineCounterAction.Refined.factLoaded("fact"),
      ]
    return [
      ("RewindExamples", examples), ("CodegenSamples", samples),
      ("StoreRecipes and SwiduxRecipe", recipes), ("the benchmark's catalog actions", catalog),
    ]
  }
}

/// The benchmark's 10 items.
struct BenchItems: Codable, Equatable, Sendable {
  struct Item: Codable, Equatable, Sendable {
    var title: String
    var done = false
  }
  var items = (0..<10).map { Item(title: "item \($0)") }

  mutating func apply(_ action: BenchItemAction) {
    switch action {
    case .addItem(let title): items[title.utf8.count % 10] = Item(title: title)
    case .toggleItem(let id): items[id % 10].done.toggle()
    case .renameItem(let id, let title): items[id % 10].title = title
    case .removeItem(let id): items[id % 10] = Item(title: "")
    }
  }
}

/// The benchmark's actions as the cases of one enum.
enum BenchItemAction: Codable, Equatable, Sendable {
  case addItem(title: String)
  case toggleItem(id: Int)
  case renameItem(id: Int, title: String)
  case removeItem(id: Int)

  /// The action at `index` of the workload: mostly toggles, then adds and renames.
  init(index: Int) {
    switch index % 8 {
    case 0, 1: self = .addItem(title: "buy item \(index)")
    case 2, 3, 4: self = .toggleItem(id: index % 10)
    case 5, 6: self = .renameItem(id: index % 10, title: "renamed \(index)")
    default: self = .removeItem(id: index % 10)
    }
  }

  /// The same action as its own type.
  var protocolAction: any BenchItemProtocolAction {
    switch self {
    case .addItem(let title): AddItem(title: title)
    case .toggleItem(let id): ToggleItem(id: id)
    case .renameItem(let id, let title): RenameItem(id: id, title: title)
    case .removeItem(let id): RemoveItem(id: id)
    }
  }
}

/// The benchmark's actions as separate types, as a ReSwift app declares them.
protocol BenchItemProtocolAction: Sendable {
  /// The same action as an enum case, for the shared reducer.
  var enumAction: BenchItemAction { get }
}

struct AddItem: BenchItemProtocolAction, Codable {
  var title: String
  var enumAction: BenchItemAction { .addItem(title: title) }
}

struct ToggleItem: BenchItemProtocolAction, Codable {
  var id: Int
  var enumAction: BenchItemAction { .toggleItem(id: id) }
}

struct RenameItem: BenchItemProtocolAction, Codable {
  var id: Int
  var title: String
  var enumAction: BenchItemAction { .renameItem(id: id, title: title) }
}

struct RemoveItem: BenchItemProtocolAction, Codable {
  var id: Int
  var enumAction: BenchItemAction { .removeItem(id: id) }
}

/// The catalog of the benchmark's action types.
enum BenchItemCatalog: ActionCatalog {
  typealias Base = any BenchItemProtocolAction
  static let types: [any (Codable & Sendable).Type] = [
    AddItem.self, ToggleItem.self, RenameItem.self, RemoveItem.self,
  ]
}
