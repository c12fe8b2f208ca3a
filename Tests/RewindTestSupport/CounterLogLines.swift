/// Hand-written lines of a counter log (no checksums, as `Fixtures/` and docs/log-format.md's
/// "Writing a log by hand" allow), for tests that need a log shaped a particular way: a header
/// holding its state or announcing that it follows, and `increment` actions.
public enum CounterLogLines {
  /// A header of session `session` whose first action is `firstSeq`: with its state
  /// `{"count":firstSeq - 1}`, or — `stateFollows` — without it, announcing a `state` record for
  /// `firstSeq - 1` (format version 2), as a file begun by a background rotation starts.
  public static func header(
    firstSeq: Int = 1, stateFollows: Bool = false, session: String = "s", segment: Int? = nil
  ) -> String {
    let state =
      stateFollows ? #""stateFollows":true"# : #""state":{"count":\#(firstSeq - 1)}"#
    let segmentMember = segment.map { #""segment":\#($0),"# } ?? ""
    return
      #"{"kind":"header","format":"rewind","version":\#(stateFollows ? 2 : 1),"#
      + #""session":"\#(session)","app":"counter","actionType":"CounterAction","#
      + #""stateType":"CounterState","firstSeq":\#(firstSeq),\#(segmentMember)\#(state)}"#
  }

  /// The `increment` action `seq`.
  public static func increment(_ seq: Int) -> String {
    #"{"kind":"action","seq":\#(seq),"type":"increment","action":{"increment":{}}}"#
  }

  /// `lines`, each ended by a line feed.
  public static func text(_ lines: [String]) -> String {
    lines.joined(separator: "\n") + "\n"
  }
}
