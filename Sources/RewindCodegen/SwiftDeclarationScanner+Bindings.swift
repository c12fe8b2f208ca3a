// The members a synthesized `Codable` is made of: a struct's stored instance properties and an
// enum's cases.

extension SwiftDeclarationScanner {
  /// Reads `var`/`let` declarations; keeps a struct's stored instance properties.
  mutating func scanProperty(_ member: Member, in scope: Scope) {
    guard case .type(let index) = scope.owner, declarations.types[index].kind == .struct,
      !member.isStatic
    else {
      skipRestOfDeclaration()
      return
    }
    let isLet = current?.text == "let"
    advance()
    for attribute in member.attributes {
      addProblem("a property with the attribute \(attribute.prefix { $0 != "(" })", in: scope)
    }
    if member.modifiers.contains("lazy") { addProblem("a lazy property", in: scope) }
    let isSetterHidden = member.modifiers.contains {
      $0.hasSuffix("(set)") && $0 != "internal(set)"
    }
    while true {
      guard let nameToken = current, nameToken.kind == .identifier, !nameToken.startsLine else {
        addProblem("a property declaration it cannot read (line \(current?.line ?? 0))", in: scope)
        skipRestOfDeclaration()
        return
      }
      advance()
      var hasValue = false
      var isComputed = false
      if current?.is(":") == true {
        advance()
        skipType()
      }
      if current?.is("=") == true {
        advance()
        skipExpression()
        hasValue = true
        if current?.is(",") == true {
          // `var a = 1, b = 2`, or a comma in generic arguments (`Dictionary<K, V>()`): which
          // one cannot be told without the types.
          addProblem("a property declaration it cannot read (line \(nameToken.line))", in: scope)
          skipRestOfDeclaration()
          return
        }
      }
      if current?.is("{") == true {
        let first = peekToken(at: 1)?.text
        isComputed = first != "willSet" && first != "didSet"
        skipBalanced()
      }
      if !isComputed {
        let name = nameToken.name
        if let access = member.access, access <= .fileprivate {
          addProblem("the \(access) property \(name)", in: scope)
        }
        if isSetterHidden, !(isLet && hasValue) {
          addDecodingProblem("the property \(name), whose setter is not visible", in: scope)
        }
        declarations.types[index].properties.append(
          StoredProperty(name: name, isConstantWithValue: isLet && hasValue))
      }
      guard current?.is(",") == true else { return }
      advance()
    }
  }

  /// Reads `case a, b(Int), c(x: Int) = …` in an enum.
  mutating func scanCase(in scope: Scope) {
    guard case .type(let index) = scope.owner, declarations.types[index].kind == .enum else {
      skipRestOfDeclaration()
      return
    }
    advance()
    while true {
      guard let nameToken = current, nameToken.kind == .identifier else {
        addProblem("a case it cannot read (line \(current?.line ?? 0))", in: scope)
        skipRestOfDeclaration()
        return
      }
      advance()
      var keys: [String] = []
      var labels: [String?] = []
      var hasParentheses = false
      if let open = current, open.is("("), !open.startsLine {
        hasParentheses = true
        (keys, labels) = scanAssociatedValueKeys(in: scope)
      }
      if current?.is("=") == true {
        advance()
        skipExpression()
      }
      declarations.types[index].cases.append(
        EnumCase(
          name: nameToken.name, keys: keys, labels: labels, hasParentheses: hasParentheses))
      guard current?.is(",") == true else { return }
      advance()
    }
  }

  /// Reads `(Int, label: String, _ name: Bool)` to the keys Codable gives them,
  /// `["_0", "label", "_2"]`, and the labels, `[nil, "label", nil]`.
  private mutating func scanAssociatedValueKeys(in scope: Scope) -> (
    keys: [String], labels: [String?]
  ) {
    advance()
    var keys: [String] = []
    var labels: [String?] = []
    var parameter: [SwiftToken] = []
    func finish() {
      let index = keys.count
      if parameter.count >= 2, parameter.count <= 3, parameter.last?.is(":") == true,
        parameter.dropLast().allSatisfy({ $0.kind == .identifier }), parameter[0].name != "_"
      {
        keys.append(parameter[0].name)
        labels.append(parameter[0].name)
      } else {
        keys.append("_\(index)")
        labels.append(nil)
      }
      parameter = []
    }
    var sawColon = false
    var inDefault = false
    while let token = current {
      if token.is(")") {
        advance()
        if !parameter.isEmpty || sawColon { finish() }  // not after a trailing comma
        return (keys, labels)
      }
      if token.is(",") {
        advance()
        finish()
        sawColon = false
        inDefault = false
      } else if token.is("(") || token.is("[") || token.is("{") {
        skipBalanced()
        sawColon = true  // the label part is over
      } else if token.is("<"), !token.followsSpace, !inDefault {
        skipAngles()  // `Range<Int>`: a generic argument list, not a comparison
        sawColon = true
      } else if token.is("<"), inDefault, !token.followsSpace,
        previousToken?.kind == .identifier
      {
        // `= Dictionary<String, Int>().count`: its comma would read as the next value's.
        addProblem("a default value it cannot read (line \(token.line))", in: scope)
        advance()
      } else {
        if token.is("=") { inDefault = true }
        if !sawColon { parameter.append(token) }
        if token.is(":") { sawColon = true }
        advance()
      }
    }
    return (keys, labels)
  }

  /// Skips a type annotation: up to `=`, `{`, a top-level `,`, or the end of the line.
  mutating func skipType() {
    var angles = 0
    while let token = current {
      if token.is("{") || token.is("}") || token.is(";") { return }
      if token.startsLine, angles == 0 { return }
      if angles == 0, token.is("=") || token.is(",") { return }
      if token.is("(") || token.is("[") {
        skipBalanced()
        continue
      }
      if token.kind == .punctuation, token.text.allSatisfy({ "<>?!".contains($0) }) {
        angles += token.text.filter { $0 == "<" }.count - token.text.filter { $0 == ">" }.count
        angles = max(angles, 0)
      }
      advance()
    }
  }

  /// Skips an initial value: up to a top-level `,`, a `{ willSet/didSet … }` block, or a line
  /// that does not continue the expression.
  mutating func skipExpression() {
    var isFirst = true
    while let token = current {
      if !isFirst, token.startsLine, !Self.continuesExpression(token) { return }
      isFirst = false
      if token.is(",") || token.is("}") || token.is(";") { return }
      if token.is("{"), ["willSet", "didSet"].contains(peekToken(at: 1)?.text ?? "") { return }
      if token.is("(") || token.is("[") || token.is("{") {
        skipBalanced()
      } else {
        advance()
      }
    }
  }

  /// A line that starts with this token continues the expression on the line before: a member
  /// access or an infix operator.
  private static func continuesExpression(_ token: SwiftToken) -> Bool {
    guard token.kind == .punctuation, let first = token.text.first else { return false }
    return "./=-+!*%<>&|^~?".contains(first)
  }
}
