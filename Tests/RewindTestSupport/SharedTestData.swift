import Foundation

/// Third-party test data that lives beside the repository, in `../shared/`, never inside it.
///
/// CI and every development machine have `../shared/` next to the clone; a clone elsewhere may
/// not. Tests that read it run when it is there, are skipped with ``skipComment`` when it is not,
/// and run anyway (and fail, naming the missing folder) when `CI=true`, so that in CI the check
/// can never silently vanish.
public struct SharedTestData: Sendable {
  /// The folder the data is read from.
  public var directory: URL
  /// The environment variable that overrides ``directory``.
  public var environmentVariable: String
  /// What the data is, for messages: `the JSONTestSuite parsing corpus`.
  public var title: String

  /// Nicolas Seriot's JSONTestSuite parsing corpus (`y_`, `n_` and `i_` files), read from
  /// `../shared/corpora/JSONTestSuite/test_parsing` or from `$REWIND_JSONTESTSUITE`.
  public static let jsonTestSuite = SharedTestData(
    relativePath: "corpora/JSONTestSuite/test_parsing", environmentVariable: "REWIND_JSONTESTSUITE",
    title: "the JSONTestSuite parsing corpus")

  /// Whether this is a CI run (`CI=true`), where shared data is required.
  public static var isCI: Bool {
    ProcessInfo.processInfo.environment["CI"]?.lowercased() == "true"
  }

  init(relativePath: String, environmentVariable: String, title: String) {
    let environment = ProcessInfo.processInfo.environment
    if let override = environment[environmentVariable], !override.isEmpty {
      directory = URL(fileURLWithPath: override, isDirectory: true)
    } else {
      directory = Repository.root.deletingLastPathComponent()
        .appendingPathComponent("shared", isDirectory: true)
        .appendingPathComponent(relativePath, isDirectory: true)
    }
    self.environmentVariable = environmentVariable
    self.title = title
  }

  /// Whether ``directory`` exists and is a folder.
  public var isPresent: Bool {
    var isDirectory: ObjCBool = false
    return FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory)
      && isDirectory.boolValue
  }

  /// Whether tests that read the data should run: it is present, or this is CI (where its
  /// absence must fail the run).
  public var shouldRun: Bool { isPresent || Self.isCI }

  /// Why the tests that read the data were skipped.
  public var skipComment: String {
    "\(title) is not at \(directory.path) (it lives beside the repository in "
      + "../shared/; set \(environmentVariable) to its folder to run these tests)"
  }

  /// Returns when ``directory`` is there.
  ///
  /// - Throws: ``Missing`` when it is not, naming it and the variable that overrides it.
  public func requirePresent() throws {
    guard isPresent else { throw Missing(data: self) }
  }

  /// The files in ``directory`` whose names end in `suffix`, sorted by name, with their bytes.
  ///
  /// - Throws: ``Missing`` when the folder is absent, naming it and the variable that overrides
  ///   it; a file-system error when a file cannot be read.
  public func files(withSuffix suffix: String) throws -> [(name: String, bytes: [UInt8])] {
    try requirePresent()
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
      .filter { $0.hasSuffix(suffix) }.sorted()
    return try names.map { name in
      (name, Array(try Data(contentsOf: directory.appendingPathComponent(name))))
    }
  }

  /// The shared data is not where it must be.
  public struct Missing: Error, CustomStringConvertible {
    /// The data that is missing.
    public var data: SharedTestData

    /// Names the folder and the way to point the tests elsewhere.
    public var description: String {
      "\(data.title) is not at \(data.directory.path); CI=true requires it. Put ../shared/ "
        + "beside the repository or set \(data.environmentVariable) to the folder."
    }
  }
}
