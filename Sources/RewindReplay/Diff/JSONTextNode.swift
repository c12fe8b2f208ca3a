import Foundation
import RewindJSON

/// A JSON value as its text: a range of a document checked before (``JSONDiff/diff(oldText:newText:)``
/// checks both). Equal texts are equal values; texts that differ are read one level at a time
/// (``shape``), and only scalars and the values a change carries are ever parsed.
///
/// A node is valid as long as the document's bytes are: only inside the diff that made it (the
/// values of its changes are trees of their own).
struct JSONTextNode: JSONDiffNode {
  /// The whole document.
  let document: UnsafeRawBufferPointer
  /// Where the value's text is in ``document``.
  let range: Range<Int>

  /// Calls `body` with the value's bytes (offsets from the value's first byte).
  private func withBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
    body(UnsafeRawBufferPointer(rebasing: document[range]))
  }

  var shape: JSONDiffShape<JSONTextNode> {
    let first = range.isEmpty ? 0 : document[range.lowerBound]
    let base = range.lowerBound
    switch first {
    case UInt8(ascii: "{"):
      var members: [(key: String, value: JSONTextNode)] = []
      withBytes { bytes in
        JSONScan.forEachMember(ofObjectIn: bytes) { key, value in
          members.append((key, JSONTextNode(document: document, range: value.shifted(by: base))))
        }
      }
      return .object(members)
    case UInt8(ascii: "["):
      var elements: [JSONTextNode] = []
      withBytes { bytes in
        JSONScan.forEachElement(ofArrayIn: bytes) { element in
          elements.append(JSONTextNode(document: document, range: element.shifted(by: base)))
        }
      }
      return .array(elements)
    default:
      return .scalar
    }
  }

  /// Equal bytes, or the same value written differently (members in another order, escapes):
  /// compared a level at a time, parsing only scalars.
  func isEqual(to other: JSONTextNode) -> Bool {
    if isQuicklyEqual(to: other) { return true }
    switch (shape, other.shape) {
    case (.object(let mine), .object(let theirs)):
      guard mine.count == theirs.count else { return false }
      let theirValues = Dictionary(theirs, uniquingKeysWith: { first, _ in first })
      return mine.allSatisfy { member in
        theirValues[member.key].map(member.value.isEqual(to:)) ?? false
      }
    case (.array(let mine), .array(let theirs)):
      return mine.count == theirs.count && zip(mine, theirs).allSatisfy { $0.isEqual(to: $1) }
    case (.scalar, .scalar):
      return value == other.value
    default:
      return false
    }
  }

  /// ``JSONFingerprint/of(textAt:in:)``: read from the text, nothing built.
  var fingerprint: Int { JSONFingerprint.of(textAt: range.lowerBound, in: document) }

  /// The same bytes.
  func isQuicklyEqual(to other: JSONTextNode) -> Bool {
    guard range.count == other.range.count else { return false }
    return withBytes { mine in
      other.withBytes { theirs in
        guard let mine = mine.baseAddress, let theirs = theirs.baseAddress else { return true }
        return memcmp(mine, theirs, range.count) == 0
      }
    }
  }

  /// The children of two objects or two arrays that overlap the bytes where their texts differ:
  /// a child that ends, with the byte after it, within the bytes both texts start with is equal
  /// in both, at the same place; one that starts, with the byte before it, within the bytes both
  /// end with is equal too (the same bytes, read in the same state: valid JSON ends outside any
  /// string and container). `nil` when the two are not containers of one kind.
  ///
  /// Only the children before the difference are scanned, once, in the old text, and the first
  /// that reaches into it only up to there (``JSONContainerScan``), then on in each text: when it
  /// runs on into the bytes both texts end with, it is the only child that may differ, and its
  /// end is scanned for in the old text only when the new text's scan is there in the same state
  /// (the same bytes follow: it ends as far from there). What makes a diff of two states that
  /// differ in one place cost about one pass over one text, not several over both.
  static func narrowed(_ old: JSONTextNode, _ new: JSONTextNode) -> JSONDiffNarrowing<JSONTextNode>?
  {
    old.withBytes { oldBytes in
      new.withBytes { newBytes -> JSONDiffNarrowing<JSONTextNode>? in
        guard let first = oldBytes.first, first == newBytes.first,
          first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
        else { return nil }
        let isObject = first == UInt8(ascii: "{")
        let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
        let prefix = JSONScan.commonPrefix(oldBytes, newBytes)
        let suffix = JSONScan.commonSuffix(
          oldBytes, newBytes, limit: min(oldBytes.count, newBytes.count) - prefix)
        // The children within the shared start are the same in both texts, at the same offsets:
        // counted in the old text only. The first child after them whose value is a container
        // starting there is scanned up to the difference, and goes on in each text from there.
        var skipped = 0
        var lastSkippedEnd: Int?
        var reaching: (start: Int, valueStart: Int, scan: JSONContainerScan)?
        var position = JSONScan.firstChild(ofContainerAt: 0, in: oldBytes)
        while position < oldBytes.count, oldBytes[position] != close {
          if isObject && oldBytes[position] != UInt8(ascii: "\"") { break }
          let valueStart = isObject ? JSONScan.memberValue(at: position, in: oldBytes) : position
          let end: Int
          if valueStart < prefix,
            oldBytes[valueStart] == UInt8(ascii: "{") || oldBytes[valueStart] == UInt8(ascii: "[")
          {
            var scan = JSONContainerScan(at: valueStart)
            scan.advance(in: oldBytes, upTo: prefix)
            guard let scanned = scan.end, scanned < prefix else {
              reaching = (position, valueStart, scan)
              break
            }
            end = scanned
          } else {
            end = JSONScan.valueEnd(in: oldBytes, at: valueStart)
            if end >= prefix { break }
          }
          skipped += 1
          lastSkippedEnd = end
          position = JSONScan.nextChild(after: end, in: oldBytes)
        }
        // The old text's scan of the child reaching the difference, where its shared end starts
        // (when it runs on into it), and where the child ends.
        var oldTail: (scan: JSONContainerScan, end: Int)?
        /// The children of one text that may differ: from the first after the skipped ones to
        /// the last that does not start, with the byte before it, within the shared end.
        func middle(_ bytes: UnsafeRawBufferPointer, of node: JSONTextNode, shift: Int)
          -> [(keyStart: Int?, value: JSONTextNode)]
        {
          var children: [(keyStart: Int?, value: JSONTextNode)] = []
          let suffixStart = bytes.count - suffix
          func append(start: Int, value: Range<Int>) {
            children.append(
              (
                isObject ? start : nil,
                JSONTextNode(
                  document: node.document, range: value.shifted(by: node.range.lowerBound))
              ))
          }
          var from =
            lastSkippedEnd.map { JSONScan.nextChild(after: $0, in: bytes) }
            ?? JSONScan.firstChild(ofContainerAt: 0, in: bytes)
          if let reaching, reaching.start == from, reaching.start - 1 < suffixStart {
            var scan = reaching.scan
            scan.advance(in: bytes, upTo: suffixStart)
            if let end = scan.end {
              append(start: reaching.start, value: reaching.valueStart..<end)
              from = JSONScan.nextChild(after: end, in: bytes)
            } else {
              // It runs on into the shared end: any child after it starts there. In step with the
              // old text's scan there, it ends where that one did, moved by `shift`.
              let end: Int
              if let oldTail, oldTail.scan.isInStep(with: scan, shiftedBy: shift) {
                end = oldTail.end + shift
              } else {
                let atTail = scan
                scan.advance(in: bytes, upTo: bytes.count)
                end = scan.end ?? bytes.count
                if shift == 0 { oldTail = (atTail, end) }
              }
              append(start: reaching.start, value: reaching.valueStart..<end)
              return children
            }
          }
          JSONScan.forEachChild(ofContainerAt: 0, in: bytes, from: from) { key, value in
            let childStart = key?.lowerBound ?? value.lowerBound
            if childStart - 1 >= suffixStart { return false }
            append(start: childStart, value: value)
            return true
          }
          return children
        }
        let oldChildren = middle(oldBytes, of: old, shift: 0)
        let newChildren = middle(newBytes, of: new, shift: newBytes.count - oldBytes.count)
        if !isObject {
          return JSONDiffNarrowing(
            skipped: skipped, old: .array(oldChildren.map(\.value)),
            new: .array(newChildren.map(\.value)))
        }
        func members(
          _ children: [(keyStart: Int?, value: JSONTextNode)], in bytes: UnsafeRawBufferPointer
        ) -> [(key: String, value: JSONTextNode)] {
          children.map { (($0.keyStart.map { JSONScan.key(at: $0, in: bytes) }) ?? "", $0.value) }
        }
        return JSONDiffNarrowing(
          skipped: skipped, old: .object(members(oldChildren, in: oldBytes)),
          new: .object(members(newChildren, in: newBytes)))
      }
    }
  }

  /// The value parsed from its text (checked before, so without limits).
  var value: JSONValue {
    withBytes { bytes in (try? JSONParser.parse(bytes, limits: .unlimited)) ?? .null }
  }
}

extension Range<Int> {
  /// The range moved `offset` positions along.
  fileprivate func shifted(by offset: Int) -> Range<Int> {
    (lowerBound + offset)..<(upperBound + offset)
  }
}
