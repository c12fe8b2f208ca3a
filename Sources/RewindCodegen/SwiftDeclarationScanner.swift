/// Finds the type declarations of Swift source and what their synthesized `Codable` is made of:
/// a struct's stored instance properties, an enum's cases and their associated values' keys.
///
/// It reads declarations, not expressions: bodies of functions, accessors and initial values
/// are skipped as balanced brackets. Whatever it cannot be sure of — a conditional compilation
/// block, an attribute that may change coding, a custom `encode(to:)` — becomes a problem of
/// the type, and no conformance is generated for it.
struct SwiftDeclarationScanner {
  /// The comment that keeps a type out of generation, on a line before its declaration.
  static let optOutMarker = "rewind-codegen: skip"

  private let tokens: [SwiftToken]
  let file: String
  private let optOutLines: Set<Int>
  private var position = 0
  var conditionalDepth = 0
  /// Attributes were read before an `#if`/`#endif` line: they belong to what follows.
  var hasDanglingAttributes = false
  var declarations: SwiftDeclarations

  private init(source: String, file: String, declarations: SwiftDeclarations) {
    tokens = SwiftLexer.tokens(of: source)
    self.file = file
    self.declarations = declarations
    // Lines split at each "\n" scalar, as the lexer counts them ("\r\n" is one Character).
    var lines = Set<Int>()
    for (number, line) in source.unicodeScalars.split(
      separator: "\n", omittingEmptySubsequences: false
    ).enumerated() {
      let text = String(String.UnicodeScalarView(line))
      if text.contains("//") && text.contains(Self.optOutMarker) { lines.insert(number + 1) }
    }
    optOutLines = lines
  }

  /// Adds what `source` declares to `declarations`.
  static func scan(_ source: String, file: String, into declarations: inout SwiftDeclarations) {
    var scanner = SwiftDeclarationScanner(source: source, file: file, declarations: declarations)
    scanner.scanMembers(of: Scope.file)
    declarations = scanner.declarations
  }

  /// Where members are being read.
  struct Scope {
    /// The path of the type whose members these are; empty at the file scope.
    var path: [String]
    /// The type declaration or extension these members belong to.
    var owner: Owner
    /// A member's access when it names none.
    var defaultAccess: AccessLevel
    /// The highest access a member can have.
    var cap: AccessLevel
    /// The `@available` attributes of the declarations around.
    var availability: [String]

    enum Owner {
      case file
      case type(Int)
      case `extension`(Int)
    }

    static let file = Scope(
      path: [], owner: .file, defaultAccess: .internal, cap: .public, availability: [])
  }

  // MARK: Tokens

  var current: SwiftToken? { position < tokens.count ? tokens[position] : nil }

  /// The token before the current one.
  var previousToken: SwiftToken? { position > 0 ? tokens[position - 1] : nil }

  func peekToken(at offset: Int) -> SwiftToken? {
    position + offset < tokens.count ? tokens[position + offset] : nil
  }

  mutating func advance() { position += 1 }

  /// Skips a bracketed group from its opening `(`, `[` or `{`, returning its text.
  @discardableResult
  mutating func skipBalanced() -> String {
    var depth = 0
    var text = ""
    while let token = current {
      if !text.isEmpty, token.followsSpace { text += " " }
      text += token.text
      advance()
      if token.is("(") || token.is("[") || token.is("{") {
        depth += 1
      } else if token.is(")") || token.is("]") || token.is("}") {
        depth -= 1
        if depth <= 0 { return text }
      }
    }
    return text
  }

  private static let modifiers: Set<String> = [
    "public", "private", "fileprivate", "internal", "package", "open", "final", "static",
    "override", "mutating", "nonmutating", "lazy", "weak", "unowned", "indirect", "convenience",
    "required", "dynamic", "optional", "nonisolated", "consuming", "borrowing", "distributed",
    "prefix", "postfix", "infix", "isolated", "sending",
  ]

  private static let declarationWords: Set<String> = [
    "var", "let", "func", "init", "deinit", "subscript", "case", "struct", "enum", "class",
    "actor", "protocol", "extension", "typealias", "associatedtype", "import", "operator",
    "precedencegroup", "macro",
  ]

  /// A token that starts a new declaration when it starts a line.
  func startsDeclaration(_ token: SwiftToken) -> Bool {
    token.kind == .attribute || token.kind == .pound || token.is("}")
      || (token.kind == .identifier
        && (Self.declarationWords.contains(token.text) || Self.modifiers.contains(token.text)))
  }

  // MARK: Members

  mutating func scanMembers(of scope: Scope) {
    while let token = current {
      if token.is("}") {
        advance()
        if case .file = scope.owner {
          declarations.unreadableFiles.append(
            UnreadableFile(location: "\(file):\(token.line)", problem: "a '}' that closes nothing"))
        }
        return
      }
      let previousLine = position > 0 ? tokens[position - 1].line : 0
      scanMember(in: scope, previousLine: previousLine)
    }
    if case .file = scope.owner { return }
    declarations.unreadableFiles.append(
      UnreadableFile(location: file, problem: "a '{' that nothing closes"))
  }

  /// Reads one declaration (or skips one token of anything else).
  private mutating func scanMember(in scope: Scope, previousLine: Int) {
    var attributes: [String] = []
    var modifiers: [String] = []
    while let token = current {
      if token.kind == .attribute {
        var text = token.text
        advance()
        // `@Module.Name`, `@Name<Argument>`: the whole name.
        while let dot = current, dot.is("."), !dot.followsSpace,
          let name = peekToken(at: 1), name.kind == .identifier, !name.followsSpace
        {
          text += "." + name.text
          advance()
          advance()
        }
        if let open = current, open.is("<"), !open.followsSpace {
          let start = position
          skipAngles()
          text += tokens[start..<position].map(\.text).joined()
        }
        if let next = current, next.is("("), !next.startsLine { text += skipBalanced() }
        attributes.append(text)
      } else if token.kind == .identifier,
        Self.modifiers.contains(token.text)
          || (token.text == "class" && peekToken(at: 1).map(isClassModifierFollower) == true)
      {
        var text = token.text
        advance()
        if let next = current, next.is("("), !next.startsLine { text += skipBalanced() }
        modifiers.append(text)
      } else {
        break
      }
    }
    guard let keyword = current else { return }
    // `#if hasAttribute(X) @X #endif struct S`: the attributes are the next declaration's.
    let followsDanglingAttributes = hasDanglingAttributes
    hasDanglingAttributes =
      keyword.kind == .pound
      && (!attributes.isEmpty || !modifiers.isEmpty || followsDanglingAttributes)
    let isOptedOut = optOutLines.contains { $0 > previousLine && $0 <= keyword.line }
    let member = Member(
      attributes: attributes, modifiers: modifiers, isOptedOut: isOptedOut,
      followsDanglingAttributes: followsDanglingAttributes)
    switch keyword.kind == .identifier ? keyword.text : "" {
    case "struct", "enum", "class", "actor", "protocol":
      scanType(member, in: scope)
    case "extension":
      scanExtension(member, in: scope)
    case "var", "let":
      scanProperty(member, in: scope)
    case "case":
      if !member.attributes.isEmpty { addProblem("a case with an attribute", in: scope) }
      scanCase(in: scope)
    case "func", "init", "subscript", "deinit":
      noteCustomCoding(in: scope)
      skipFunction()
    case "typealias":
      if let name = peekToken(at: 1)?.name {
        if name.hasSuffix("CodingKeys") { addProblem("a \(name) typealias", in: scope) }
        if case .file = scope.owner, peekToken(at: 2)?.is("=") == true {
          // One inside `#if` may name another type in another branch: none is followed.
          declarations.typealiases[name] = conditionalDepth == 0 ? aliasedPath() : .some(nil)
          declarations.compositions[name] = composedNames()
        }
      }
      skipRestOfDeclaration()
    case "import":
      scanImport(attributes: attributes, isSimple: modifiers.isEmpty)
    default:
      scanOther(keyword, in: scope)
    }
  }

  /// The names of `typealias Name = A & B`'s right side, when it is a composition.
  private func composedNames() -> [String]? {
    var names: [String] = []
    var sawAmpersand = false
    var offset = 3
    let line = peekToken(at: 1)?.line ?? 0
    while let token = peekToken(at: offset), token.line == line, !token.is("}") {
      if token.kind == .identifier { names.append(token.name) }
      if token.is("&") { sawAmpersand = true }
      offset += 1
    }
    return sawAmpersand ? names : nil
  }

  /// The dotted name after `typealias Name =`, when that is all it is.
  private func aliasedPath() -> [String]? {
    var path: [String] = []
    var offset = 3
    while let token = peekToken(at: offset), token.kind == .identifier {
      path.append(token.name)
      guard peekToken(at: offset + 1)?.is(".") == true else { break }
      offset += 2
    }
    guard !path.isEmpty else { return nil }
    if let next = peekToken(at: offset + 1), !next.startsLine, !next.is("}") { return nil }
    return path
  }

  private func isClassModifierFollower(_ token: SwiftToken) -> Bool {
    token.kind == .identifier
      && (["func", "var", "let", "subscript", "init"].contains(token.text)
        || Self.modifiers.contains(token.text))
  }

  /// What comes before a declaration's keyword.
  struct Member {
    var attributes: [String]
    var modifiers: [String]
    var isOptedOut: Bool
    /// Attributes inside an `#if` came just before it.
    var followsDanglingAttributes: Bool

    /// The access level named by a modifier (not a `(set)` one).
    var access: AccessLevel? {
      modifiers.lazy.compactMap { AccessLevel(modifier: $0) }.first
    }

    var isStatic: Bool { modifiers.contains("static") || modifiers.contains("class") }
  }

  private mutating func scanOther(_ token: SwiftToken, in scope: Scope) {
    if token.kind == .pound {
      switch token.text {
      case "#if":
        addProblem("#if inside its declaration", in: scope)
        conditionalDepth += 1
        skipLine()
      case "#endif":
        conditionalDepth -= 1
        advance()
      case "#else", "#elseif":
        skipLine()
      case "#warning", "#error", "#sourceLocation":
        skipLine()
      default:
        // A freestanding macro may declare members (`#StoredProperty(…)`).
        addProblem("the macro \(token.text) in its declaration", in: scope)
        skipLine()
      }
    } else if token.is("(") || token.is("[") || token.is("{") {
      skipBalanced()
    } else {
      advance()
    }
  }

  /// Skips the rest of the line the current token is on, bracketed groups whole.
  private mutating func skipLine() {
    let line = current?.line ?? 0
    advance()
    while let token = current, !token.startsLine || token.line == line {
      if token.is("(") || token.is("[") || token.is("{") {
        skipBalanced()
      } else if token.is("}") {
        return
      } else {
        advance()
      }
    }
  }

  /// Skips to the next declaration: the next line that starts with one, brackets whole.
  mutating func skipRestOfDeclaration() {
    advance()
    while let token = current {
      if token.startsLine, startsDeclaration(token) { return }
      if token.is("}") { return }
      if token.is(";") {
        advance()
        return
      }
      if token.is("(") || token.is("[") || token.is("{") {
        skipBalanced()
      } else {
        advance()
      }
    }
  }

  /// Skips a function, initializer or subscript: its signature and its body, if it has one.
  private mutating func skipFunction() {
    advance()
    while let token = current {
      if token.is("{") {
        skipBalanced()
        return
      }
      if token.startsLine, startsDeclaration(token) || token.is("}") { return }
      if token.is("(") || token.is("[") {
        skipBalanced()
      } else {
        advance()
      }
    }
  }

  private mutating func scanImport(attributes: [String], isSimple: Bool) {
    let line = current?.line ?? 0
    var text = ""
    while let token = current, token.line == line, !token.is(";") {
      if !text.isEmpty, token.followsSpace { text += " " }
      text += token.text
      advance()
    }
    let isSimple = isSimple && attributes.allSatisfy { $0 == "@preconcurrency" }
    if isSimple, conditionalDepth == 0, text.count > "import ".count {
      declarations.imports.append((attributes + [text]).joined(separator: " "))
    }
  }

  // MARK: Problems

  /// Notes an `encode(to:)` or `init(from:)` written by hand.
  private mutating func noteCustomCoding(in scope: Scope) {
    guard let keyword = current else { return }
    var offset = 1
    if keyword.text == "func" {
      guard peekToken(at: 1)?.text == "encode" else { return }
      offset = 2
    }
    while let token = peekToken(at: offset), token.is("?") || token.is("!") { offset += 1 }
    guard peekToken(at: offset)?.is("(") == true else { return }
    if keyword.text == "func", peekToken(at: offset + 1)?.text == "to" {
      addProblem("a hand-written encode(to:)", in: scope)
    } else if keyword.text == "init", peekToken(at: offset + 1)?.text == "from" {
      addProblem("a hand-written init(from:)", in: scope)
    }
  }

  mutating func addProblem(_ problem: String, in scope: Scope) {
    switch scope.owner {
    case .file: break
    case .type(let index): declarations.types[index].problems.append(problem)
    case .extension(let index): declarations.extensions[index].problems.append(problem)
    }
  }

  mutating func addDecodingProblem(_ problem: String, in scope: Scope) {
    if case .type(let index) = scope.owner {
      declarations.types[index].decodingProblems.append(problem)
    }
  }
}
