// What differs between the platforms for a recorder inside an app: where a recordings folder
// lives by default, how it is kept out of backups and readable while the device is locked, and
// which notifications say that the app is going to the background or quitting. (The C-library
// differences are in Platform.swift.)
import Foundation

#if canImport(UIKit) && !os(watchOS)
  import UIKit
#elseif canImport(WatchKit)
  import WatchKit
#endif

extension Platform {
  /// The default recordings folder: `Application Support/<name>/Recordings` in the app's
  /// container on Apple platforms (`~/Library/Application Support/…` for a macOS app outside a
  /// sandbox), `$XDG_DATA_HOME/<name>/Recordings` (or `~/.local/share/…`) on Linux.
  package static func standardRecordingsFolder(name: String) throws -> String {
    let support = try FileManager.default.url(
      for: .applicationSupportDirectory, in: .userDomainMask, appropriateFor: nil, create: true)
    return support.appendingPathComponent(name).appendingPathComponent("Recordings").path
  }

  /// Prepares a recordings folder: on Apple platforms it is excluded from backups (logs are
  /// diagnostics, not user data), and on iOS, tvOS, watchOS and visionOS its files get the
  /// protection class "complete until first user authentication", so the recorder keeps writing
  /// while the device is locked (the default class, "complete", would make writes fail there).
  package static func prepareRecordingsFolder(_ path: String) {
    #if canImport(Darwin)
      var url = URL(fileURLWithPath: path, isDirectory: true)
      var values = URLResourceValues()
      values.isExcludedFromBackup = true
      try? url.setResourceValues(values)
    #endif
    #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
      try? FileManager.default.setAttributes(
        [.protectionKey: FileProtectionType.completeUntilFirstUserAuthentication],
        ofItemAtPath: path)
    #endif
  }

  /// The notifications after which a buffered recorder flushes: the app moved to the
  /// background (iOS, iPadOS, Mac Catalyst, tvOS, visionOS, watchOS) or is about to quit, or
  /// (macOS) stopped being the active app or is about to quit. None on Linux.
  package static var flushNotifications: [Notification.Name] {
    #if canImport(UIKit) && !os(watchOS)
      return [
        UIApplication.didEnterBackgroundNotification, UIApplication.willTerminateNotification,
      ]
    #elseif canImport(WatchKit)
      return [WKApplication.didEnterBackgroundNotification]
    #elseif os(macOS)
      // AppKit's names, spelled out so that every program linking Rewind (`replay` included)
      // does not load AppKit.
      return [
        Notification.Name("NSApplicationDidResignActiveNotification"),
        Notification.Name("NSApplicationWillTerminateNotification"),
      ]
    #else
      return []
    #endif
  }
}
