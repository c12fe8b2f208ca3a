import RewindReplay
import RewindReplayService

@testable import ReplayCLI

/// Models of the full-screen debugger over the bundled fixtures, for tests.
enum TUIFixture {
  /// A model of `Fixtures/<name>` with the bundled apps, on a `width` × `height` screen.
  static func model(
    _ name: String, width: Int = 80, height: Int = 24, isolated: Bool = false
  ) throws -> TUIModel {
    if isolated { try PowerTools.useReplayBinaryAsWorker() }
    let opened = try OpenedLog(
      path: CLIFixture.path(name), recovery: .tail, apps: ReplayRun.apps,
      isolation: isolated ? .worker(interactive: false) : .inProcess)
    return TUIModel(opened: opened, width: width, height: height)
  }

  /// A model of a log at `path`.
  static func model(path: String, width: Int = 80, height: Int = 24) throws -> TUIModel {
    let opened = try OpenedLog(path: path, recovery: .tail, apps: ReplayRun.apps)
    return TUIModel(opened: opened, width: width, height: height)
  }

  /// The keys of `text`, one character each (`"g12\r"`), decoded as the terminal would send it.
  static func keys(_ text: String) -> [TerminalKey] {
    var decoder = KeyDecoder()
    decoder.feed(Array(text.utf8))
    return decoder.keys() + decoder.flushPending()
  }
}

extension TUIModel {
  /// The screen as text.
  var screen: String { TUIRenderer.render(self).text }

  /// Feeds the bytes of `text` as keys.
  func type(_ text: String) {
    handle(TUIFixture.keys(text))
  }
}
