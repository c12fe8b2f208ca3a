import Foundation
import Testing

@testable import Rewind

/// The header's `recordedAt`, formatted by hand (a rotation writes it on the dispatching thread,
/// where making an `ISO8601DateFormatter` cost 0.3 ms): the same text as Foundation's.
@Suite struct TimestampTests {
  static func foundation(_ date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    return formatter.string(from: date)
  }

  @Test func theTimestampIsFoundationsISO8601() {
    // Edges: the epoch, leap days, century years, the last second of a year, before 1970, and
    // fractions of a second (dropped, as Foundation drops them). From 1600 on: before the
    // Gregorian calendar began (1582), Foundation's formatter counts in the Julian one.
    let fixed: [Double] = [
      0, -1, 59, 86_399, 86_400, 951_782_400, 951_868_799, 4_107_542_400, 1_795_255_200.75,
      1_798_761_599, -2_208_988_800, -11_676_096_000, 253_402_300_799, -0.5,
    ]
    var generator = SystemRandomNumberGenerator()
    let random = (0..<2_000).map { _ in
      Double(Int64.random(in: -11_676_096_000...253_402_300_799, using: &generator))
    }
    for seconds in fixed + random {
      let date = Date(timeIntervalSince1970: seconds)
      #expect(LogLineBuilder.timestamp(date) == Self.foundation(date), "\(seconds)")
    }
  }
}
