import RewindJSON

extension ReplayLog {
  /// Where the action of a loaded line is.
  struct LoadedActionLine {
    /// The tape index of the line's `action`.
    var payload: Int
    /// The line's `type`.
    var type: ActionTypeName
    /// The line number.
    var number: Int
  }

  /// The `type` of an action line, read from the line's bytes only when asked for: the replay
  /// loop and `replay compat` need it for a step marker or an error, not for every action.
  struct ActionTypeName {
    private enum Source {
      /// The quoted name in the line, and whether it has escapes.
      case quoted(UnsafeRawBufferPointer, isEscaped: Bool)
      /// The name read already (`nil` when the line's `type` is not a string).
      case text(String?)
    }

    /// Where the name comes from.
    private let source: Source

    /// The type of a line in the recorder's layout.
    init(line: UnsafeRawBufferPointer, layout: ActionLineLayout) {
      source = .quoted(
        UnsafeRawBufferPointer(rebasing: line[layout.type]), isEscaped: layout.typeIsEscaped)
    }

    /// A type read already (`nil` when the line's `type` is not a string).
    init(_ text: String?) {
      source = .text(text)
    }

    /// The type, unescaped; `nil` when the line's `type` is not a string.
    var string: String? {
      switch source {
      case .quoted(let quoted, let isEscaped):
        return ActionLineLayout.typeName(quoted: quoted, isEscaped: isEscaped)
      case .text(let text): return text
      }
    }
  }

  /// An action line found in the log, with its layout when it is the recorder's.
  struct LocatedActionLine {
    /// The whole line.
    var bytes: UnsafeRawBufferPointer
    /// Where it starts in the log.
    var start: Int
    /// Where its parts are, when it is in the recorder's layout.
    var layout: ActionLineLayout?
    /// The line number.
    var number: Int

    /// The action's JSON text, when the line is in the recorder's layout: what
    /// ``ReplayLog/loadActionLine(_:into:)`` decodes, so that equal texts decode alike.
    var actionText: UnsafeRawBufferPointer? {
      layout.map { UnsafeRawBufferPointer(rebasing: bytes[$0.payload]) }
    }
  }

  /// The line of the action `seq`, when it can be decoded straight from its bytes: `nil` for a
  /// seq that is not an action line, and for a migrated log, which goes the full way
  /// (``action(at:)``, which runs the migration).
  func locateActionLine(_ seq: Int) -> LocatedActionLine? {
    guard migration == nil, let entry = entry(seq: seq), entry.kind == .action else { return nil }
    let line = bytes.slice(entry.start, entry.start + entry.length)
    let layout = ActionLineLayout(
      line, limits: limits.json, verifiedSeq: entry.isRecorderLayout ? entry.seq : nil)
    return LocatedActionLine(bytes: line, start: entry.start, layout: layout, number: entry.line)
  }

  /// Loads the line of the action `seq` into `document`, for decoding its action straight from
  /// the bytes — the replay loop's fast path.
  ///
  /// - Returns: `nil` whenever the line needs the full path (``action(at:)`` and the
  ///   ``JSONValue`` decoder): a seq that is not an action line, or a line that is not valid
  ///   JSON or lacks an `action`. That path then gives the value or the exact error, as it
  ///   must also when decoding from the document fails.
  func loadActionLine(_ seq: Int, into document: JSONTapeDocument) -> LoadedActionLine? {
    locateActionLine(seq).flatMap { loadActionLine($0, into: document) }
  }

  /// Loads `line` (from ``locateActionLine(_:)``) into `document`, as
  /// ``loadActionLine(_:into:)`` does.
  func loadActionLine(
    _ line: LocatedActionLine, into document: JSONTapeDocument
  ) -> LoadedActionLine? {
    // A line in the recorder's layout needs only its action read into the document.
    if let layout = line.layout {
      guard
        document.load(
          UnsafeRawBufferPointer(rebasing: line.bytes[layout.payload]), depth: layout.depth,
          elements: layout.elements)
      else { return nil }
      return LoadedActionLine(
        payload: document.root, type: ActionTypeName(line: line.bytes, layout: layout),
        number: line.number)
    }
    guard document.load(line.bytes), let payload = document.member("action", of: document.root)
    else {
      return nil
    }
    let type = document.member("type", of: document.root).flatMap(document.string(at:))
    return LoadedActionLine(payload: payload, type: ActionTypeName(type), number: line.number)
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
