/// A note of the action being applied right now, kept in a fixed buffer that a fatal-signal
/// handler can write to stderr without allocating: when an app's reducer traps during replay,
/// the last line on stderr names the action that killed it.
///
/// ``Timeline`` updates it before every reduction (a few dozen byte stores; no system call).
package enum StepMarker {
  private static let capacity = 320

  // Written only by the replaying thread, read only by a fatal-signal handler on that thread
  // (after the trap) — there is no concurrent access to guard against.
  nonisolated(unsafe) private static let buffer = UnsafeMutablePointer<UInt8>.allocate(
    capacity: capacity)
  nonisolated(unsafe) private static var length = 0
  nonisolated(unsafe) private static var prefix: [UInt8] = Array("replay: ".utf8)

  /// Sets the log name that starts the message.
  package static func setLog(_ path: String) {
    prefix = Array("replay: \(path): ".utf8.prefix(160))
  }

  /// Records that the action `seq` of `type`, from log line `line`, is about to be applied.
  package static func willApply(seq: Int, type: String?, line: Int) {
    var n = 0
    func put(_ bytes: some Sequence<UInt8>) {
      for byte in bytes where n < capacity - 1 {
        buffer[n] = byte
        n += 1
      }
    }
    func putNumber(_ value: Int) {
      var digits:
        (
          UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
          UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
        ) =
          (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
      var count = 0
      var rest = value.magnitude
      withUnsafeMutableBytes(of: &digits) { raw in
        repeat {
          raw[count] = UInt8(ascii: "0") + UInt8(rest % 10)
          rest /= 10
          count += 1
        } while rest > 0 && count < 20
        if value < 0 { put(CollectionOfOne(UInt8(ascii: "-"))) }
        for i in stride(from: count - 1, through: 0, by: -1) { put(CollectionOfOne(raw[i])) }
      }
    }
    put(prefix)
    put("the app's reducer stopped the process while applying action ".utf8)
    putNumber(seq)
    if let type {
      put(" (type \"".utf8)
      put(type.utf8.prefix(64).map { $0 < 0x20 || $0 == 0x7F ? UInt8(ascii: "?") : $0 })
      put("\")".utf8)
    }
    put(" from line ".utf8)
    putNumber(line)
    put(CollectionOfOne(UInt8(ascii: "\n")))
    length = n
  }

  /// Clears the note (no reduction is running).
  package static func clear() { length = 0 }

  /// The prepared message, for the signal handler: pointer and length (0 when idle).
  package static var message: (UnsafePointer<UInt8>, Int) { (UnsafePointer(buffer), length) }
}
