import RewindJSON

/// What a live sink holds for its viewer, and what it sends next: the last whole state the log
/// holds (its *base*: the header's, a checkpoint's or a `state` record's), the lines written since
/// it, and where the connection is in them. Runs on the sink's thread only.
///
/// A connection starts with a header built from the base (so the viewer starts from a true
/// state), then the lines after it. Lines stay until they are sent and a later base covers them;
/// past ``capacity`` bytes, every line held is dropped: the connection is told which actions it
/// will not get (a `live-dropped` line) and resumes at the next base, with that state as a
/// checkpoint. The recorder is asked for a state (``wantsState``) when the lines held pass half
/// the capacity, and after a drop.
///
/// The recorder's states (``StateLine``) do not count against the capacity: a state record is a
/// state arriving, which lets lines go, and one larger than the capacity must still become a
/// base. Each new base blanks the state lines before it that are still held (a connection
/// behind gets the actions, not an older state), so that at most the base's and the one
/// arriving are held.
struct LiveWindow {
  /// One line held.
  struct Entry {
    /// The action this line belongs to: an action's or skipped action's own seq, a state's,
    /// an `end` record's, a header's `firstSeq - 1`.
    var seq: Int
    var bytes: [UInt8]
    /// Whether it is an action's or a skipped action's line.
    var isAction = false
    /// Whether it is a line of one of the recorder's states (``StateLine``).
    var isState = false
  }

  /// Where the connection is.
  struct Cursor {
    /// The next line to send is ``LiveWindow/entries``[`next - firstID`].
    var next: Int
    /// The seq of the last action line sent.
    var lastSentSeq: Int
    /// Whether the header has not been sent yet.
    var needsStart = true
    /// The first action not sent when lines were dropped; `nil` when none were.
    var dropFrom: Int?
    /// The seq of the state whose line was the last sent, when it was a state's: its other
    /// parts are sent too (``blankStates(before:)``).
    var lastSentState: Int?
  }

  let capacity: Int
  /// Builds the header of a connection: `firstSeq`, `segment`, the state's JSON.
  /// A header whose state is `state`, or that says its state follows (`nil`).
  let makeHeader: (_ firstSeq: Int, _ segment: Int, _ state: [UInt8]?) -> [UInt8]
  private(set) var entries: [Entry] = []
  /// The id of `entries[0]` (ids count every line ever held).
  private var firstID = 0
  private(set) var heldBytes = 0
  /// The bytes of the state lines among ``heldBytes``, which the capacity does not count.
  private(set) var stateBytes = 0
  /// The last whole state: after action `seq`.
  private(set) var base: (seq: Int, state: BaseState)?

  /// How the base's state is held: as JSON (a header's or a checkpoint's, or a `state` record
  /// of one line), or as the lines of a `state` record in parts, kept as they are (a connection
  /// starts with a header whose state follows, then those lines): a large state is never
  /// decoded on the sink's thread.
  enum BaseState {
    case json([UInt8])
    case parts([[UInt8]])
  }
  /// Every line of the actions after this seq is held.
  private var heldSince = 0
  /// The seq of the last action line seen.
  private(set) var lastSeq = 0
  /// The segment of the current file (the last header's).
  private var segment = 0
  /// A `state` record's parts gathered so far.
  private var parts: (seq: Int, count: Int, lines: [[UInt8]])?
  /// The connection's position; `nil` when no viewer is connected.
  var cursor: Cursor?
  /// Whether the recorder should be asked for the state after its next action.
  var wantsState = false
  /// Actions dropped on the way to viewers, in all.
  private(set) var droppedActions = 0
  private let document = JSONTapeDocument()

  init(capacity: Int, makeHeader: @escaping (Int, Int, [UInt8]?) -> [UInt8]) {
    self.capacity = capacity
    self.makeHeader = makeHeader
  }

  // MARK: Lines written

  /// Takes one line the recorder wrote (with its `\n`).
  mutating func take(_ line: ArraySlice<UInt8>) {
    if let seq = Self.actionSeq(line) {
      append(Entry(seq: seq, bytes: Array(line), isAction: true))
      lastSeq = seq
    } else {
      takeRecord(line)
    }
    let counted = heldBytes - stateBytes
    if counted > capacity {
      overflow()
    } else if counted > capacity / 2 {
      wantsState = true
    }
  }

  /// The seq of an action or skipped line the recorder wrote (which starts with its checksum,
  /// its kind and its seq, in that order); `nil` for another line.
  static func actionSeq(_ line: ArraySlice<UInt8>) -> Int? {
    // {"c":"xxxxxxxx","kind":"action","seq":
    var reader = LinePrefixReader(line, at: LogLine.bodyOffset)
    guard line.first == UInt8(ascii: "{"),
      reader.skip(#""kind":"action","seq":"#) || reader.skip(#""kind":"skipped","seq":"#)
    else { return nil }
    return reader.digits()
  }

  private mutating func takeRecord(_ line: ArraySlice<UInt8>) {
    let bytes = Array(line)
    // The recorder's states, read by their fixed layout: a large one is never parsed here.
    if let record = StateLine(bytes) {
      append(Entry(seq: record.seq, bytes: bytes, isState: true))
      switch record.form {
      case .whole(let range):
        rebase(at: record.seq, state: .json(Array(bytes[range])))
      case .part(let index, let count):
        if index == 0 { parts = (record.seq, count, []) }
        guard var gathered = parts, gathered.seq == record.seq, gathered.count == count,
          gathered.lines.count == index
        else {
          parts = nil
          return
        }
        gathered.lines.append(bytes)
        parts = gathered
        if index == count - 1 {
          parts = nil
          rebase(at: record.seq, state: .parts(gathered.lines))
        }
      }
      return
    }
    let body = bytes.last == UInt8(ascii: "\n") ? bytes.dropLast() : bytes[...]
    let loaded = body.withUnsafeBytes { document.load($0) }
    guard loaded, let kindIndex = document.member("kind", of: document.root),
      let kind = document.string(at: kindIndex)
    else { return }
    let seq = document.member("seq", of: document.root).flatMap { document.integer(at: $0) }
    switch kind {
    case "header":
      let firstSeq =
        document.member("firstSeq", of: document.root)
        .flatMap { document.integer(at: $0) } ?? 1
      segment =
        document.member("segment", of: document.root)
        .flatMap { document.integer(at: $0) } ?? 0
      append(Entry(seq: firstSeq - 1, bytes: bytes))
      if let state = document.member("state", of: document.root) {
        rebase(at: firstSeq - 1, state: .json(Array(body[document.range(at: state)])))
      }
    case "checkpoint", "state":
      // Not in the recorder's layout (StateLine): kept and sent, never a base.
      if let seq { append(Entry(seq: seq, bytes: bytes)) }
    case "end":
      // The end of a closed recording is covered by no state: a viewer that starts after it
      // still gets it. A rotation's belongs to its file.
      let rotated =
        document.member("reason", of: document.root).flatMap { document.string(at: $0) }
        == "rotated"
      append(Entry(seq: rotated ? seq ?? lastSeq : Int.max, bytes: bytes))
    case "state-skipped":
      append(Entry(seq: seq ?? lastSeq, bytes: bytes))
    default:
      // `costs` and kinds of later versions: kept in the file, not streamed (a viewer that
      // starts later would get a batch naming actions before its header).
      break
    }
  }

  private mutating func append(_ entry: Entry) {
    entries.append(entry)
    heldBytes += entry.bytes.count
    if entry.isState { stateBytes += entry.bytes.count }
  }

  /// Lets go of `entries[index]`'s bytes in the accounts (it is removed or blanked).
  private mutating func forget(_ index: Int) {
    heldBytes -= entries[index].bytes.count
    if entries[index].isState { stateBytes -= entries[index].bytes.count }
  }

  /// The state after action `seq` is known: it becomes the base when every line since it is
  /// held, and lines sent and covered by it are let go.
  private mutating func rebase(at seq: Int, state: BaseState) {
    guard seq >= heldSince else { return }
    base = (seq, state)
    heldSince = seq
    wantsState = false
    blankStates(before: seq)
    letGo()
  }

  /// Blanks the state lines before `seq` that are not sent yet: a connection behind gets the
  /// actions after them, and the base, not an older state. A record whose sending began is sent
  /// whole.
  private mutating func blankStates(before seq: Int) {
    let unsent = cursor.map { $0.needsStart ? 0 : max(0, $0.next - firstID) } ?? 0
    guard unsent < entries.count else { return }
    let begun = cursor?.lastSentState
    for index in unsent..<entries.count
    where entries[index].isState && entries[index].seq < seq && entries[index].seq != begun
      && !entries[index].bytes.isEmpty
    {
      forget(index)
      entries[index].bytes = []
    }
  }

  /// Drops the lines at the front that are sent (or that no connection needs) and that the base
  /// covers.
  private mutating func letGo() {
    guard let base else { return }
    let sentUpTo = cursor.map { $0.needsStart ? Int.max : $0.next } ?? Int.max
    var count = 0
    while count < entries.count, firstID + count < sentUpTo, entries[count].seq <= base.seq {
      forget(count)
      count += 1
    }
    if count > 0 {
      entries.removeFirst(count)
      firstID += count
    }
  }

  /// Past the capacity: every line held is dropped, and the connection, if it had lines to
  /// send, resumes at the next base.
  private mutating func overflow() {
    if var cursor, cursor.next < firstID + entries.count || cursor.needsStart {
      if !cursor.needsStart, cursor.dropFrom == nil { cursor.dropFrom = cursor.lastSentSeq + 1 }
      self.cursor = cursor
    }
    firstID += entries.count
    entries.removeAll()
    heldBytes = 0
    stateBytes = 0
    base = nil
    parts = nil
    heldSince = lastSeq
    wantsState = true
    if var cursor {
      cursor.next = firstID
      self.cursor = cursor
    }
  }

  /// Lines of actions up to `seq` were lost before they reached the window (the sink's
  /// buffer was full): as at an overflow, everything held is dropped.
  mutating func lose(through seq: Int) {
    lastSeq = max(lastSeq, seq)
    // The connection missed these whatever it had sent.
    if var cursor, !cursor.needsStart, cursor.dropFrom == nil {
      cursor.dropFrom = cursor.lastSentSeq + 1
      self.cursor = cursor
    }
    overflow()
  }

  // MARK: The connection

  /// Whether the connection has bytes waiting that ``nextBytes(limit:)`` would give now.
  var hasUnsent: Bool {
    guard let cursor else { return false }
    if cursor.needsStart || cursor.dropFrom != nil { return base != nil }
    return cursor.next < firstID + entries.count
  }

  /// A viewer connected: it starts at the base.
  mutating func connect() {
    cursor = Cursor(next: firstID, lastSentSeq: 0)
    if base == nil { wantsState = true }
  }

  /// The viewer went away.
  mutating func disconnect() {
    cursor = nil
    letGo()
  }

  /// The next bytes to send (at most about `limit`), and the cursor moved past them; `nil` when
  /// there is nothing to send yet.
  mutating func nextBytes(limit: Int) -> [UInt8]? {
    guard var cursor else { return nil }
    var output: [UInt8] = []
    if cursor.needsStart || cursor.dropFrom != nil {
      guard let base else { return nil }
      if cursor.needsStart {
        switch base.state {
        case .json(let json):
          output = makeHeader(base.seq + 1, segment, json)
        case .parts(let lines):
          output = makeHeader(base.seq + 1, segment, nil)
          for line in lines { output += line }
        }
        cursor.needsStart = false
      } else if let from = cursor.dropFrom {
        if from <= base.seq {
          output = LiveProtocol.dropped(from: from, to: base.seq)
          switch base.state {
          case .json(let json):
            var line = LogLineBuilder(kind: .checkpoint)
            line.integer("seq", base.seq)
            line.json("state", json)
            output += line.framed()
          case .parts(let lines):
            for line in lines { output += line }
          }
          droppedActions += base.seq - from + 1
        }
        cursor.dropFrom = nil
      }
      cursor.lastSentSeq = base.seq
      cursor.lastSentState = nil
      // The lines the base covers are not sent.
      var index = max(0, cursor.next - firstID)
      while index < entries.count, entries[index].seq <= base.seq { index += 1 }
      cursor.next = firstID + index
    }
    var index = max(0, cursor.next - firstID)
    while index < entries.count, output.count < limit {
      let entry = entries[index]
      output += entry.bytes
      if entry.isAction { cursor.lastSentSeq = entry.seq }
      if !entry.bytes.isEmpty { cursor.lastSentState = entry.isState ? entry.seq : nil }
      index += 1
    }
    cursor.next = firstID + index
    self.cursor = cursor
    letGo()
    return output.isEmpty ? nil : output
  }
}

/// A `checkpoint` or `state` line in the layout the recorder writes, read by its prefix
/// without parsing the state: `{"c":"XXXXXXXX","kind":"checkpoint","seq":N,"state":…}`,
/// `{"c":…,"kind":"state","seq":N,"state":…}` or
/// `{"c":…,"kind":"state","seq":N,"part":I,"parts":P,"text":"…"}`.
struct StateLine {
  enum Form {
    /// The state's JSON is at this range of the line.
    case whole(Range<Int>)
    /// Part `index` of `count`.
    case part(index: Int, count: Int)
  }

  var seq: Int
  var form: Form

  /// `nil` for any other line, or one not in that layout.
  init?(_ line: [UInt8]) {
    var reader = LinePrefixReader(line[...], at: LogLine.bodyOffset)
    guard line.count > LogLine.bodyOffset + 2, line[line.count - 1] == UInt8(ascii: "\n"),
      line[line.count - 2] == UInt8(ascii: "}")
    else { return nil }
    guard
      reader.skip(#""kind":"checkpoint","seq":"#) || reader.skip(#""kind":"state","seq":"#),
      let seq = reader.digits()
    else { return nil }
    self.seq = seq
    if reader.skip(#","state":"#) {
      form = .whole(reader.index..<(line.count - 2))
    } else if reader.skip(#","part":"#), let part = reader.digits(), reader.skip(#","parts":"#),
      let count = reader.digits(), part < count, reader.skip(#","text":""#)
    {
      form = .part(index: part, count: count)
    } else {
      return nil
    }
  }
}

/// Reads the fixed layout the recorder writes a line's first members in: literal texts and
/// unsigned integers, from an offset on, without parsing the line.
struct LinePrefixReader {
  private let line: ArraySlice<UInt8>
  /// The offset in the line read up to (from the line's start).
  private(set) var index: Int

  /// A reader of `line` from `offset` bytes past its start.
  init(_ line: ArraySlice<UInt8>, at offset: Int) {
    self.line = line
    index = offset
  }

  /// Moves past `text` when the line has it here; whether it did.
  mutating func skip(_ text: StaticString) -> Bool {
    let start = line.startIndex + index
    let matches = text.withUTF8Buffer { expected in
      start + expected.count <= line.endIndex
        && line[start..<(start + expected.count)].elementsEqual(expected)
    }
    if matches { index += text.utf8CodeUnitCount }
    return matches
  }

  /// The unsigned integer here (at most 18 digits), moving past it; `nil` when no digit is here.
  mutating func digits() -> Int? {
    var value = 0
    var count = 0
    while line.startIndex + index < line.endIndex, count < 18 {
      let byte = line[line.startIndex + index]
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { break }
      value = value * 10 + Int(byte - UInt8(ascii: "0"))
      index += 1
      count += 1
    }
    return count > 0 ? value : nil
  }
}

extension JSONTapeDocument {
  /// The integer at `index`, or `nil` when the value there is not a whole number.
  fileprivate func integer(at index: Int) -> Int? {
    let text = self.text(at: index)
    guard !text.isEmpty, text.count <= 19 else { return nil }
    var value = 0
    var negative = false
    for (offset, byte) in text.enumerated() {
      if offset == 0 && byte == UInt8(ascii: "-") {
        negative = true
        continue
      }
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
      value = value * 10 + Int(byte - UInt8(ascii: "0"))
    }
    return negative ? -value : value
  }
}
