import Testing

@testable import RewindJSON

/// Walking a document by member name and element position finds the same values whether its
/// containers are on the tape or lazy (read from the text when reached).
@Suite struct JSONTapeNavigationTests {
  static let text =
    #"{"list":[10,{"a":[1,2,3],"b":"x"},[],[[4]]],"map":{"k1":1,"k\u0032":[2],"é":3},"n":null}"#

  /// The value reached by `steps` (a string a member, an int an element), as JSON text, or
  /// `nil` where a step leads nowhere; with the keys and count of the container reached.
  func walk(_ steps: [Any], lazyPast entries: Int) -> (String?, [String], Int) {
    Array(Self.text.utf8).withUnsafeBytes { bytes in
      let document = JSONTapeDocument(lazyContainerEntries: entries)
      guard document.load(bytes) else { return ("did not load", [], 0) }
      var index = document.root
      for step in steps {
        let next =
          (step as? String).flatMap { document.member(named: $0, of: index) }
          ?? (step as? Int).flatMap { document.element($0, of: index) }
        guard let next else { return (nil, document.keys(of: index), document.count(at: index)) }
        index = next
      }
      return (
        document.value(at: index).jsonText, document.keys(of: index), document.count(at: index)
      )
    }
  }

  @Test func lazyAndEagerContainersAreWalkedAlike() {
    let paths: [[Any]] = [
      [], ["list"], ["list", 1, "a", 2], ["list", 1, "b"], ["list", 3, 0, 0], ["list", 2],
      ["list", 4], ["list", -1], ["map", "k2"], ["map", "é"], ["map", "e\u{301}"], ["map", "k3"],
      ["n"], ["n", "x"], ["list", "a"], ["map", 0],
    ]
    for path in paths {
      let eager = walk(path, lazyPast: .max)
      for limit in [0, 1, 2] {
        let lazy = walk(path, lazyPast: limit)
        #expect(lazy.0 == eager.0 && lazy.1 == eager.1 && lazy.2 == eager.2, "\(path), \(limit)")
      }
    }
    #expect(walk(["list", 1, "a", 2], lazyPast: 0).0 == "3")
    #expect(walk(["map", "e\u{301}"], lazyPast: 0).0 == "3")
    #expect(walk(["map"], lazyPast: 0).1 == ["k1", "k2", "é"])
    #expect(walk(["list"], lazyPast: 0).2 == 4)
  }
}
