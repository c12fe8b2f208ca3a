import RewindJSON

/// The bounds the log reader enforces on untrusted input, so that no file can make it crash,
/// hang or allocate without bound.
public struct ReaderLimits: Sendable, Equatable {
  /// The largest file opened, in bytes (default 16 GiB). The file is read into memory once.
  public var maxFileBytes: Int
  /// The longest line, in bytes (default 64 MiB). A longer line is a fault.
  public var maxLineBytes: Int
  /// The limits on each line's JSON (nesting depth 512 by default).
  public var json: JSONLimits

  /// The defaults.
  public static let `default` = ReaderLimits(
    maxFileBytes: 16 << 30, maxLineBytes: 64 << 20, json: .default)

  /// Creates limits.
  public init(maxFileBytes: Int, maxLineBytes: Int, json: JSONLimits) {
    self.maxFileBytes = maxFileBytes
    self.maxLineBytes = maxLineBytes
    self.json = json
  }
}
