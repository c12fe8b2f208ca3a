import Foundation
import RewindJSON

/// Which build of the app recorded a log: its version and build number, the source revision it
/// was built from, and the schema version of its actions and state. Written in every header
/// (`"build"`, docs/log-format.md), shown by `replay info`, and compared with the replay
/// binary's own registration to say when a log comes from another build (docs/replay.md, "A log
/// from an older build").
public struct BuildStamp: Sendable, Equatable {
  /// The app's version (`CFBundleShortVersionString`, `"1.4.2"`).
  public var version: String?
  /// The build number (`CFBundleVersion`, `"87"`).
  public var build: String?
  /// The source revision it was built from (a commit hash, a tag).
  public var revision: String?
  /// The schema version of the app's actions and state: an integer the app raises whenever it
  /// changes them in a way an older log no longer decodes with (a renamed field, a removed
  /// case). Replay migrations (``SchemaMigration``) go from one schema version to the next.
  public var schema: Int?

  /// A stamp with what is given.
  public init(
    version: String? = nil, build: String? = nil, revision: String? = nil, schema: Int? = nil
  ) {
    self.version = version
    self.build = build
    self.revision = revision
    self.schema = schema
  }

  /// The main bundle's version and build number (on Apple platforms, from the app's Info.plist;
  /// elsewhere usually none), with `schema` and `revision`.
  public static func mainBundle(schema: Int? = nil, revision: String? = nil) -> BuildStamp {
    let info = Bundle.main.infoDictionary
    return BuildStamp(
      version: info?["CFBundleShortVersionString"] as? String,
      build: info?["CFBundleVersion"] as? String, revision: revision, schema: schema)
  }

  /// Whether it says nothing.
  public var isEmpty: Bool { version == nil && build == nil && revision == nil && schema == nil }

  /// `1.4.2 (87), revision 3f9a2c1, schema 3`, leaving out what is unknown.
  public var summary: String {
    var parts: [String] = []
    switch (version, build) {
    case (let version?, let build?): parts.append("\(version) (\(build))")
    case (let version?, nil): parts.append(version)
    case (nil, let build?): parts.append("build \(build)")
    case (nil, nil): break
    }
    if let revision { parts.append("revision \(revision)") }
    if let schema { parts.append("schema \(schema)") }
    return parts.joined(separator: ", ")
  }

  /// The header's `"build"` object: only the members that are known.
  package var json: JSONValue {
    var members: [JSONMember] = []
    if let version { members.append(JSONMember("version", .string(version))) }
    if let build { members.append(JSONMember("build", .string(build))) }
    if let revision { members.append(JSONMember("revision", .string(revision))) }
    if let schema { members.append(JSONMember("schema", .number(String(schema)))) }
    return .object(members)
  }

  /// Reads a header's `"build"` object; members of the wrong type are left out.
  package init(json: JSONValue) {
    version = json["version"]?.stringValue
    build = json["build"]?.stringValue
    revision = json["revision"]?.stringValue
    schema = json["schema"]?.intValue
  }
}
