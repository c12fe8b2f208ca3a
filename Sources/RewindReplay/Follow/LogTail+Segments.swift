import Rewind

/// Finding the files of a rotated recording: the one that continues a file's seqs, the oldest
/// still kept, and the first seq a file's header names.
extension LogTail {
  /// The file of the rotated log `path` whose header's `firstSeq` is `firstSeq`: the one at the
  /// path or a rotated one (`session.1.jsonl`, `session.2.jsonl`, …, as far as they go).
  ///
  /// - Parameter statesFollow: Only a file whose header's state follows (`"stateFollows":true`).
  static func segment(of path: String, firstSeq: Int, statesFollow: Bool = false) -> String? {
    var index = 0
    while index < 1_000_000 {
      let candidate = index == 0 ? path : LogWriter.rotatedPath(path, index: index)
      guard let seq = headerFirstSeq(candidate, stateFollows: statesFollow) else {
        if index == 0 || isRenamedAway(path, index: index) {
          index += 1
          continue
        }
        return nil
      }
      if seq == firstSeq { return candidate }
      if seq < firstSeq { return nil }  // older files only, from here
      index += 1
    }
    return nil
  }

  /// The oldest file still kept of the recording at `path`, and its header's `firstSeq`: among
  /// `path` and the rotated files (`session.1.jsonl`, `session.2.jsonl`, …, as far as they go)
  /// whose headers name the same session, the one that starts first. `nil` when `path` has no
  /// readable header yet.
  ///
  /// Every kept file is looked at, not only while the `firstSeq`s fall: a rotation while they
  /// are looked at shifts them by one, so a file may be seen twice, and a name it has just
  /// renamed away (``isRenamedAway(_:index:)``) is stepped over, so the oldest is not missed
  /// (the recorder shifts the highest first).
  static func firstSegment(of path: String) -> (path: String, firstSeq: Int)? {
    func header(_ path: String) -> SessionFile.Header? {
      SessionFile(path: path, readsLastLine: false)?.header
    }
    guard let newest = header(path) else { return nil }
    var oldest = (path: path, firstSeq: newest.firstSeq)
    var index = 1
    while oldest.firstSeq > 1 && index < 1_000 {
      let candidate = LogWriter.rotatedPath(path, index: index)
      guard let older = header(candidate) else {
        guard isRenamedAway(path, index: index) else { break }
        index += 1
        continue
      }
      guard older.session == newest.session else { break }
      if older.firstSeq < oldest.firstSeq { oldest = (candidate, older.firstSeq) }
      index += 1
    }
    return oldest
  }

  /// Whether the rotated file `index` of `path` is missing only because a rotation is renaming
  /// the files: it shifts `.N` to `.N+1` from the highest down, leaving one name free at a time,
  /// so the file that was there is at `index + 1` now.
  static func isRenamedAway(_ path: String, index: Int) -> Bool {
    Platform.fileIdentity(LogWriter.rotatedPath(path, index: index)) == nil
      && Platform.fileIdentity(LogWriter.rotatedPath(path, index: index + 1)) != nil
  }

  /// The `firstSeq` of the header at the start of `path` (the recorder writes it before the
  /// state, in the first few hundred bytes).
  ///
  /// - Parameter stateFollows: `nil` unless the header's state follows (``LogHeader/stateFollows``;
  ///   such a header is short, and whole in those bytes).
  static func headerFirstSeq(_ path: String, stateFollows: Bool = false) -> Int? {
    guard case .success(let opened) = Platform.openForReading(path) else { return nil }
    defer { Platform.close(opened.fd) }
    return headerFirstSeq(opened.fd, stateFollows: stateFollows)
  }

  /// The same for an open file.
  static func headerFirstSeq(_ fd: Int32, stateFollows: Bool = false) -> Int? {
    var bytes = [UInt8](repeating: 0, count: 4096)
    let count = bytes.withUnsafeMutableBytes { Platform.read(fd, into: $0, at: 0) }
    guard count > 0 else { return nil }
    let key = Array(#""firstSeq":"#.utf8)
    var head = bytes[..<count]
    if stateFollows {
      guard let end = head.firstIndex(of: UInt8(ascii: "\n")),
        head[..<end].firstRange(of: Array(#","stateFollows":true"#.utf8)) != nil
      else { return nil }
      head = head[..<end]
    }
    guard let at = head.firstRange(of: key) else { return nil }
    let digits = head[at.upperBound...].prefix {
      $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")
    }
    return Int(String(decoding: digits, as: UTF8.self))
  }
}
