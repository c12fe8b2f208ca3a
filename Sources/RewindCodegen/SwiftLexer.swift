/// Splits Swift source into ``SwiftToken``s, dropping whitespace and comments.
///
/// It knows what it must to keep braces honest: comments (nested block comments too), string
/// literals of every kind (`"…"`, `"""…"""`, raw `#"…"#`, interpolations with strings inside
/// them), regular expression literals (`#/…/#`, and `/…/` as Swift tells them from division:
/// whitespace before it or an expression starting, and a body that could be one), backticked
/// names. `<` and `>` are tokens of their own (`>=` is `>` and `=`; `->` and `..<` stay whole),
/// as in a generic argument list, so that the brackets of types can be counted.
struct SwiftLexer {
  private let scalars: [Unicode.Scalar]
  private var index = 0
  private var line = 1
  private var sawLineBreak = true
  /// The token before and the one before it, for telling a regular expression's `/` from
  /// division.
  private var previous: SwiftToken?
  private var beforePrevious: SwiftToken?
  /// Whitespace comes before the token being scanned.
  private var tokenFollowsSpace = true

  /// A lexer over `source`.
  init(_ source: String) {
    scalars = Array(source.unicodeScalars)
  }

  /// The tokens of `source`, in order.
  static func tokens(of source: String) -> [SwiftToken] {
    var lexer = SwiftLexer(source)
    var tokens: [SwiftToken] = []
    while let token = lexer.next() { tokens.append(token) }
    return tokens
  }

  /// The next token, or `nil` at the end.
  mutating func next() -> SwiftToken? {
    let triviaStart = index
    skipTrivia()
    guard index < scalars.count else { return nil }
    let followsSpace = index > triviaStart || index == 0
    tokenFollowsSpace = followsSpace
    let start = index
    let startLine = line
    let startsLine = sawLineBreak
    sawLineBreak = false
    let kind = scanToken()
    let text = String(String.UnicodeScalarView(scalars[start..<index]))
    let token = SwiftToken(
      kind: kind, text: text, line: startLine, startsLine: startsLine, followsSpace: followsSpace)
    beforePrevious = previous
    previous = token
    return token
  }

  private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
    index + offset < scalars.count ? scalars[index + offset] : nil
  }

  private mutating func advance() {
    if scalars[index] == "\n" {
      line += 1
      sawLineBreak = true
    }
    index += 1
  }

  private mutating func skipTrivia() {
    while let scalar = peek() {
      if scalar == "\n" || scalar == " " || scalar == "\t" || scalar == "\r" {
        advance()
      } else if scalar == "/", peek(1) == "/" {
        while let next = peek(), next != "\n" { advance() }
      } else if scalar == "/", peek(1) == "*" {
        skipBlockComment()
      } else {
        return
      }
    }
  }

  private mutating func skipBlockComment() {
    var depth = 0
    while let scalar = peek() {
      if scalar == "/", peek(1) == "*" {
        depth += 1
        advance()
        advance()
      } else if scalar == "*", peek(1) == "/" {
        depth -= 1
        advance()
        advance()
        if depth == 0 { return }
      } else {
        advance()
      }
    }
  }

  private mutating func scanToken() -> SwiftToken.Kind {
    let start = index
    let scalar = scalars[index]
    if scalar == "\"" || (scalar == "#" && isRawStringStart()) {
      scanString()
      return .string
    }
    if scalar == "#", scanExtendedRegex() { return .string }
    // Swift's rule: a `/` with whitespace before it (and none after) starts a literal, as does
    // one where an expression starts.
    if scalar == "/", tokenFollowsSpace || startsExpression, let end = regexEnd() {
      while index < end { advance() }
      return .string
    }
    if scalar == "`" {
      advance()
      while let next = peek(), next != "`", next != "\n" { advance() }
      if peek() == "`" { advance() }
      return .identifier
    }
    if scalar == "#" || scalar == "@" {
      advance()
      while let next = peek(), Self.isIdentifierPart(next) { advance() }
      return scalar == "#" ? .pound : .attribute
    }
    if Self.isIdentifierStart(scalar) || scalar == "$" {
      advance()
      while let next = peek(), Self.isIdentifierPart(next) { advance() }
      return .identifier
    }
    if scalar.properties.numericType != nil, scalar.isASCII {
      advance()
      while let next = peek(), Self.isIdentifierPart(next) || next == "." && isDigit(peek(1)) {
        advance()
      }
      return .number
    }
    if "{}()[],:;".unicodeScalars.contains(scalar) {
      advance()
      return .punctuation
    }
    if scalar == ".", !(peek(1).map(Self.isOperator) ?? false) {
      advance()
      return .punctuation
    }
    advance()
    if scalar == "<" || scalar == ">" { return .punctuation }
    while let next = peek(), Self.isOperator(next), !(next == "/" && isCommentStart()) {
      // `<` and `>` start tokens of their own, except in `->` and `..<`.
      let run = index - start
      let isArrow = next == ">" && scalar == "-" && run == 1
      let isHalfOpen = next == "<" && scalar == "." && run == 2
      if (next == "<" || next == ">") && !isArrow && !isHalfOpen { break }
      advance()
    }
    return .punctuation
  }

  /// The next token would start an expression: after an opening bracket, a separator, an
  /// operator or a keyword that takes one — where Swift reads `/` as a regular expression.
  private var startsExpression: Bool {
    guard let previous else { return true }
    switch previous.kind {
    case .punctuation:
      // A `?` or `!` with a space before it is a ternary's or a prefix's, not a postfix;
      // right after the keyword `try` it is that keyword's optional or forced form.
      let isPostfix =
        (previous.is("?") || previous.is("!")) && !previous.followsSpace
        && beforePrevious?.text != "try"
      return !previous.is(")") && !previous.is("]") && !previous.is("}")
        && !previous.text.hasSuffix(">") && !isPostfix
    case .identifier:
      return [
        "return", "case", "in", "where", "throw", "try", "await", "if", "guard", "while",
        "else", "is", "as",
      ].contains(previous.text)
    default:
      return false
    }
  }

  /// Where a `/…/` literal starting here ends (past its closing `/`), when it ends on this line
  /// and does not start with a space.
  private func regexEnd() -> Int? {
    // `(/)` and `reduce(1, /)` are the operator.
    guard let first = peek(1), first != " ", first != "\t", first != "\n", first != "/",
      first != "*", first != "=", first != ")", first != ","
    else { return nil }
    var offset = 1
    var inClass = false
    var parentheses = 0
    while let scalar = peek(offset), scalar != "\n" {
      if scalar == "\\" {
        offset += 2
        continue
      }
      if scalar == "[" {
        inClass = true
      } else if scalar == "]" {
        inClass = false
      } else if scalar == "(", !inClass {
        parentheses += 1
      } else if scalar == ")", !inClass {
        // An unbalanced `)` ends an expression: `action: /Action.child)` is an operator.
        parentheses -= 1
        if parentheses < 0 { return nil }
      } else if scalar == "/", !inClass {
        // Not a literal when it ends in a space or its end starts a comment (`[+, /] // a/b`).
        let next = peek(offset + 1)
        if peek(offset - 1) == " " || next == "/" || next == "*" { return nil }
        return index + offset + 1
      }
      offset += 1
    }
    return nil
  }

  /// Scans `#/…/#` (any number of `#`) from its first `#`, when one starts here.
  private mutating func scanExtendedRegex() -> Bool {
    var pounds = 0
    while peek(pounds) == "#" { pounds += 1 }
    guard peek(pounds) == "/" else { return false }
    // On one line, unless `#/` ends its line (a multi-line literal).
    var offset = pounds + 1
    while peek(offset) == " " || peek(offset) == "\t" { offset += 1 }
    let isMultiline = peek(offset) == "\n" || peek(offset) == "\r"
    offset = pounds + 1
    while let scalar = peek(offset), isMultiline || scalar != "\n" {
      if scalar == "/", (0..<pounds).allSatisfy({ peek(offset + 1 + $0) == "#" }) {
        for _ in 0..<(offset + 1 + pounds) { advance() }
        return true
      }
      offset += 1
    }
    return false
  }

  private func isDigit(_ scalar: Unicode.Scalar?) -> Bool {
    guard let scalar else { return false }
    return scalar.isASCII && scalar.properties.numericType != nil
  }

  private func isCommentStart() -> Bool {
    peek() == "/" && (peek(1) == "/" || peek(1) == "*")
  }

  /// At one or more `#` followed by a quote.
  private func isRawStringStart() -> Bool {
    var offset = 0
    while peek(offset) == "#" { offset += 1 }
    return peek(offset) == "\""
  }

  /// Scans a string literal from its first `#` or quote to its end.
  private mutating func scanString() {
    var pounds = 0
    while peek() == "#" {
      pounds += 1
      advance()
    }
    // `"""` opens a multi-line literal only when the line ends after it (`#""""#` is one quote).
    var isMultiline = peek() == "\"" && peek(1) == "\"" && peek(2) == "\""
    if isMultiline {
      var offset = 3
      while peek(offset) == " " || peek(offset) == "\t" { offset += 1 }
      isMultiline = peek(offset) == "\n" || peek(offset) == "\r" || peek(offset) == nil
    }
    for _ in 0..<(isMultiline ? 3 : 1) { advance() }
    while let scalar = peek() {
      if scalar == "\\", hasPounds(pounds, at: 1) {
        for _ in 0...pounds { advance() }
        if peek() == "(" {
          skipInterpolation()
        } else if peek() != nil {
          advance()
        }
      } else if scalar == "\"", !isMultiline || (peek(1) == "\"" && peek(2) == "\""),
        hasPounds(pounds, at: isMultiline ? 3 : 1)
      {
        for _ in 0..<((isMultiline ? 3 : 1) + pounds) { advance() }
        return
      } else if scalar == "\n", !isMultiline {
        return  // an unterminated literal ends at its line, as the compiler reports it
      } else {
        advance()
      }
    }
  }

  private func hasPounds(_ count: Int, at offset: Int) -> Bool {
    (0..<count).allSatisfy { peek(offset + $0) == "#" }
  }

  /// Skips `( … )` of an interpolation, strings and comments inside it included.
  private mutating func skipInterpolation() {
    var depth = 0
    while peek() != nil {
      skipTrivia()
      guard let scalar = peek() else { return }
      if scalar == "\"" || (scalar == "#" && isRawStringStart()) {
        scanString()
        continue
      }
      advance()
      if scalar == "(" {
        depth += 1
      } else if scalar == ")" {
        depth -= 1
        if depth == 0 { return }
      }
    }
  }

  private static func isIdentifierStart(_ scalar: Unicode.Scalar) -> Bool {
    scalar == "_"
      || (scalar.isASCII ? scalar.properties.isAlphabetic : !isOperator(scalar))
        && !scalar.properties.isWhitespace
  }

  private static func isIdentifierPart(_ scalar: Unicode.Scalar) -> Bool {
    isIdentifierStart(scalar) || (scalar.isASCII && scalar.properties.numericType != nil)
  }

  private static func isOperator(_ scalar: Unicode.Scalar) -> Bool {
    "/=-+!*%<>&|^~?.".unicodeScalars.contains(scalar)
  }
}
