import RewindCPU

/// Where a ``RecordingClock`` reads the time: the monotonic clock, and the CPU's constant-rate
/// counter when it has one. Tests drive the clock with a scripted source.
package protocol RecordingClockSource {
  /// Whether ``ticks()`` counts at a constant rate (else the clock never reads it).
  var hasConstantTicks: Bool { get }
  /// The monotonic clock, in nanoseconds.
  mutating func nanoseconds() -> UInt64
  /// The constant-rate counter, in its own unit.
  mutating func ticks() -> UInt64
}

/// The time this process sees: `CLOCK_MONOTONIC` and the CPU's counter (`RewindCPU`).
package struct SystemClockSource: RecordingClockSource {
  package let hasConstantTicks = rewind_ticks_are_constant() != 0

  package init() {}

  @inline(__always) package func nanoseconds() -> UInt64 { Platform.monotonicNanoseconds() }

  @inline(__always) package func ticks() -> UInt64 { rewind_ticks() }
}

/// The time of each recorded action, in nanoseconds, as the monotonic clock gives it — read for
/// a fraction of the clock's cost.
///
/// Reading `CLOCK_MONOTONIC` goes through the C library and the kernel's shared page (about
/// 20 ns, and about three times that right after the `write(2)` of the last action, when that
/// code is cold — a tenth of what the recorder adds to an action). Where the CPU has a
/// constant-rate counter (x86-64's invariant time-stamp counter, ARMv8's virtual counter), the
/// clock reads it instead — one instruction — and converts it with its rate measured against the
/// monotonic clock, as fast loggers do:
///
/// - Until the rate is known, every reading is the monotonic clock's. The first reading and the
///   counter's value then are the *anchor*; once at least ``calibrationNanoseconds`` have passed,
///   the next reading measures the rate over that interval.
/// - From then on, a reading less than ``anchorNanoseconds`` after the anchor (by the counter) is
///   the anchor's time plus the counter's ticks at that rate. Any later reading takes the
///   monotonic clock again, measures the rate over the whole interval, and becomes the anchor: so
///   an extrapolation never spans more than 10 ms, and its error stays within the rate's error
///   over 10 ms (well under a microsecond, the log's precision).
/// - An anchor is a counter reading taken between two clock readings at most
///   ``pairingNanoseconds`` apart (else the thread may have been preempted between them, and
///   the reading is the clock's alone). The rate is then off by at most twice that over the
///   interval it spans: an extrapolated time is within 0.1 ms of the clock's after the first
///   measurement (1 ms), and within 10 µs after the next ones (10 ms); on a quiet machine,
///   within nanoseconds.
/// - A counter that goes back (a process moved to a CPU whose counter lags) restarts the
///   calibration; the clock never returns less than it returned before.
///
/// Without a constant-rate counter every reading is the monotonic clock's. Not thread-safe: the
/// recorder reads it with its lock held.
package struct RecordingClock<Source: RecordingClockSource> {
  /// How long a rate measurement spans at least: 1 ms.
  package static var calibrationNanoseconds: UInt64 { 1_000_000 }
  /// How far from its anchor the clock extrapolates: 10 ms.
  package static var anchorNanoseconds: UInt64 { 10_000_000 }
  /// How far apart the two monotonic readings around a counter reading may be for the three to
  /// make an anchor: 5 µs. A thread preempted between them would otherwise skew the rate.
  package static var pairingNanoseconds: UInt64 { 5_000 }

  private var source: Source
  private let usesTicks: Bool
  /// The counter and the monotonic clock read together.
  private var anchorTicks: UInt64 = 0
  private var anchorNanos: UInt64 = 0
  private var hasAnchor = false
  /// Nanoseconds per tick; 0 until measured.
  private var nanosPerTick = 0.0
  /// The anchor's span in ticks (``anchorNanoseconds`` at the measured rate).
  private var anchorSpanTicks: UInt64 = 0
  /// The last time returned.
  private var last: UInt64 = 0

  /// A clock reading `source`.
  package init(source: Source) {
    self.source = source
    usesTicks = source.hasConstantTicks
  }

  /// The time now, in nanoseconds of the monotonic clock; never less than the last reading.
  @inline(__always)
  package mutating func now() -> UInt64 {
    guard usesTicks else { return monotonic(source.nanoseconds()) }
    let ticks = source.ticks()
    if nanosPerTick > 0, ticks >= anchorTicks, ticks &- anchorTicks < anchorSpanTicks {
      let elapsed = UInt64(Double(ticks &- anchorTicks) * nanosPerTick)
      return monotonic(anchorNanos &+ elapsed)
    }
    return reanchor()
  }

  /// Reads the monotonic clock; measures the rate and moves the anchor when it can.
  private mutating func reanchor() -> UInt64 {
    // The counter read between two readings of the clock, so that the pair is known to be
    // taken together: else this reading is the clock's, and the anchor stays.
    let before = source.nanoseconds()
    let ticks = source.ticks()
    let after = source.nanoseconds()
    guard after >= before, after &- before <= Self.pairingNanoseconds else {
      return monotonic(after)
    }
    let nanos = before &+ (after &- before) / 2
    if !hasAnchor || ticks < anchorTicks || nanos < anchorNanos {
      // The first reading, or the counter (or clock) went back: start measuring again.
      (anchorTicks, anchorNanos, hasAnchor, nanosPerTick) = (ticks, nanos, true, 0)
    } else if nanos &- anchorNanos >= Self.calibrationNanoseconds && ticks > anchorTicks {
      nanosPerTick = Double(nanos &- anchorNanos) / Double(ticks &- anchorTicks)
      // Only a counter ticking more than 10^21 times a second would overflow the span.
      let span = Double(Self.anchorNanoseconds) / nanosPerTick
      anchorSpanTicks = span < 18_000_000_000_000_000_000 ? UInt64(span) : .max
      (anchorTicks, anchorNanos) = (ticks, nanos)
    }
    return monotonic(nanos)
  }

  @inline(__always)
  private mutating func monotonic(_ nanos: UInt64) -> UInt64 {
    if nanos > last { last = nanos }
    return last
  }
}
