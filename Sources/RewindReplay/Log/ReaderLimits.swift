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
  /// Whether the JSON of every line whose checksum holds is checked when the log is opened
  /// (default `true`): a line with a valid checksum but not valid JSON is then a fault like any
  /// other, found at open, which the recovery mode cuts, skips or drops (at the end of the file,
  /// in `tail` mode). The check about doubles the work of opening a log (it runs on the reading
  /// thread as far as it keeps up, in the indexer for the rest). Turned off, such a line is
  /// reported only when its action or state is decoded; `--recovery prefix`, `salvage` and
  /// `strict` check whatever this says, for their cuts depend on it.
  public var checksJSONAtOpen: Bool

  /// The defaults.
  public static let `default` = ReaderLimits(
    maxFileBytes: 16 << 30, maxLineBytes: 64 << 20, json: .default)

  /// Creates limits.
  public init(
    maxFileBytes: Int, maxLineBytes: Int, json: JSONLimits, checksJSONAtOpen: Bool = true
  ) {
    self.maxFileBytes = maxFileBytes
    self.maxLineBytes = maxLineBytes
    self.json = json
    self.checksJSONAtOpen = checksJSONAtOpen
  }
}
