// Type declarations and extensions: their names, inheritance, attributes and bodies.

extension SwiftDeclarationScanner {
  private static let typeAttributes: Set<String> = [
    "@available", "@frozen", "@dynamicMemberLookup", "@usableFromInline",
  ]

  mutating func scanType(_ member: Member, in scope: Scope) {
    guard let keyword = current, let kind = DeclaredType.Kind(rawValue: keyword.text) else {
      return
    }
    advance()
    guard let nameToken = current, nameToken.kind == .identifier else { return }
    advance()
    let name = nameToken.name
    let access = min(member.access ?? scope.defaultAccess, scope.cap)
    let availability =
      scope.availability + member.attributes.filter { $0.hasPrefix("@available") }
    var type = DeclaredType(
      path: scope.path + [name], kind: kind, access: access, availability: availability,
      inheritance: [], file: file, line: keyword.line)
    if current?.text.hasPrefix("<") == true {
      type.problems.append("generic parameters")
      skipAngles()
    }
    type.inheritance = scanInheritance()
    if current?.text == "where" {
      // A protocol's `where Self: Base` inherits `Base`; a type's clause is a problem.
      if kind != .protocol { type.problems.append("a where clause") }
      while let token = current, !token.is("{"), !token.is("}") {
        if kind == .protocol, token.kind == .identifier { type.inheritance.append(token.name) }
        advance()
      }
    }
    if type.inheritance.contains(where: { $0.hasPrefix("@") }) {
      type.problems.append("an isolated conformance")
    }
    if member.followsDanglingAttributes {
      type.problems.append("attributes inside #if before it")
    }
    for attribute in member.attributes {
      let attributeName = String(attribute.prefix { $0 != "(" })
      if !Self.typeAttributes.contains(attributeName) {
        type.problems.append("the attribute \(attributeName)")
      }
    }
    if conditionalDepth > 0 { type.problems.append("its declaration inside #if") }
    if case .extension(let index) = scope.owner, declarations.extensions[index].isUnnameable {
      type.problems.append("a declaration in an extension of a type it cannot name")
    }
    if member.isOptedOut { type.problems.append("the comment '\(Self.optOutMarker)'") }
    type.isNonisolated = member.modifiers.contains("nonisolated")
    if name.hasSuffix("CodingKeys") { addProblem("a \(name) type", in: scope) }
    declarations.types.append(type)
    guard current?.is("{") == true else { return }
    advance()
    let body = Scope(
      path: type.path, owner: .type(declarations.types.count - 1), defaultAccess: .internal,
      cap: access, availability: availability)
    scanMembers(of: body)
  }

  mutating func scanExtension(_ member: Member, in scope: Scope) {
    advance()
    var path: [String] = []
    while let token = current, token.kind == .identifier {
      path.append(token.name)
      advance()
      guard current?.is(".") == true else { break }
      advance()
    }
    // `extension [String: Int]`, `extension String?`, `extension Array<String>`: a type its
    // nested types cannot be named through.
    let isUnnameable =
      path.isEmpty || current?.is("<") == true || current?.is("?") == true
      || current?.is("!") == true
    if current?.is("<") == true { skipAngles() }
    while let token = current, token.is("?") || token.is("!") || token.is("[") {
      if token.is("[") { skipBalanced() } else { advance() }
    }
    var typeExtension = TypeExtension(path: path, inheritance: scanInheritance())
    typeExtension.isUnnameable = isUnnameable
    typeExtension.availability = member.attributes.filter { $0.hasPrefix("@available") }
    if conditionalDepth > 0 { typeExtension.problems.append("an extension inside #if") }
    for attribute in member.attributes where !attribute.hasPrefix("@available") {
      typeExtension.problems.append(
        "an extension with the attribute \(attribute.prefix { $0 != "(" })")
    }
    if typeExtension.inheritance.contains(where: { $0.hasPrefix("@") }) {
      typeExtension.problems.append("an isolated conformance")
    }
    while let token = current, !token.is("{") { advance() }
    declarations.extensions.append(typeExtension)
    guard current?.is("{") == true else { return }
    advance()
    let access = member.access ?? .internal
    let body = Scope(
      path: path, owner: .extension(declarations.extensions.count - 1), defaultAccess: access,
      cap: member.access ?? .public,
      availability: member.attributes.filter { $0.hasPrefix("@available") })
    scanMembers(of: body)
  }

  /// Skips `<…>` from its first `<`.
  mutating func skipAngles() {
    var depth = 0
    while let token = current {
      if token.kind == .punctuation, token.text.allSatisfy({ "<>?!".contains($0) }) {
        depth += token.text.filter { $0 == "<" }.count - token.text.filter { $0 == ">" }.count
        advance()
        if depth <= 0 { return }
      } else if token.is("{") || token.is("}") || token.is(")") || token.is("]")
        || token.is(";")
      {
        return
      } else if token.is("(") || token.is("[") {
        skipBalanced()
      } else {
        advance()
      }
    }
  }

  /// Reads `: A, B & C` up to `where` or `{`: each type's last name (`Swift.Codable` is
  /// `Codable`), generic arguments dropped.
  private mutating func scanInheritance() -> [String] {
    guard current?.is(":") == true else { return [] }
    advance()
    var names: [String] = []
    var last: String?
    while let token = current, !token.is("{"), !token.is("}"), token.text != "where" {
      if token.is(",") || token.is("&") {
        if let last { names.append(last) }
        last = nil
        advance()
      } else if token.text.hasPrefix("<") {
        skipAngles()
      } else if token.kind == .attribute {
        // `@MainActor Codable` is an isolated conformance; these three change nothing here.
        if !["@unchecked", "@preconcurrency", "@retroactive"].contains(token.text) {
          names.append(token.text)
        }
        advance()
        if current?.is("(") == true { skipBalanced() }
      } else {
        if token.kind == .identifier { last = token.name }
        advance()
      }
    }
    if let last { names.append(last) }
    return names
  }
}
