import Rewind
import RewindReplay
import RewindReplayService

/// What every command says once, up front, when a log was recorded by another build of the app
/// than the one this replay binary registers: which builds, and what follows (migrations, lines
/// that will not decode, a newer replay needed).
enum BuildComparison {
  /// The note or warning for `log` opened with `app`; `nil` when there is nothing to say (the
  /// same build, or a log or registration without a stamp).
  static func note(log: ReplayLog, app: ReplayApp) -> Diagnostic? {
    note(header: log.header, path: log.path, app: app)
  }

  /// The same for a log known by its `header` and `path` (a file being followed).
  static func note(header: LogHeader, path: String, app: ReplayApp) -> Diagnostic? {
    guard let logStamp = header.build, let appStamp = app.build else { return nil }
    let recorded = "\(path) was recorded by \(app.name) \(logStamp.summary)"
    let ours = "this replay has \(app.name) \(appStamp.summary)"
    let rebuild = logStamp.revision.map {
      Diagnostic.Hint(
        "git checkout \($0) && swift build --product replay",
        comment: "replay with the exact build that recorded it")
    }
    let compat = Diagnostic.Hint(
      "replay compat \(path)", comment: "lists what does not decode, per action type")
    switch app.migrationPlan(for: header) {
    case .migrate(let chain):
      return Diagnostic(
        .note, at: nil, "\(recorded); \(ours)",
        notes: [
          "its actions and states go through the migrations \(chain.description) before they "
            + "are decoded; migrated actions are marked as such"
        ], hints: [])
    case .missing(_, _, let gap):
      return Diagnostic.warning(
        "\(recorded); \(ours)",
        notes: [
          "there is no migration from schema \(gap) to \(gap + 1): actions and states whose "
            + "shape changed since will not decode"
        ], hints: [compat] + (rebuild.map { [$0] } ?? []))
    case .logIsNewer(let logSchema, let appSchema):
      return Diagnostic.warning(
        "\(recorded); \(ours)",
        notes: [
          "the log's schema \(logSchema) is newer than this replay's \(appSchema): build a newer "
            + "replay from the app's current source to read what changed"
        ], hints: [compat] + (rebuild.map { [$0] } ?? []))
    case .none:
      // Only what this replay's registration declares is compared: one that gives only a
      // schema says nothing about a log's version.
      let versionDiffers = appStamp.version.map { $0 != logStamp.version } ?? false
      let buildDiffers = appStamp.build.map { $0 != logStamp.build } ?? false
      guard versionDiffers || buildDiffers else { return nil }
      return Diagnostic(
        .note, at: nil, "\(recorded); \(ours)",
        notes: ["the same schema: its actions and states decode as they are"], hints: [])
    }
  }
}
