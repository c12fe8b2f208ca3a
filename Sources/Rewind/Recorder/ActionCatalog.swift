import Foundation
import RewindJSON

/// The action types of an app whose actions are separate types conforming to a protocol (as in
/// ReSwift: `struct AddTodo: Action`), listed once so that they can be recorded and replayed
/// without a hand-written wrapper enum.
///
/// Each listed type must be `Codable & Sendable`; an action is written as
/// `{"AddTodo":{…its fields…}}`, so the log's `type` is the Swift type's name. An action whose
/// type is not listed is not recorded: the log gets a `skipped` line (reason `unregistered`)
/// that `replay` warns about, and the recorder reports a ``RecorderError`` naming the type to
/// add — it never goes silently missing.
///
/// ```swift
/// enum TodoActions: ActionCatalog {
///   typealias Base = any ReSwift.Action
///   static let types: [any (Codable & Sendable).Type] = [AddTodo.self, ToggleTodo.self]
/// }
/// ```
public protocol ActionCatalog: Sendable {
  /// What the app's reducer takes: the actions' protocol, for example `any ReSwift.Action`.
  associatedtype Base
  /// Every action type the app dispatches. Names (the types' names without their module) must
  /// be unique: the log stores the name.
  static var types: [any (Codable & Sendable).Type] { get }
}

extension ActionCatalog {
  /// A replay reducer from a reducer of the ReSwift shape, `(Base, State?) -> State`: the one to
  /// give `ReplayApp` or `assertReplays` for logs recorded through ``Recorder/recording(_:)``.
  public static func reducer<State>(
    _ reduce: @escaping @Sendable (Base, State?) -> State
  ) -> Reducer<State, CatalogAction<Self>> {
    Reducer { state, recorded in state = reduce(recorded.action, state) }
  }
}

/// One action of an ``ActionCatalog``, as the recorder writes it and the replay reads it back:
/// `{"TypeName":{…}}`.
///
/// It is written and read in one pass, as an enum action is: the recorder writes the type's name
/// and then the action's own JSON straight after it (through the type's ``JSONDirectEncodable``
/// path when it has one, else its `encode(to:)`), and the replay reads the action from where its
/// JSON lies in the line (its ``JSONDirectDecodable`` path, else `init(from:)`), never a copy.
///
/// Why `@unchecked Sendable` is sound: an instance is made only from a value whose dynamic type
/// is one of the catalog's ``ActionCatalog/types``, each of which is `Sendable`.
public struct CatalogAction<Catalog: ActionCatalog>: Codable, @unchecked Sendable,
  CustomStringConvertible, JSONDirectCodable
{
  /// The action, as the app's reducer takes it.
  public let action: Catalog.Base
  /// The catalog's entry for the action's type.
  private let entry: CatalogEntry

  /// Wraps an action of one of the catalog's types; `nil` when its type is not listed (or
  /// shares its name with another listed type).
  public init?(_ action: Catalog.Base) {
    guard case .success(let wrapped) = Self.wrapping(action) else { return nil }
    self = wrapped
  }

  /// Wraps `action`, whose type's entry is `entry` (``CatalogLookup/entry(of:in:)``).
  init(action: Catalog.Base, entry: CatalogEntry) {
    self.action = action
    self.entry = entry
  }

  /// Wraps `action`, or says why it cannot be recorded.
  static func wrapping(_ action: Catalog.Base) -> Result<Self, UnrecordableAction> {
    CatalogLookup.entry(of: action, in: Catalog.self).map { Self(action: action, entry: $0) }
  }

  /// Reads `{"TypeName":{…}}`.
  /// - Throws: `DecodingError` when the object does not have exactly one key, when the name is
  ///   not in the catalog, or when the value does not decode as that type.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CatalogKey.self)
    let keys = container.allKeys
    guard keys.count == 1, let key = keys.first else {
      throw DecodingError.dataCorrupted(
        .init(
          codingPath: decoder.codingPath,
          debugDescription:
            "expected an object with one key, the action type's name, found \(keys.count) keys"))
    }
    let table = CatalogTable.of(Catalog.self)
    guard let entry = table.entry(named: key.stringValue) else {
      throw DecodingError.dataCorrupted(
        .init(
          codingPath: decoder.codingPath + [key],
          debugDescription:
            "unknown action type '\(key.stringValue)': it is not in \(Catalog.self).types "
            + "(\(table.names.joined(separator: ", ")))"))
    }
    let value = try entry.decode(from: container, key: key)
    guard let action = value as? Catalog.Base else {
      throw DecodingError.typeMismatch(
        Catalog.Base.self,
        .init(
          codingPath: decoder.codingPath + [key],
          debugDescription:
            "\(key.stringValue) is in \(Catalog.self).types but is not a \(Catalog.Base.self)"))
    }
    self.action = action
    self.entry = entry
  }

  /// Writes `{"TypeName":{…}}`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CatalogKey.self)
    try entry.encode(action, into: &container)
  }

  /// Writes `{"TypeName":{…}}`, the bytes ``encode(to:)`` gives, in one pass.
  /// - Throws: The action's error.
  public func encodeJSON(to json: inout JSONDirectWriter) throws {
    json.beginObject()
    json.key(named: entry.name)
    try entry.encodeJSON(action, to: &json)
    json.endObject()
  }

  /// Reads `{"TypeName":{…}}` where it lies in the log's line.
  /// - Throws: ``JSONDirectReaderError`` or the action's error when it does not read this way
  ///   (the replay then decodes with ``init(from:)``, whose error says why).
  public init(json: JSONDirectReader) throws {
    let (key, value) = try json.onlyMember()
    let name = key.string
    guard let entry = CatalogTable.of(Catalog.self).entry(named: name) else {
      throw JSONDirectReaderError(reason: "unknown action type '\(name)'", offset: 0)
    }
    guard let action = try entry.decodeJSON(value) as? Catalog.Base else {
      throw JSONDirectReaderError(reason: "\(name) is not a \(Catalog.Base.self)", offset: 0)
    }
    self.action = action
    self.entry = entry
  }

  /// The action's own description.
  public var description: String { String(describing: action) }
}

/// Finding an action's entry in its catalog: what wrapping it takes, apart from the wrapper.
enum CatalogLookup {
  /// The entry of `action`'s type in `catalog`, or why it cannot be recorded.
  ///
  /// Not a member of the generic ``CatalogAction``, and its `Result` not generic: the recorder
  /// calls it for every action in code that is not specialized for the app's catalog, where
  /// each generic type named costs a lookup of its metadata in the runtime's cache.
  static func entry<Catalog: ActionCatalog>(
    of action: Catalog.Base, in catalog: Catalog.Type
  ) -> Result<CatalogEntry, UnrecordableAction> {
    let type = type(of: action as Any)
    switch CatalogTable.of(catalog).lookup(type) {
    case .success(let entry): return .success(entry)
    case .failure(let miss):
      return .failure(
        UnrecordableAction(type: String(describing: type), catalog: "\(Catalog.self)", miss: miss))
    }
  }
}

/// One listed type: its name and how to code it as the member of that name. A class, so that
/// an action holds one reference to it, and each way of coding is one call into
/// ``TypedCatalogEntry``.
class CatalogEntry: @unchecked Sendable {
  // `@unchecked Sendable`: immutable; the subclass adds only `let`s of `Sendable` types.
  let name: String
  let key: CatalogKey
  /// Whether another listed type has the same name (neither can be recorded).
  let sharesName: Bool

  init(name: String, sharesName: Bool) {
    self.name = name
    self.key = CatalogKey(name)
    self.sharesName = sharesName
  }

  /// Encodes `action` as the member ``name`` of `container`.
  func encode(_ action: Any, into container: inout KeyedEncodingContainer<CatalogKey>) throws {
    throw EncodingError.invalidValue(
      action, .init(codingPath: container.codingPath, debugDescription: "no type for \(name)"))
  }

  /// Writes `action`'s own JSON (the member's value) with the direct writer. Generic rather than
  /// `Any`: an existential action boxed again as `Any` would cost an allocation and a slower cast.
  func encodeJSON<Base>(_ action: Base, to json: inout JSONDirectWriter) throws {
    throw JSONDirectWriterError(reason: "no type for \(name)")
  }

  /// Decodes the action from the member `key` of `container`.
  func decode(from container: KeyedDecodingContainer<CatalogKey>, key: CatalogKey) throws -> Any {
    throw DecodingError.dataCorrupted(
      .init(codingPath: container.codingPath, debugDescription: "no type for \(name)"))
  }

  /// Reads the action from its own JSON.
  func decodeJSON(_ json: JSONDirectReader) throws -> Any {
    throw JSONDirectReaderError(reason: "no type for \(name)", offset: 0)
  }
}

/// The entry of the listed type `T`.
private final class TypedCatalogEntry<T: Codable & Sendable>: CatalogEntry, @unchecked Sendable {
  /// `T`'s direct path, asked for once, not per action.
  private let direct = JSONDirectCoding.encoder(for: T.self)

  init(sharesName: Bool) {
    super.init(name: LogTypeName.of(T.self), sharesName: sharesName)
  }

  override func encode(
    _ action: Any, into container: inout KeyedEncodingContainer<CatalogKey>
  ) throws {
    try container.encode(typed(action, at: container.codingPath), forKey: key)
  }

  override func encodeJSON<Base>(_ action: Base, to json: inout JSONDirectWriter) throws {
    guard let typed = action as? T else {
      throw JSONDirectWriterError(reason: "\(Base.self) is not a \(T.self)")
    }
    if let direct {
      try direct.encode(typed, to: &json)
    } else {
      try json.encodeThroughCodable(typed)
    }
  }

  override func decode(
    from container: KeyedDecodingContainer<CatalogKey>, key: CatalogKey
  ) throws -> Any {
    try container.decode(T.self, forKey: key)
  }

  override func decodeJSON(_ json: JSONDirectReader) throws -> Any {
    try json.decode(T.self)
  }

  /// `action` as a `T`.
  /// - Throws: `EncodingError.invalidValue` when it is not one (it always is: the entry was
  ///   found by the action's type).
  private func typed(_ action: Any, at codingPath: [any CodingKey] = []) throws -> T {
    guard let typed = action as? T else {
      throw EncodingError.invalidValue(
        action, .init(codingPath: codingPath, debugDescription: "not a \(T.self)"))
    }
    return typed
  }
}

/// A catalog's types by identity and by name, made once per catalog. A class, so that finding
/// it costs one reference.
private final class CatalogTable: Sendable {
  let byType: [ObjectIdentifier: CatalogEntry]
  let byName: [String: CatalogEntry]
  let names: [String]

  private static let cache = Locked<[ObjectIdentifier: CatalogTable]>([:])
  /// The first table made and its catalog (a retained ``FirstTable``; 0 before), read without
  /// the lock: an app has one catalog, whose table every action it records looks up. Set once
  /// and never released.
  private static let first = AtomicWord(0)

  /// A table with the catalog it is for.
  private final class FirstTable: Sendable {
    let catalog: ObjectIdentifier
    let table: CatalogTable
    init(catalog: ObjectIdentifier, table: CatalogTable) {
      self.catalog = catalog
      self.table = table
    }
  }

  static func of<Catalog: ActionCatalog>(_ catalog: Catalog.Type) -> CatalogTable {
    let key = ObjectIdentifier(catalog)
    if let raw = UnsafeRawPointer(bitPattern: first.load()) {
      let known = Unmanaged<FirstTable>.fromOpaque(raw).takeUnretainedValue()
      if known.catalog == key { return known.table }
    }
    if let table = cache.withLock({ $0[key] }) { return table }
    let table = CatalogTable(types: Catalog.types)
    let kept = cache.withLock { cache -> CatalogTable in
      if let made = cache[key] { return made }
      cache[key] = table
      return table
    }
    if first.load() == 0 {
      let slot = Unmanaged.passRetained(FirstTable(catalog: key, table: kept))
      let address = Int(bitPattern: slot.toOpaque())
      if !first.compareExchange(expected: 0, desired: address) { slot.release() }
    }
    return kept
  }

  private init(types: [any (Codable & Sendable).Type]) {
    var counts: [String: Int] = [:]
    for type in types { counts[String(describing: type), default: 0] += 1 }
    var byType: [ObjectIdentifier: CatalogEntry] = [:]
    var byName: [String: CatalogEntry] = [:]
    var names: [String] = []
    for type in types {
      let entry = Self.entry(type, sharesName: counts[String(describing: type), default: 0] > 1)
      byType[ObjectIdentifier(type)] = entry
      if byName[entry.name] == nil {
        byName[entry.name] = entry
        names.append(entry.name)
      }
    }
    self.byType = byType
    self.byName = byName
    self.names = names
  }

  private static func entry<T: Codable & Sendable>(
    _ type: T.Type, sharesName: Bool
  ) -> CatalogEntry {
    TypedCatalogEntry<T>(sharesName: sharesName)
  }

  /// The entry of `type`, or why it has none.
  func lookup(_ type: Any.Type) -> Result<CatalogEntry, CatalogMiss> {
    guard let entry = byType[ObjectIdentifier(type)] else { return .failure(.unlisted) }
    // Of two types with one name, neither could be read back as itself.
    if entry.sharesName { return .failure(.sharedName) }
    return .success(entry)
  }

  func entry(named name: String) -> CatalogEntry? { byName[name] }
}

/// Why a type has no entry in a catalog.
enum CatalogMiss: Error {
  /// It is not in the catalog's `types`.
  case unlisted
  /// Another listed type has the same name.
  case sharedName
}

/// An action that ``CatalogAction`` cannot wrap: its type's name, the catalog's, and why.
struct UnrecordableAction: Error, Sendable {
  let type: String
  let catalog: String
  let miss: CatalogMiss
}

/// A key made from the action type's name.
struct CatalogKey: CodingKey {
  let stringValue: String
  var intValue: Int? { nil }
  init(_ name: String) { stringValue = name }
  init?(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
}
