/// The opt-in last line of a log whose app died of a fatal signal
/// (``RecordingOptions/recordsFatalSignals``):
/// `{"c":"…","kind":"signal","seq":38,"signal":"SIGILL","address":"0x…"}`, where `seq` is the
/// action being applied (its line was written ahead of the reducer), so a log tells "crashed with
/// `SIGILL` during action 38" from "killed" (`SIGKILL` cannot be caught: no line) or "still
/// running".
///
/// The line is written from the signal handler: no allocation, no lock, no lazy global — the
/// descriptor and the seq are atomics, the line is assembled in a buffer allocated when the
/// first recorder attaches, and its checksum is computed bit by bit. Then the signal goes on to
/// the handler installed before (a crash reporter, the Swift backtracer) or the default action
/// (``Platform/addFatalSignalHandler(_:)``).
///
/// One recorder at a time owns the record: the one that attached last. A recorder detaches when
/// it closes or stops.
enum FatalSignalRecord {
  /// The log's descriptor, or -1 when no recorder is attached.
  private static let descriptor = AtomicWord(-1)
  /// The seq of the last action line written by the attached recorder.
  private static let seq = AtomicWord(0)
  /// The attached recorder (an ``ObjectIdentifier``'s bits), 0 when none.
  private static let owner = AtomicWord(0)
  /// Whether the handler was added (under the lock, once).
  private static let isInstalled = Locked(false)
  /// Room for the line: 16 bytes of checksum, the body, the closing brace and the line feed.
  private static let capacity = 256
  // Allocated once, before the handler is added; written only by the handler.
  nonisolated(unsafe) private static let line = UnsafeMutablePointer<UInt8>.allocate(
    capacity: capacity)

  /// Makes `owner` the recorder whose log gets the line, writing to `descriptor`; `seq` is its
  /// last action so far. Adds the signal handler the first time.
  static func attach(owner: ObjectIdentifier, descriptor fd: Int32, seq last: Int) {
    isInstalled.withLock { isInstalled in
      guard !isInstalled else { return }
      isInstalled = Platform.addFatalSignalHandler(handler)
    }
    seq.store(last)
    Self.owner.store(bits(owner))
    descriptor.store(Int(fd))
  }

  /// Notes that `owner` wrote the line of action `seq`.
  @inline(__always)
  static func note(seq value: Int, owner: ObjectIdentifier) {
    guard Self.owner.load() == bits(owner) else { return }
    seq.store(value)
  }

  /// Points the record at a new file of `owner` (after rotation).
  static func move(owner: ObjectIdentifier, to fd: Int32) {
    guard Self.owner.load() == bits(owner) else { return }
    descriptor.store(Int(fd))
  }

  /// Stops writing the line for `owner` (it closed or stopped), unless another recorder attached
  /// since.
  static func detach(owner: ObjectIdentifier) {
    guard Self.owner.load() == bits(owner) else { return }
    descriptor.store(-1)
    Self.owner.store(0)
  }

  private static func bits(_ owner: ObjectIdentifier) -> Int {
    Int(bitPattern: UInt(bitPattern: owner))
  }

  /// Writes the line. Async-signal-safe.
  private static let handler: Platform.FatalSignalHandler = { number, address in
    let fd = Int32(truncatingIfNeeded: FatalSignalRecord.descriptor.load())
    guard fd >= 0 else { return }
    let length = FatalSignalRecord.compose(
      into: FatalSignalRecord.line, seq: FatalSignalRecord.seq.load(),
      signal: number, address: address)
    Platform.writeRaw(fd, FatalSignalRecord.line, length)
  }

  /// Assembles the whole line (checksum, body, `}`, line feed) at `line`; returns its length.
  /// Async-signal-safe: no allocation, fixed-size output (at most 16 + 120 bytes).
  static func compose(
    into line: UnsafeMutablePointer<UInt8>, seq: Int, signal: Int32, address: UInt
  ) -> Int {
    typealias Text = SignalSafeText
    var cursor = line + 16
    Text.put(#""kind":"signal","seq":"#, at: &cursor)
    Text.putDecimal(seq, at: &cursor)
    Text.put(#","signal":""#, at: &cursor)
    Text.put(signalName(signal), at: &cursor)
    Text.put("\"", at: &cursor)
    if address != 0 {
      Text.put(#","address":"0x"#, at: &cursor)
      Text.putHex(UInt64(address), digits: 2 * MemoryLayout<UInt>.size, at: &cursor)
      Text.put("\"", at: &cursor)
    }
    let body = UnsafeRawBufferPointer(start: line + 16, count: cursor - (line + 16))
    let crc = CRC32C.checksumWithoutTables(body)
    var head = line
    Text.put(#"{"c":""#, at: &head)
    Text.putHex(UInt64(crc), digits: 8, at: &head)
    Text.put("\",", at: &head)
    Text.put("}\n", at: &cursor)
    return cursor - line
  }

  /// `SIGILL`, `SIGSEGV`, … without allocating (`SIGNAL` for others).
  static func signalName(_ number: Int32) -> StaticString {
    switch number {
    case Platform.SignalNumber.illegalInstruction: return "SIGILL"
    case Platform.SignalNumber.trap: return "SIGTRAP"
    case Platform.SignalNumber.abort: return "SIGABRT"
    case Platform.SignalNumber.segmentationFault: return "SIGSEGV"
    case Platform.SignalNumber.busError: return "SIGBUS"
    case Platform.SignalNumber.floatingPointError: return "SIGFPE"
    default: return "SIGNAL"
    }
  }
}
