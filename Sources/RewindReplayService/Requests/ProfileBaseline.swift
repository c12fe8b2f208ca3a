import RewindJSON
import RewindReplay

/// A profile saved earlier from another build (`replay profile LOG --json > base.json`), read
/// back for `replay profile --compare`: each action type's replayed stats, as
/// ``ProfileResponse/jsonValue`` wrote them.
package struct ProfileBaseline: Sendable, Equatable {
  /// Why a baseline file does not read, with what a person needs to find the fault.
  package enum ReadError: Error, Sendable, Equatable {
    /// The file is not JSON: the parser's error, and the 1-based line of its offset.
    case invalidJSON(path: String, JSONParseError, line: Int)
    /// The file is JSON but not a profile: where (a coding path like `types[2].replayed.p50`,
    /// empty for the whole document) and what is wrong there.
    case notAProfile(path: String, codingPath: String, reason: String)

    /// The file's path.
    package var path: String {
      switch self {
      case .invalidJSON(let path, _, _), .notAProfile(let path, _, _): return path
      }
    }

    /// One line on what is wrong, without the file's name.
    package var message: String {
      switch self {
      case .invalidJSON(_, let error, _):
        return "the baseline is not JSON: \(error.description)"
      case .notAProfile(_, let codingPath, let reason):
        return "the baseline is not a profile report: "
          + (codingPath.isEmpty ? reason : "\(codingPath): \(reason)")
      }
    }
  }

  /// The file it was read from.
  package var path: String
  /// Its action types' costs.
  package var types: [ActionProfile.TypeCost]

  /// A baseline of `types` (tests, and front ends that hold the report already).
  package init(path: String, types: [ActionProfile.TypeCost]) {
    self.path = path
    self.types = types
  }

  /// The baseline in `bytes`, the contents of the file at `path`.
  /// - Throws: ``ReadError/invalidJSON(path:_:line:)`` or
  ///   ``ReadError/notAProfile(path:codingPath:reason:)``.
  package init(path: String, bytes: [UInt8]) throws(ReadError) {
    let value: JSONValue
    do { value = try JSONParser.parse(bytes) } catch {
      let line = 1 + bytes.prefix(error.offset).lazy.filter { $0 == UInt8(ascii: "\n") }.count
      throw .invalidJSON(path: path, error, line: line)
    }
    guard case .object = value else {
      throw .notAProfile(
        path: path, codingPath: "", reason: "expected an object, found \(value.kindName)")
    }
    do {
      self.init(path: path, types: try RewindJSONDecoder().decode(Report.self, from: value).types)
    } catch let error as DecodingError {
      throw .notAProfile(
        path: path, codingPath: error.pathDescription, reason: error.reasonDescription)
    } catch {
      throw .notAProfile(path: path, codingPath: "", reason: "\(error)")
    }
  }

  /// What a baseline needs of the report.
  private struct Report: Decodable {
    var types: [ActionProfile.TypeCost]
  }
}

extension JSONValue {
  /// What kind of value this is, for a message: `an array`, `a string`…
  fileprivate var kindName: String {
    switch self {
    case .object: return "an object"
    case .array: return "an array"
    case .string: return "a string"
    case .number: return "a number"
    case .bool: return "a boolean"
    case .null: return "null"
    }
  }
}
