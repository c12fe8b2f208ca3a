import Foundation
import Testing

@testable import Rewind

/// The fatal-signal line's bytes, assembled as the signal handler does.
@Suite struct FatalSignalRecordTests {
  static func line(seq: Int, signal: Int32, address: UInt) -> String {
    let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
    defer { buffer.deallocate() }
    let length = FatalSignalRecord.compose(into: buffer, seq: seq, signal: signal, address: address)
    return String(decoding: UnsafeBufferPointer(start: buffer, count: length), as: UTF8.self)
  }

  /// The checksum covers the body, as every recorder line's does (docs/log-format.md).
  static func checksumHolds(_ line: String) -> Bool {
    let bytes = Array(line.utf8.dropLast())  // the line feed
    guard bytes.count > 17, bytes.last == UInt8(ascii: "}") else { return false }
    let stored = String(decoding: bytes[6..<14], as: UTF8.self)
    let body = Array(bytes[16..<(bytes.count - 1)])
    let computed = CRC32C.checksum(body)
    return stored == String(computed, radix: 16).leftPadded(to: 8)
  }

  @Test func aFaultNamesTheSignalTheActionAndTheAddress() {
    let line = Self.line(
      seq: 38, signal: Platform.SignalNumber.segmentationFault, address: 0x7F00_1234_ABCD)
    #expect(
      line.hasSuffix(
        #","kind":"signal","seq":38,"signal":"SIGSEGV","address":"0x00007f001234abcd"}"# + "\n"))
    #expect(line.hasPrefix(#"{"c":""#))
    #expect(Self.checksumHolds(line), "\(line)")
  }

  /// The signal handler writes its line straight to the file: with a buffered recording, every
  /// file's header must be in the file before it — the first one's and each rotation's.
  @Test func aBufferedRecordingWritesEachHeaderBeforeTheSignalLineCanCome() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("buffered.jsonl")
    let store = Store(initialState: 0, reducer: Reducer<Int, Int> { state, add in state += add })
    let recorder = try store.startRecording(
      to: path, app: "sum",
      options: RecordingOptions(
        durability: .buffered(capacity: 1 << 20), checkpointInterval: 10,
        rotation: Rotation(maxBytes: 2_000, keepFiles: 10), recordsFatalSignals: true))
    for n in 1...100 { store.dispatch(n) }
    // Not closed, not flushed: what a signal would find.
    let files = try directory.fileNames()
    #expect(files.count > 2, "\(files)")
    for name in files {
      let text = try String(contentsOfFile: directory.file(name), encoding: .utf8)
      #expect(text.contains(#""kind":"header""#), "\(name) has its header: \(text.prefix(80))")
    }
    recorder.close()
  }

  @Test func aSentSignalHasNoAddress() {
    let line = Self.line(seq: 0, signal: Platform.SignalNumber.abort, address: 0)
    #expect(line.hasSuffix(#","kind":"signal","seq":0,"signal":"SIGABRT"}"# + "\n"))
    #expect(Self.checksumHolds(line), "\(line)")
  }

  @Test(arguments: [
    (Platform.SignalNumber.illegalInstruction, "SIGILL"), (Platform.SignalNumber.trap, "SIGTRAP"),
    (Platform.SignalNumber.busError, "SIGBUS"),
    (Platform.SignalNumber.floatingPointError, "SIGFPE"),
    (Int32(63), "SIGNAL"),
  ])
  func signalsAreNamed(number: Int32, name: String) {
    #expect("\(FatalSignalRecord.signalName(number))" == name)
  }

  @Test func theTablelessChecksumMatchesTheTabledOne() {
    var generator = SystemRandomNumberGenerator()
    for length in [0, 1, 7, 8, 15, 16, 17, 100, 255] {
      let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
      let tableless = bytes.withUnsafeBytes { CRC32C.checksumWithoutTables($0) }
      #expect(tableless == CRC32C.checksum(bytes), "length \(length)")
    }
    #expect(
      Array("123456789".utf8).withUnsafeBytes { CRC32C.checksumWithoutTables($0) } == 0xE306_9283)
  }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    String(repeating: "0", count: max(0, width - count)) + self
  }
}
