// The part of docs/apple.md's "Send the log of the last crash" that needs no Apple framework:
// at launch, the previous launch's session when it ended badly, joined into one file to share.
import Foundation
import Rewind

/// The log of the previous launch of `app` when it crashed, was killed or was cut off, as one
/// file in the temporary folder (every rotated file of the session, joined); `nil` when it
/// closed cleanly, there is none, or the file cannot be written.
public func logOfLastCrash(in folder: RecordingsFolder, app: String) -> URL? {
  guard let crash = folder.crashOfLastLaunch(app: app) else { return nil }
  let path = NSTemporaryDirectory() + "\(crash.id).jsonl"
  guard (try? crash.bundle(to: path)) != nil else { return nil }
  return URL(fileURLWithPath: path)
}
