import Rewind

/// A note of the action being applied right now, kept in a fixed buffer that a fatal-signal
/// handler can write to stderr without allocating: when an app's reducer traps during replay,
/// the last line on stderr names the action that killed it.
///
/// ``Timeline`` updates it before every reduction: the log name and the fixed words are written
/// once, so a step writes only the seq, the type and the line number (a few dozen byte stores; no
/// system call, no allocation).
///
/// There is one note per process, so one replaying thread at a time may write it: a rebuild
/// ``claim()``s it first and ``release()``s it after, and writes it only when the claim succeeded.
/// A timeline replaying on another thread at the same time (tests run in parallel; an app may
/// replay on several threads) goes without the note instead of racing for it.
package enum StepMarker {
  private static let capacity = 400
  /// Whether a thread holds the note (acquire on claim, release on release: what the holder
  /// wrote is seen by the next one).
  private static let isClaimed = AtomicWord(0)

  /// The buffer, the length of the message in it (0 when idle), and the length of its fixed start.
  private struct Note {
    var buffer: UnsafeMutablePointer<UInt8>
    var length: Int
    var fixedLength: Int
  }

  // Written only by the thread that holds the claim, read only by a fatal-signal handler on that
  // thread (after the trap): there is no concurrent access to guard against. A pointer in a `let`,
  // so that a step costs no exclusivity check.
  nonisolated(unsafe) private static let note: UnsafeMutablePointer<Note> = {
    let note = UnsafeMutablePointer<Note>.allocate(capacity: 1)
    note.initialize(
      to: Note(
        buffer: UnsafeMutablePointer<UInt8>.allocate(capacity: capacity), length: 0,
        fixedLength: 0))
    writeFixedStart(of: note, prefix: Array("replay: ".utf8))
    return note
  }()

  /// The words before the seq in the note, by which a reader of stderr finds it.
  package static let words: StaticString =
    "the app's reducer stopped the process while applying action "

  /// Claims the note for the calling thread; `false` when another thread holds it (then do not
  /// write it).
  package static func claim() -> Bool {
    isClaimed.compareExchange(expected: 0, desired: 1)
  }

  /// Clears the note and gives up the claim.
  package static func release() {
    note.pointee.length = 0
    isClaimed.store(0)
  }

  /// Sets the log name that starts the message (a front end, before replaying; skipped while
  /// another thread holds the note).
  package static func setLog(_ path: String) {
    guard claim() else { return }
    writeFixedStart(of: note, prefix: Array("replay: \(path): ".utf8.prefix(160)))
    release()
  }

  private static func writeFixedStart(of note: UnsafeMutablePointer<Note>, prefix: [UInt8]) {
    var writer = Writer(buffer: note.pointee.buffer, count: 0)
    writer.put(prefix)
    writer.put(words)
    note.pointee.fixedLength = writer.count
    note.pointee.length = 0
  }

  /// Records that the action `seq` of `type`, from log line `line`, is about to be applied.
  /// Only the thread that holds the claim may call it.
  ///
  /// Writes without a bounds check per byte: the fixed start is at most 160 + 60 bytes and what
  /// follows at most 126 (two 20-character numbers, 64 bytes of type, the words around them),
  /// which ``capacity`` holds.
  package static func willApply(seq: Int, type: String?, line: Int) {
    let note = self.note
    var cursor = note.pointee.buffer + note.pointee.fixedLength
    SignalSafeText.putDecimal(seq, at: &cursor)
    if var type {
      SignalSafeText.put(" (type \"", at: &cursor)
      type.withUTF8 { utf8 in
        for byte in utf8.prefix(64) {
          cursor.pointee = byte < 0x20 || byte == 0x7F ? UInt8(ascii: "?") : byte
          cursor += 1
        }
      }
      SignalSafeText.put("\")", at: &cursor)
    }
    SignalSafeText.put(" from line ", at: &cursor)
    SignalSafeText.putDecimal(line, at: &cursor)
    cursor.pointee = UInt8(ascii: "\n")
    note.pointee.length = cursor + 1 - note.pointee.buffer
  }

  /// The prepared message, for the signal handler: pointer and length (0 when idle).
  package static var message: (UnsafePointer<UInt8>, Int) {
    (UnsafePointer(note.pointee.buffer), note.pointee.length)
  }

  /// Appends bytes to the buffer, dropping what does not fit (one byte stays free).
  private struct Writer {
    let buffer: UnsafeMutablePointer<UInt8>
    var count: Int

    @inline(__always)
    mutating func put(_ byte: UInt8) {
      guard count < StepMarker.capacity - 1 else { return }
      buffer[count] = byte
      count += 1
    }

    mutating func put(_ bytes: some Sequence<UInt8>) {
      for byte in bytes { put(byte) }
    }

    mutating func put(_ text: StaticString) {
      text.withUTF8Buffer { for byte in $0 { put(byte) } }
    }
  }
}
