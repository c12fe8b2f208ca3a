import Foundation
import RewindReplay

/// Finds the source file of a recorded call site (``CallSite``: a `#fileID`, `Module/File.swift`)
/// under a folder of sources, so that `where N` can print a path an editor opens.
package enum SourceLocator {
  /// Folders never searched: build products, dependencies' checkouts, version control.
  static let skipped: Set<String> = [
    ".build", ".git", ".swiftpm", "DerivedData", "Pods", "Carthage", "node_modules",
  ]
  /// At most this many entries are looked at, so that a `where` run from `/` still returns.
  static let maxEntries = 200_000

  /// The file of `site` under `root`, relative to `root`: the only file of its name, or the one
  /// in a folder named after its module (`Sources/Module/…/File.swift`), or — when several
  /// match equally — the first in path order. `nil` when none does.
  package static func locate(_ site: CallSite, under root: String) -> String? {
    let name = site.fileName
    guard !name.isEmpty, let walker = FileManager.default.enumerator(atPath: root) else {
      return nil
    }
    var found: [String] = []
    var seen = 0
    while let entry = walker.nextObject() as? String, seen < maxEntries {
      seen += 1
      let last = (entry as NSString).lastPathComponent
      if skipped.contains(last) || (last.hasPrefix(".") && last.count > 1) {
        walker.skipDescendants()
        continue
      }
      if last == name { found.append(entry) }
    }
    found.sort()
    if let module = site.module,
      let inModule = found.first(where: {
        $0.split(separator: "/").dropLast().contains { $0 == module }
      })
    {
      return inModule
    }
    return found.first
  }
}
