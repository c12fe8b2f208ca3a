import RewindCPU

/// How ``JSONValidator``'s structural pass classifies each 64-byte block of a text
/// (`Sources/RewindCPU/JSONStructure.c`): every path gives the same verdict, and tests and the
/// fuzzer run each against the others and against the byte-by-byte reader.
@_spi(Testing) public enum JSONStructuralPath: Sendable, CaseIterable, CustomStringConvertible {
  /// The best path this CPU has: AVX2, else SSE2, on x86-64; NEON on 64-bit ARM; else the
  /// portable one.
  case automatic
  /// One byte at a time, on every CPU.
  case portable
  /// SSE2: every x86-64 CPU.
  case sse2
  /// AVX2: x86-64 CPUs that have it.
  case avx2
  /// NEON: every 64-bit ARM CPU.
  case neon

  /// Whether this CPU runs the path.
  public var isAvailable: Bool { rewind_json_path_is_available(cValue) != 0 }

  /// The path ``automatic`` takes on this CPU.
  public static var chosen: JSONStructuralPath {
    switch rewind_json_automatic_path() {
    case REWIND_JSON_PATH_SSE2: .sse2
    case REWIND_JSON_PATH_AVX2: .avx2
    case REWIND_JSON_PATH_NEON: .neon
    default: .portable
    }
  }

  /// The paths this CPU runs, ``automatic`` first.
  public static var available: [JSONStructuralPath] { allCases.filter(\.isAvailable) }

  /// The path's name, as in test output.
  public var description: String {
    switch self {
    case .automatic: "automatic (\(Self.chosen == .automatic ? "?" : Self.chosen.description))"
    case .portable: "portable"
    case .sse2: "SSE2"
    case .avx2: "AVX2"
    case .neon: "NEON"
    }
  }

  /// The C library's value.
  var cValue: rewind_json_path {
    switch self {
    case .automatic: REWIND_JSON_PATH_AUTOMATIC
    case .portable: REWIND_JSON_PATH_PORTABLE
    case .sse2: REWIND_JSON_PATH_SSE2
    case .avx2: REWIND_JSON_PATH_AVX2
    case .neon: REWIND_JSON_PATH_NEON
    }
  }
}

extension JSONStructuralPath {
  /// Whether the structural pass on this path accepts `bytes` as one JSON text within `limits`
  /// (for tests and the fuzzer, which compare it with ``readerAccepts(_:limits:)``).
  @_spi(Testing) public func accepts(
    _ bytes: UnsafeRawBufferPointer, limits: JSONLimits = .default
  ) -> Bool {
    var validator = JSONValidator(limits: limits, path: self)
    return validator.structuralPassAccepts(bytes)
  }

  /// Whether the structural pass on this path accepts every line of `bytes` (split at `\n`) as
  /// one JSON text within `limits`, or blank, in one pass (``JSONValidator/linesAreValid(_:)``).
  @_spi(Testing) public func acceptsLines(
    _ bytes: UnsafeRawBufferPointer, limits: JSONLimits = .default
  ) -> Bool {
    var validator = JSONValidator(limits: limits, path: self)
    return validator.linesAreValid(bytes)
  }

  /// Whether the byte-by-byte reader accepts every line of `bytes` that is not blank (spaces,
  /// tabs and `\r` only), each on its own: what ``acceptsLines(_:limits:)`` must say.
  @_spi(Testing) public static func readerAcceptsLines(
    _ bytes: UnsafeRawBufferPointer, limits: JSONLimits = .default
  ) -> Bool {
    var validator = JSONValidator(limits: limits)
    var start = 0
    while start <= bytes.count {
      let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
      let line = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
      let isBlank = line.allSatisfy { [0x20, 0x09, 0x0D].contains($0) }
      if !isBlank, validator.scalarFirstDefect(in: line) != nil { return false }
      start = end + 1
    }
    return true
  }

  /// Whether the byte-by-byte reader (``JSONValidator``'s, without the structural pass) accepts
  /// `bytes` as one JSON text within `limits`.
  @_spi(Testing) public static func readerAccepts(
    _ bytes: UnsafeRawBufferPointer, limits: JSONLimits = .default
  ) -> Bool {
    var validator = JSONValidator(limits: limits)
    return validator.scalarFirstDefect(in: bytes) == nil
  }
}
