/// The action catalog the generator writes for a target whose actions are separate types, as
/// ReSwift's and Swidux's are: every `Codable` and `Sendable` type of the target that conforms to
/// a protocol named `Action` (directly, through a protocol of the target that refines it, or a
/// composition such as `typealias AppAction = Action & Codable & Sendable`), listed once in an
/// `enum RecordedActions: ActionCatalog` so that no list is kept by hand.
struct ActionCatalogPlan: Sendable {
  /// The name of the generated catalog.
  static let name = "RecordedActions"
  /// The name of the actions' protocol.
  static let actionProtocol = "Action"

  /// The types listed, by qualified name, in declaration order.
  var types: [String]
  /// The catalog's access: the narrowest of its types' (public when every one is public).
  var access: AccessLevel
  /// Action types left out of the catalog, and why.
  var skipped: [SkippedType]

  /// The catalog of `declarations`, or `nil` when no type conforms to `Action`.
  static func plan(for declarations: SwiftDeclarations) -> ActionCatalogPlan? {
    let actions = DirectCodingPlan.closure(of: [actionProtocol], declarations)
    let codable = DirectCodingPlan.closure(of: ["Codable"], declarations)
    let encodable = DirectCodingPlan.closure(of: ["Encodable"], declarations)
    let decodable = DirectCodingPlan.closure(of: ["Decodable"], declarations)
    let sendable = DirectCodingPlan.closure(of: ["Sendable"], declarations)
    var extensionInheritance: [String: [String]] = [:]
    for typeExtension in declarations.extensions {
      extensionInheritance[typeExtension.path.joined(separator: "."), default: []] +=
        typeExtension.inheritance
    }
    var byName: [String: DeclaredType] = [:]
    for type in declarations.types { byName[type.qualifiedName] = type }
    var types: [String] = []
    var access = AccessLevel.public
    var skipped: [SkippedType] = []
    for type in declarations.types where type.kind != .protocol {
      let conformances = Set(
        type.inheritance + (extensionInheritance[type.qualifiedName] ?? [])
          + (extensionInheritance[type.path.last ?? ""] ?? []))
      guard !conformances.isDisjoint(with: actions) else { continue }
      var reasons: [String] = []
      let isCodable =
        !conformances.isDisjoint(with: codable)
        || (!conformances.isDisjoint(with: encodable)
          && !conformances.isDisjoint(with: decodable))
      if !isCodable { reasons.append("not Codable") }
      if conformances.isDisjoint(with: sendable) {
        reasons.append("not declared Sendable (a catalog's types are Codable & Sendable)")
      }
      var typeAccess = type.access
      for length in 1..<max(1, type.path.count) {
        if let outer = byName[type.path.prefix(length).joined(separator: ".")] {
          typeAccess = min(typeAccess, outer.access)
          if outer.problems.contains("generic parameters") {
            reasons.append("a generic type around it")
          }
        }
      }
      if type.problems.contains("generic parameters") { reasons.append("generic parameters") }
      if typeAccess <= .fileprivate { reasons.append("\(typeAccess) access") }
      guard reasons.isEmpty else {
        skipped.append(
          SkippedType(name: type.qualifiedName, file: type.file, line: type.line, reasons: reasons))
        continue
      }
      types.append(type.qualifiedName)
      access = min(access, typeAccess)
    }
    guard !types.isEmpty || !skipped.isEmpty else { return nil }
    return ActionCatalogPlan(types: types, access: access, skipped: skipped)
  }

  /// The catalog's Swift source (none when it lists no type).
  var sourceLines: [String] {
    guard !types.isEmpty else { return [] }
    let prefix =
      switch access {
      case .public: "public "
      case .package: "package "
      default: ""
      }
    return [
      "/// Every Codable and Sendable type of this target that conforms to `\(Self.actionProtocol)`,",
      "/// listed by rewind-codegen: the catalog a `Recorder` and a replay binary take.",
      "\(prefix)enum \(Self.name): ActionCatalog {",
      "  \(prefix)typealias Base = any \(Self.actionProtocol)",
      "  \(prefix)static let types: [any (Codable & Sendable).Type] = [",
    ] + types.map { "    \($0).self," } + ["  ]", "}"]
  }
}
