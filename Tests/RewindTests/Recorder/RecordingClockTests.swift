import Rewind
import Testing

/// A clock source the test drives: the monotonic clock is `now`, which only the test moves, and
/// the counter is `ticksAt(now)`.
private final class ScriptedSource: RecordingClockSource {
  let hasConstantTicks: Bool
  var now: UInt64 = 5_000_000_000
  var ticksAt: (UInt64) -> UInt64 = { $0 * 3 }
  /// How many times the monotonic clock was read.
  var clockReadings = 0
  /// Added to `now` by each reading of the monotonic clock (a slow or preempted read).
  var readingCost: UInt64 = 0

  init(hasConstantTicks: Bool) { self.hasConstantTicks = hasConstantTicks }

  func nanoseconds() -> UInt64 {
    clockReadings += 1
    now += readingCost
    return now
  }

  func ticks() -> UInt64 { ticksAt(now) }
}

@Suite struct RecordingClockTests {
  @Test func withoutAConstantRateCounterEveryReadingIsTheClocks() {
    let script = ScriptedSource(hasConstantTicks: false)
    var clock = RecordingClock(source: script)
    #expect(clock.now() == 5_000_000_000)
    script.now += 1_234
    #expect(clock.now() == 5_000_001_234)
    #expect(script.clockReadings == 2)
    // A clock that went back is held at its last reading.
    script.now -= 1_000
    #expect(clock.now() == 5_000_001_234)
  }

  @Test func readsTheCounterBetweenAnchorsAndTheClockOnlyToMoveThem() {
    let script = ScriptedSource(hasConstantTicks: true)
    var clock = RecordingClock(source: script)
    // Before the rate is known (the first millisecond), every reading is the clock's.
    #expect(clock.now() == 5_000_000_000)
    script.now += 400_000
    #expect(clock.now() == 5_000_400_000)
    script.now += 700_000  // 1.1 ms after the first anchor: the rate is measured here
    #expect(clock.now() == 5_001_100_000)
    let afterCalibration = script.clockReadings
    // For the next 10 ms the counter alone gives the time, exactly for a steady counter.
    for step in 1...99 {
      script.now += 100_000
      let expected = 5_001_100_000 + UInt64(step) * 100_000
      let reading = clock.now()
      #expect(reading >= expected - 1 && reading <= expected, "step \(step)")
    }
    #expect(script.clockReadings == afterCalibration)
    // Past the anchor's 10 ms, the clock is read again (twice, around the counter).
    script.now += 200_000
    #expect(clock.now() == 5_011_200_000)
    #expect(script.clockReadings == afterCalibration + 2)
  }

  @Test func aCounterThatGoesBackRestartsTheMeasurementAndTimeNeverGoesBack() {
    let script = ScriptedSource(hasConstantTicks: true)
    var clock = RecordingClock(source: script)
    _ = clock.now()
    script.now += 2_000_000
    _ = clock.now()  // rate measured: 3 ticks a nanosecond
    script.now += 1_000_000
    let before = clock.now()
    #expect(before >= 5_002_999_999 && before <= 5_003_000_000)
    // The process moves to a CPU whose counter is 1 s behind.
    script.ticksAt = { $0 * 3 - 3_000_000_000 }
    script.now += 10
    let readings = script.clockReadings
    #expect(clock.now() == 5_003_000_010)
    #expect(script.clockReadings > readings, "the clock must be read when the counter goes back")
    // Measuring starts again from there: the clock's own readings until 1 ms has passed.
    script.now += 500_000
    #expect(clock.now() == 5_003_500_010)
    script.now += 600_000
    #expect(clock.now() == 5_004_100_010)
    script.now += 1_000
    let extrapolated = clock.now()
    #expect(extrapolated >= 5_004_101_009 && extrapolated <= 5_004_101_010)
  }

  @Test func aPairOfClockReadingsTooFarApartMakesNoAnchor() {
    let script = ScriptedSource(hasConstantTicks: true)
    script.readingCost = 10_000  // each clock reading takes 10 µs, as if preempted
    var clock = RecordingClock(source: script)
    var last: UInt64 = 0
    for _ in 0..<50 {
      script.now += 300_000
      let reading = clock.now()
      #expect(reading >= last)
      #expect(reading == script.now, "every reading is the clock's own")
      last = reading
    }
  }

  /// On this machine's own clock and counter: readings never go back, and stay within a
  /// millisecond of the monotonic clock read around them (the clock's bound is 0.1 ms).
  @Test func theSystemClockFollowsTheMonotonicClock() {
    var clock = RecordingClock(source: SystemClockSource())
    let start = Platform.monotonicNanoseconds()
    var (last, readings, wentBack, strayed): (UInt64, Int, Int, Int) = (0, 0, 0, 0)
    // Long enough for the rate to be measured and the anchor to move a few times.
    while Platform.monotonicNanoseconds() - start < 40_000_000 {
      let before = Platform.monotonicNanoseconds()
      let reading = clock.now()
      let after = Platform.monotonicNanoseconds()
      if reading < last { wentBack += 1 }
      if reading + 1_000_000 < before || reading > after + 1_000_000 { strayed += 1 }
      last = reading
      readings += 1
    }
    #expect(readings > 1_000)
    #expect(wentBack == 0)
    #expect(strayed == 0)
  }
}
