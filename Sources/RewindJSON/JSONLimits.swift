/// Bounds that ``JSONParser`` enforces while it reads, so that hostile input costs bounded work.
///
/// Every limit is checked as the parser goes: input over a limit is rejected with a
/// ``JSONParseError`` at the byte where the limit was crossed, before more memory is spent on it.
/// The defaults suit Rewind's logs (one action or state snapshot per line) with a wide margin.
///
/// ```swift
/// var limits = JSONLimits.default
/// limits.maxDepth = 64
/// let value = try JSONParser.parse(line, limits: limits)
/// ```
public struct JSONLimits: Sendable, Equatable {
  /// The most arrays and objects that may be open at once. Default 512.
  ///
  /// `[[1]]` has depth 2. Opening one more container than this is a
  /// ``JSONParseError/Reason/tooDeep(limit:)`` error.
  ///
  /// The parser itself never recurses, whatever this limit; but comparing, writing, decoding and
  /// even freeing a ``JSONValue`` recurse once per level, so a much higher limit moves the risk
  /// of a stack overflow from the parser to the code that uses its result.
  public var maxDepth: Int

  /// The longest string, in UTF-8 bytes after unescaping, for values and keys alike.
  /// Default 16 MiB.
  public var maxStringBytes: Int

  /// The longest number literal, in characters. Default 1,024.
  ///
  /// A `Double` needs at most 17 significant digits and an `Int64` 20 characters, so longer
  /// literals only cost time when converted later.
  public var maxNumberLength: Int

  /// The most values a document may hold: array elements and object members added up over
  /// all containers. Default 16,777,216.
  ///
  /// Whatever this says, a document holds at most 134,217,727 values (``elementCeiling``), and
  /// its text is at most 4 GiB − 1 bytes long (``byteCeiling``): the decoder's compact
  /// representation of a document counts in 32-bit fields.
  public var maxElements: Int

  /// Creates limits; any argument left out keeps its default.
  ///
  /// - Parameters:
  ///   - maxDepth: The most arrays and objects open at once.
  ///   - maxStringBytes: The longest string in UTF-8 bytes after unescaping.
  ///   - maxNumberLength: The longest number literal in characters.
  ///   - maxElements: The most array elements and object members in the whole document.
  public init(
    maxDepth: Int = 512,
    maxStringBytes: Int = 16 << 20,
    maxNumberLength: Int = 1_024,
    maxElements: Int = 1 << 24
  ) {
    self.maxDepth = maxDepth
    self.maxStringBytes = maxStringBytes
    self.maxNumberLength = maxNumberLength
    self.maxElements = maxElements
  }

  /// The default limits: depth 512, strings of 16 MiB, numbers of 1,024 characters and
  /// 16,777,216 values.
  public static let `default` = JSONLimits()

  /// The most values any document may hold, whatever ``maxElements`` says: 2²⁷ − 1.
  public static let elementCeiling = (1 << 27) - 1

  /// The longest text of any document, in bytes: 4 GiB − 1 (on 32-bit platforms, `Int.max`).
  public static let byteCeiling = Int(clamping: UInt32.max)

  /// ``maxElements``, capped at ``elementCeiling``: the limit every reader checks.
  var elementLimit: Int { min(maxElements, Self.elementCeiling) }

  /// No limits: for text that was read and checked once already, or written from a value in
  /// memory.
  package static let unlimited = JSONLimits(
    maxDepth: .max, maxStringBytes: .max, maxNumberLength: .max, maxElements: .max)
}
