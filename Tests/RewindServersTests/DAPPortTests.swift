import Foundation
import RewindJSON
import Testing

/// `replay dap --port 0`: the adapter listens on 127.0.0.1, says which port on standard
/// error, and serves a client that connects, then the next one.
@Suite struct DAPPortTests {
  /// Connects to 127.0.0.1:`port`, sends `bytes`, and reads until the adapter closes the
  /// connection (after `disconnect`).
  static func exchange(port: Int, _ bytes: [UInt8]) throws -> [UInt8] {
    #if os(Linux)
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    try #require(fd >= 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = in_addr_t(UInt32(0x7f00_0001).bigEndian)
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    try #require(connected == 0, "cannot connect to 127.0.0.1:\(port)")
    let sent = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
    try #require(sent == bytes.count)
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if n <= 0 { break }
      received += buffer[0..<n]
    }
    return received
  }

  @Test func servesOneClientAfterAnotherOnLoopback() throws {
    let process = Process()
    process.executableURL = try DAPTestClient.replayExecutable()
    process.arguments = ["dap", "--port", "0"]
    let log = FileManager.default.temporaryDirectory
      .appendingPathComponent("rewind-dap-port-\(UUID().uuidString).txt")
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: log) }
    process.standardError = try FileHandle(forWritingTo: log)
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    defer {
      // SIGKILL: a child of the test runner inherits its blocked signals, SIGTERM among them.
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
    // "replay dap: listening on 127.0.0.1:PORT (one client at a time)", within 10 s.
    var line = ""
    for _ in 0..<200 where !line.contains("\n") {
      Thread.sleep(forTimeInterval: 0.05)
      line = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
    }
    let port = try #require(
      line.split(separator: ":").dropFirst(2).first.flatMap { Int($0.prefix { $0.isNumber }) },
      "no port in '\(line)'")
    #expect(line.hasPrefix("replay dap: listening on 127.0.0.1:"))
    for _ in 0..<2 {
      let reply = try Self.exchange(
        port: port,
        DAPPipeHarness.request(1, "initialize") + DAPPipeHarness.request(2, "disconnect"))
      let messages = DAPPipeHarness.unframe(reply)
      for message in messages { DAPTestClient.validate(message) }
      #expect(
        messages.map { $0["command"]?.stringValue ?? $0["event"]?.stringValue }
          == ["initialize", "disconnect"])
    }
  }
}
