import Testing

/// A log of an app this replay binary does not know: everything that needs no reducer works;
/// states between checkpoints fail saying which apps are known and how to build a replay binary.
@Suite struct UnknownAppTests {
  private static let lines = [
    #"{"kind":"header","format":"rewind","version":1,"session":"s-1","app":"shop","actionType":"ShopAction","stateType":"ShopState","recordedAt":"2026-11-21T10:00:00Z","firstSeq":1,"checkpointInterval":3,"state":{"cart":[]}}"#,
    #"{"kind":"action","seq":1,"time":0.25,"type":"addItem","action":{"addItem":{"sku":"A1"}}}"#,
    #"{"kind":"action","seq":2,"time":0.5,"type":"addItem","action":{"addItem":{"sku":"B2"}}}"#,
    #"{"kind":"action","seq":3,"time":0.75,"type":"addItem","action":{"addItem":{"sku":"C3"}}}"#,
    #"{"kind":"checkpoint","seq":3,"state":{"cart":["A1","B2","C3"]}}"#,
    #"{"kind":"action","seq":4,"time":1.0,"type":"removeItem","action":{"removeItem":{"sku":"A1"}}}"#,
    #"{"kind":"action","seq":5,"time":1.25,"type":"checkout","action":{"checkout":{}}}"#,
    #"{"kind":"end","seq":5,"reason":"closed"}"#,
  ]

  private func withShopLog(_ body: (String) throws -> Void) throws {
    try CLIFixture.withTemporaryDirectory { directory in
      try body(try CLIFixture.write(Self.lines, named: "shop.jsonl", in: directory))
    }
  }

  @Test func infoDescribesTheLogAndSaysTheAppIsUnknown() throws {
    try withShopLog { log in
      let run = ReplayRun(["info", log])
      #expect(run.status == 0)
      #expect(
        run.outputLines.contains(
          "app:          shop (ShopState, ShopAction) — not known to this replay binary"))
      #expect(run.outputLines.contains("actions:      5 (seq 1…5)"))
      let json = ReplayRun(["info", log, "--json"])
      #expect(json.status == 0)
      #expect(json.standardOutput.contains(#""appKnown":false"#))
    }
  }

  @Test func actionsListsTheRecordedActions() throws {
    try withShopLog { log in
      let run = ReplayRun(["actions", log])
      #expect(run.status == 0)
      #expect(run.standardError == "")
      #expect(
        run.standardOutput == """
            1    0.250s  addItem        {"sku":"A1"}
            2    0.500s  addItem        {"sku":"B2"}
            3    0.750s  addItem        {"sku":"C3"}
            4    1.000s  removeItem     {"sku":"A1"}
            5    1.250s  checkout

          """)
    }
  }

  @Test func stateAtTheHeaderOrACheckpointNeedsNoReducer() throws {
    try withShopLog { log in
      let initial = ReplayRun(["state", log, "--at", "0", "--json"])
      #expect(initial.status == 0)
      #expect(initial.standardOutput == #"{"cart":[]}"# + "\n")
      let checkpoint = ReplayRun(["state", log, "--at", "3", "--path", "cart.count"])
      #expect(checkpoint.status == 0)
      #expect(checkpoint.standardOutput == "3\n")
    }
  }

  @Test func stateBetweenCheckpointsFailsNamingTheKnownAppsAndTheEmbeddingGuide() throws {
    try withShopLog { log in
      let run = ReplayRun(["state", log, "--at", "5"])
      #expect(run.status == 2)
      #expect(run.standardOutput == "")
      #expect(
        run.standardError.replacingLog(log) == """
          error: $LOG:1: this replay binary does not know the app "shop" (it knows "counter", "todo")
          note: info, actions, and states at recorded checkpoints work without the app's reducer: positions 0, 3
          hint: build a replay binary for your app in a few lines   # see docs/embedding.md

          """)
    }
  }

  @Test func sessionMovesAndPrintsAtCheckpointsButNotBetweenThem() throws {
    try withShopLog { log in
      let run = ReplayRun([log, "-c", "goto 3", "-c", "print cart[2]", "-c", "next", "-c", "print"])
      #expect(run.status == 2)
      #expect(
        run.standardOutput == """
          (replay) goto 3
          >    3    0.750s  addItem        {"sku":"C3"}
          (replay) print cart[2]
          "C3"
          (replay) next
          >    4    1.000s  removeItem     {"sku":"A1"}
          (replay) print

          """)
      #expect(
        run.standardError.contains(#"does not know the app "shop" (it knows "counter", "todo")"#))
      #expect(run.standardError.contains("docs/embedding.md"))
    }
  }
}
