import Dispatch

// Syncing a recording with `Durability.interval` in the background.
extension Recorder {
  /// Starts the timer that syncs the files written since the last sync every `interval`.
  func startSyncTimer(every interval: Duration) {
    let (seconds, attoseconds) = interval.components
    let nanos = max(1_000_000, Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    syncTimer.withLock { slot in
      let timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global(qos: .utility))
      timer.schedule(
        deadline: .now() + .nanoseconds(nanos), repeating: .nanoseconds(nanos),
        leeway: .milliseconds(10))
      timer.setEventHandler { [weak self] in self?.backgroundSync() }
      timer.resume()
      slot = timer
    }
  }

  /// Syncs the files written since the last sync (``RecorderCore/handlesForBackgroundSync()``)
  /// outside the core's lock; a failure stops the recording.
  func backgroundSync() {
    let report = syncGate.withLock { _ -> RecorderError? in
      let handles = core.withLock { $0.handlesForBackgroundSync() }
      let code = RecorderCore.syncAndClose(handles)
      guard code != 0 else { return nil }
      return core.withLock { $0.fail(.syncFailed(errno: code)) }
    }
    // Outside the gate: the handler may close the recorder.
    if let report { self.report(report) }
  }
}
