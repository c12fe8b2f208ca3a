import Foundation

/// Reading a recorded log in the recipe tests: its records as JSON objects.
enum RecipeLog {
  /// A new file name in the temporary folder.
  static func temporaryPath(_ name: String) -> String {
    NSTemporaryDirectory() + "rewind-recipe-\(name)-\(UUID().uuidString).jsonl"
  }

  /// Every record of the log at `path`, in file order.
  static func records(_ path: String) throws -> [[String: Any]] {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    return try text.split(separator: "\n").map { line in
      try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
    }
  }

  /// The `type` of each `action` or `skipped` line, in order.
  static func actionTypes(_ path: String) throws -> [String] {
    try records(path).compactMap { record in
      guard let kind = record["kind"] as? String, kind == "action" || kind == "skipped" else {
        return nil
      }
      return record["type"] as? String
    }
  }

  /// The `seq` of each checkpoint (`checkpoint` or `state` record), in order.
  static func checkpointSeqs(_ path: String) throws -> [Int] {
    try records(path).compactMap { record in
      guard let kind = record["kind"] as? String, kind == "checkpoint" || kind == "state" else {
        return nil
      }
      return record["seq"] as? Int
    }
  }
}
