import RewindReplay
import Testing

@Suite struct EditDistanceTests {
  @Test(arguments: [
    ("", "", 0), ("", "abc", 3), ("abc", "", 3), ("info", "info", 0), ("info", "inf", 1),
    ("info", "ifno", 1), ("--jsn", "--json", 1), ("kitten", "sitting", 3), ("ca", "abc", 3),
    ("Info", "info", 1), ("é", "e", 1), ("👍🏽", "👍", 1),
  ])
  func distance(_ source: String, _ target: String, _ expected: Int) {
    #expect(editDistance(source, target) == expected)
    #expect(editDistance(target, source) == expected)
  }

  @Test(
    arguments: [
      ("jsn", ["json", "help"], "json"),
      ("JSON", ["json", "help"], "json"),
      ("ifno", ["info", "step"], "info"),
      ("stpe", ["state", "step"], "step"),
      ("inf", ["information", "step"], "information"),
      ("recoveryy", ["recovery"], "recovery"),
      ("todo", ["todos", "filter"], "todos"),
      ("st", ["step", "state"], "step"),
      ("frobnicate", ["info", "step"], nil),
      ("x", ["at", "c"], nil),
      ("", ["info"], nil),
      ("i", ["info"], nil),
      ("diff", [], nil),
    ] as [(String, [String], String?)])
  func closestMatchSuggests(_ name: String, _ candidates: [String], _ expected: String?) {
    #expect(closestMatch(to: name, in: candidates) == expected)
  }

  @Test func closerCandidateWinsOverAnEarlierOne() {
    #expect(closestMatch(to: "stpe", in: ["stop", "step"], maxDistance: 2) == "step")
  }

  @Test func tieGoesToTheEarlierCandidate() {
    #expect(closestMatch(to: "bat", in: ["cat", "bit"]) == "cat")
  }

  @Test func maxDistanceWidensOrNarrowsTheThreshold() {
    #expect(closestMatch(to: "abcd", in: ["wxcd"]) == nil)
    #expect(closestMatch(to: "abcd", in: ["wxcd"], maxDistance: 2) == "wxcd")
    #expect(closestMatch(to: "jsn", in: ["json"], maxDistance: 0) == nil)
  }

  @Test func hugeNamesAreNotCompared() {
    let huge = String(repeating: "a", count: 100_000)
    #expect(closestMatch(to: huge, in: ["a"]) == nil)
    #expect(closestMatch(to: "aaa", in: [huge, "aab"]) == "aab")
  }
}
