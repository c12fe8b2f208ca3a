/// What to generate for one type: which halves of the direct path, and the shape of its JSON.
struct DirectCodingPlan: Sendable {
  /// The shape of the type's synthesized JSON.
  enum Shape: Equatable, Sendable {
    /// `{"property":value,…}`, a struct's stored properties in order.
    case properties([StoredProperty])
    /// `{"case":{"label":value,…}}`, one member per case.
    case cases([EnumCase])
    /// The raw value, as `RawRepresentable`'s `Codable` writes it; the raw type's name.
    case rawValue(String)
  }

  var type: DeclaredType
  var shape: Shape
  /// The access of the generated members.
  var access: AccessLevel
  /// Generate `encodeJSON(to:)`.
  var encodes: Bool
  /// Generate `init(json:)`.
  var decodes: Bool
  /// Why `init(json:)` is not generated though the type is `Decodable`.
  var decodingSkipped: [String]
}

/// A `Codable` type no conformance is generated for, and why.
struct SkippedType: Equatable, Sendable {
  var name: String
  var file: String
  var line: Int
  var reasons: [String]
}

extension DirectCodingPlan {
  /// The raw types whose enums `RawRepresentable`'s `Codable` writes as their raw value.
  static let rawTypes: Set<String> = [
    "String", "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32",
    "UInt64", "Double", "Float",
  ]

  /// Protocols an enum's first inherited name may be without it having a raw type.
  static let knownProtocols: Set<String> = [
    "Codable", "Encodable", "Decodable", "Equatable", "Hashable", "Comparable", "Sendable",
    "CaseIterable", "Identifiable", "CustomStringConvertible", "CustomDebugStringConvertible",
    "Error", "BitwiseCopyable", "LocalizedError",
  ]

  /// Plans the types of `declarations` that are `Codable` (`Encodable` or `Decodable`, in their
  /// declaration or an extension), and lists those it leaves to their synthesized conformance.
  /// `moduleName` is the target's module, which an extension's name may start with.
  /// With `isMainActorByDefault`, the module's default isolation is the main actor, and only
  /// types declared `nonisolated` are generated (a main-actor type's `Codable` is isolated).
  static func plans(
    for declarations: SwiftDeclarations, moduleName: String? = nil,
    isMainActorByDefault: Bool = false
  ) -> (plans: [DirectCodingPlan], skipped: [SkippedType]) {
    var byName: [String: [Int]] = [:]
    for (index, type) in declarations.types.enumerated() {
      byName[type.qualifiedName, default: []].append(index)
    }
    var extensionsByName: [String: [TypeExtension]] = [:]
    // What extensions the generator cannot place say, by the last component of their name: it
    // might be an alias of one of the target's types.
    var looseProblems: [String: [String]] = [:]
    var looseInheritance: [String: [String]] = [:]
    for typeExtension in declarations.extensions {
      if let name = resolve(typeExtension.path, declarations, byName, moduleName) {
        extensionsByName[name, default: []].append(typeExtension)
      } else if let last = typeExtension.path.last {
        looseProblems[last, default: []] += typeExtension.problems.map {
          "\($0) in an extension of \(typeExtension.path.joined(separator: "."))"
        }
        looseInheritance[last, default: []] += typeExtension.inheritance
      }
    }
    let codingProtocols = Self.codingProtocols(declarations, extensionsByName, moduleName)
    let standardCoded = closure(of: ["RawRepresentable", "OptionSet", "SIMD"], declarations)
    let everyType = !codingProtocols.isDisjoint(with: ["Codable", "Encodable", "Decodable"])
    var plans: [DirectCodingPlan] = []
    var skipped: [SkippedType] = []
    for type in declarations.types {
      var type = type
      let extensions = extensionsByName[type.qualifiedName] ?? []
      let conformances = Set(type.inheritance + extensions.flatMap(\.inheritance))
      let encodes = !conformances.isDisjoint(with: ["Codable", "Encodable"])
      let decodes = !conformances.isDisjoint(with: ["Codable", "Decodable"])
      guard encodes || decodes, type.kind != .protocol else { continue }
      var reasons = type.problems + extensions.flatMap(\.problems)
      if isMainActorByDefault, !type.isNonisolated {
        reasons.append("no nonisolated, in a module whose default isolation is the main actor")
      }
      // The standard library's own `Codable` for these wins over the synthesized one.
      let adoptedHere = conformances.union(looseInheritance[type.path.last ?? ""] ?? [])
      if let name = adoptedHere.intersection(standardCoded).sorted().first {
        reasons.append("the standard library's Codable (it adopts \(name))")
      }
      // An extension that makes it Codable has availability the conformance must have too.
      for typeExtension in extensions
      where !typeExtension.inheritance.isEmpty {
        type.availability += typeExtension.availability.filter { !type.availability.contains($0) }
      }
      reasons += looseProblems[type.path.last ?? ""] ?? []
      let adopted = conformances.union(looseInheritance[type.path.last ?? ""] ?? [])
      for name in codingProtocols.sorted() where everyType || adopted.contains(name) {
        reasons.append("an encode(to:) or init(from:) from an extension of a protocol (\(name))")
      }
      reasons += declarations.unreadableFiles.map {
        "braces it could not match (\($0.location): \($0.problem))"
      }
      if conformances.contains(where: { $0.hasPrefix("JSONDirect") }) {
        reasons.append("a direct path of its own")
      }
      if byName[type.qualifiedName, default: []].count > 1 {
        reasons.append("another declaration of the same name")
      }
      var access = type.access
      for length in 1..<type.path.count {
        let outer = type.path.prefix(length).joined(separator: ".")
        if let index = byName[outer]?.first {
          access = min(access, declarations.types[index].access)
          let outerAvailability = declarations.types[index].availability
          type.availability += outerAvailability.filter { !type.availability.contains($0) }
          if declarations.types[index].problems.contains("generic parameters") {
            reasons.append("a generic type around it")
          }
        }
      }
      if access <= .fileprivate { reasons.append("\(access) access") }
      let shape = Self.shape(of: type, reasons: &reasons)
      guard let shape, reasons.isEmpty else {
        skipped.append(
          SkippedType(name: type.qualifiedName, file: type.file, line: type.line, reasons: reasons))
        continue
      }
      var decodingSkipped = type.decodingProblems
      if case .properties(let properties) = shape,
        properties.allSatisfy(\.isConstantWithValue)
      {
        decodingSkipped.append("no property that decoding sets")
      }
      guard encodes || decodingSkipped.isEmpty else {
        // `Decodable` only, and its decoding cannot be generated: nothing to generate.
        skipped.append(
          SkippedType(
            name: type.qualifiedName, file: type.file, line: type.line, reasons: decodingSkipped))
        continue
      }
      plans.append(
        DirectCodingPlan(
          type: type, shape: shape, access: access, encodes: encodes,
          decodes: decodes && decodingSkipped.isEmpty,
          decodingSkipped: decodes ? decodingSkipped : []))
    }
    return (plans, skipped)
  }

  /// The declared type an extension's name means: past a leading module name and file-scope
  /// typealiases; `nil` for a type the target does not declare.
  private static func resolve(
    _ path: [String], _ declarations: SwiftDeclarations, _ byName: [String: [Int]],
    _ moduleName: String?
  ) -> String? {
    var path = path
    for _ in 0..<8 {
      if byName[path.joined(separator: ".")] != nil { return path.joined(separator: ".") }
      if path.count > 1, path.first == moduleName {
        path.removeFirst()
      } else if let first = path.first, let aliased = declarations.typealiases[first],
        let aliased
      {
        path = aliased + path.dropFirst()
      } else {
        return nil
      }
    }
    return nil
  }

  /// The protocols whose extension writes `encode(to:)` or `init(from:)` (or `CodingKeys`), and
  /// every protocol of the target that inherits one of them: a type adopting any of them gets
  /// that coding, not the synthesized one. `Codable`, `Encodable` or `Decodable` when they are
  /// the ones extended.
  private static func codingProtocols(
    _ declarations: SwiftDeclarations, _ extensionsByName: [String: [TypeExtension]],
    _ moduleName: String?
  ) -> Set<String> {
    let protocols = declarations.types.filter { $0.kind == .protocol }
    var names = Set<String>()
    for (name, extensions) in extensionsByName
    where protocols.contains(where: { $0.qualifiedName == name })
      && extensions.contains(where: { !$0.problems.isEmpty })
    {
      names.insert(String(name.split(separator: ".").last ?? ""))
    }
    for typeExtension in declarations.extensions where !typeExtension.problems.isEmpty {
      var path = typeExtension.path
      if path.first == "Swift" { path.removeFirst() }
      if path.count == 1, ["Codable", "Encodable", "Decodable"].contains(path[0]) {
        names.insert(path[0])
      }
    }
    return closure(of: names, declarations)
  }

  /// `names` and every protocol, composition (`typealias Model = Base & Other`) or alias
  /// (`typealias Model = Base`) of the target that inherits one of them, by last name.
  static func closure(of names: Set<String>, _ declarations: SwiftDeclarations) -> Set<String> {
    var inherits = declarations.compositions
    for type in declarations.types where type.kind == .protocol {
      inherits[type.path.last ?? "", default: []] += type.inheritance
    }
    for case (let alias, let target?) in declarations.typealiases {
      if let last = target.last { inherits[alias, default: []].append(last) }
    }
    var names = names
    var grew = true
    while grew {
      grew = false
      for (name, inherited) in inherits
      where !names.contains(name) && !names.isDisjoint(with: inherited) {
        names.insert(name)
        grew = true
      }
    }
    return names
  }

  private static func shape(of type: DeclaredType, reasons: inout [String]) -> Shape? {
    switch type.kind {
    case .struct:
      guard !type.properties.isEmpty else {
        reasons.append("no stored properties")
        return nil
      }
      return .properties(type.properties)
    case .enum:
      guard !type.cases.isEmpty else {
        reasons.append("no cases")
        return nil
      }
      if type.cases.contains(where: { $0.hasParentheses && $0.keys.isEmpty }) {
        reasons.append("a case with empty parentheses")
        return nil
      }
      if type.cases.contains(where: { !$0.keys.isEmpty }) { return .cases(type.cases) }
      let first = type.inheritance.first ?? ""
      if rawTypes.contains(first) { return .rawValue(first) }
      if knownProtocols.contains(first) { return .cases(type.cases) }
      reasons.append("a first inherited type, \(first), that may be a raw type")
      return nil
    case .class, .actor, .protocol:  // (protocols never reach here)
      reasons.append("being a \(type.kind.rawValue)")
      return nil
    }
  }
}
