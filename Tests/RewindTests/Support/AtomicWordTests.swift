import Foundation
import Testing

@testable import Rewind

/// `AtomicWord`, and the rule it exists for: the app-linked modules use no
/// `Synchronization.Atomic` or `Mutex` (macOS 15 / iOS 18 and later).
@Suite struct AtomicWordTests {
  @Test func loadsStoresAndComparesAndExchanges() {
    let word = AtomicWord(-1)
    #expect(word.load() == -1)
    word.store(42)
    #expect(word.load() == 42)
    #expect(!word.compareExchange(expected: 0, desired: 7))
    #expect(word.load() == 42)
    #expect(word.compareExchange(expected: 42, desired: 7))
    #expect(word.load() == 7)
  }

  @Test func concurrentIncrementsByCompareExchangeAreNotLost() async {
    let word = AtomicWord(0)
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<4 {
        group.addTask {
          for _ in 0..<10_000 {
            while true {
              let value = word.load()
              if word.compareExchange(expected: value, desired: value + 1) { break }
            }
          }
        }
      }
    }
    #expect(word.load() == 40_000)
  }

  @Test func appLinkedModulesDoNotUseSynchronization() throws {
    let sources = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Sources")
    var offenders: [String] = []
    for module in ["Rewind", "RewindJSON"] {
      let folder = sources.appendingPathComponent(module)
      let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String }
      for file in files ?? [] where file.hasSuffix(".swift") {
        let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
        if text.contains("import Synchronization") { offenders.append("\(module)/\(file)") }
      }
    }
    #expect(offenders.isEmpty, "use AtomicWord or Locked instead: \(offenders)")
  }
}
