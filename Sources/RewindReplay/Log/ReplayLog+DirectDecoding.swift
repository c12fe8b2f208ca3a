import RewindJSON

extension ReplayLog {
  /// Where the action of a loaded line is.
  struct LoadedActionLine {
    /// The tape index of the line's `action`.
    var payload: Int
    /// The line's `type`, when it is a string.
    var type: String?
    /// The line number.
    var number: Int
  }

  /// Loads the line of the action `seq` into `document`, for decoding its action straight from
  /// the bytes — the replay loop's fast path.
  ///
  /// - Returns: `nil` whenever the line needs the full path (``action(at:)`` and the
  ///   ``JSONValue`` decoder): a seq that is not an action line, or a line that is not valid
  ///   JSON or lacks an `action`. That path then gives the value or the exact error, as it
  ///   must also when decoding from the document fails.
  func loadActionLine(_ seq: Int, into document: JSONTapeDocument) -> LoadedActionLine? {
    // A migrated log goes the full way (`action(at:)`), which runs the migration.
    guard migration == nil, let entry = entry(seq: seq), entry.kind == .action else { return nil }
    let line = bytes.slice(entry.start, entry.start + entry.length)
    // A line in the recorder's layout needs only its action read into the document.
    if let layout = ActionLineLayout(
      line, limits: limits.json, verifiedSeq: entry.isRecorderLayout ? entry.seq : nil)
    {
      guard
        document.load(
          UnsafeRawBufferPointer(rebasing: line[layout.payload]), depth: layout.depth,
          elements: layout.elements)
      else { return nil }
      return LoadedActionLine(
        payload: document.root, type: layout.typeName(in: line), number: entry.line)
    }
    guard document.load(line), let payload = document.member("action", of: document.root) else {
      return nil
    }
    let type = document.member("type", of: document.root).flatMap(document.string(at:))
    return LoadedActionLine(payload: payload, type: type, number: entry.line)
  }

  /// Loads the line of the checkpoint after `seq` into `document`.
  ///
  /// - Returns: The tape index of its `state`, or `nil` when there is no such checkpoint or the
  ///   line needs the full path (``checkpointState(at:)`` and the ``JSONValue`` decoder), which
  ///   then gives the value or the exact error.
  func loadCheckpointLine(_ seq: Int, into document: JSONTapeDocument) -> Int? {
    guard migration == nil, let entry = checkpointEntries[seq],
      document.load(bytes.slice(entry.start, entry.start + entry.length))
    else { return nil }
    return document.member("state", of: document.root)
  }
}
