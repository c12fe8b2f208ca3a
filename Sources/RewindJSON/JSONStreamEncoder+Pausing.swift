/// Pauses in an encoding: how an encoding on a background thread gives its core back now and
/// then (the recorder's checkpoint encoder), between two values.
extension JSONStreamEncoder {
  /// Calls `pause` after about every `count` containers and array elements written, until
  /// called again: how an encoding on a background thread gives its core back now and then (the
  /// recorder's checkpoint encoder). `pause` runs on the encoding thread, between two values.
  package func pausing(every count: Int, _ pause: @escaping () -> Void) {
    encoder.pauseEvery = max(1, count)
    encoder.pause = pause
    encoder.state.pointee.untilPause = max(1, count)
  }
}

extension JSONStreamValueEncoder {
  /// Counts one container or element towards the next ``pause``, and calls it when due.
  @inline(__always)
  func countTowardsPause() {
    state.pointee.untilPause &-= 1
    guard state.pointee.untilPause == 0 else { return }
    state.pointee.untilPause = pauseEvery
    pause?()
  }
}
