import Foundation
import Rewind
import RewindExamples
import Testing

/// Recording to a real device that fails every write. The tests change and restore the mode of
/// `/dev/full`, so they run one at a time.
@Suite(
  .serialized, .enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "needs /dev/full"))
struct RecorderDeviceTests {
  @Test func headerWriteToAFullDeviceThrowsNoSpace() throws {
    let mode = try fileMode("/dev/full")
    // `Platform.openForAppend` changes the mode of whatever it opened to 0600 (see
    // `recordingToADeviceLeavesItsModeAlone`); put the device back as it was.
    defer {
      try? FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: "/dev/full")
    }
    let errors = LockedArray<RecorderError>()
    let store = Store(initialState: TodoState(), reducer: todoReducer)
    let thrown = #expect(throws: RecorderError.self) {
      try store.startRecording(
        to: "/dev/full", app: "todo", options: RecordingOptions(ifExists: .replace),
        onError: { errors.append($0) })
    }
    #expect(thrown?.reason == .writeFailed(errno: ENOSPC))
    #expect(thrown?.lastRecordedSeq == 0)
    #expect(thrown?.path == "/dev/full")
    #expect(errors.count == 0)
    // The app goes on without a recorder.
    for action in faultWorkloadActions { store.dispatch(action) }
    #expect(store.state == faultWorkloadFinalState)
  }

  @Test func recordingToADeviceLeavesItsModeAlone() throws {
    let mode = try fileMode("/dev/full")
    defer {
      try? FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: "/dev/full")
    }
    let store = Store(initialState: TodoState(), reducer: todoReducer)
    _ = try? store.startRecording(
      to: "/dev/full", app: "todo", options: RecordingOptions(ifExists: .replace))
    // A recorder pointed at a device (`/dev/full`, `/dev/null`, `/dev/stderr`) must not chmod
    // it: as root that would lock every other user out of the device.
    #expect(try fileMode("/dev/full") == mode)
  }
}
