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
  /// string and container). Only the children before the difference are scanned, once, and
  /// those after it not at all — what makes a diff of two states that differ in one place cost
  /// one pass over part of one text, not several over both. `nil` when the two are not
  /// containers of one kind.
  static func narrowed(_ old: JSONTextNode, _ new: JSONTextNode) -> JSONDiffNarrowing<JSONTextNode>?
  {
    old.withBytes { oldBytes in
      new.withBytes { newBytes -> JSONDiffNarrowing<JSONTextNode>? in
        guard let first = oldBytes.first, first == newBytes.first,
          first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
        else { return nil }
        let prefix = JSONScan.commonPrefix(oldBytes, newBytes)
        let suffix = JSONScan.commonSuffix(
          oldBytes, newBytes, limit: min(oldBytes.count, newBytes.count) - prefix)
        // The children within the shared start are the same in both texts, at the same
        // offsets: counted in the old text only, and the new one read from the first after them.
        var skipped = 0
        var lastSkippedEnd: Int?
        func middle(_ bytes: UnsafeRawBufferPointer, of node: JSONTextNode, counting counts: Bool)
          -> [(key: Range<Int>?, value: JSONTextNode)]
        {
          var children: [(key: Range<Int>?, value: JSONTextNode)] = []
          let suffixStart = bytes.count - suffix
          // The new text is read from the first child after the skipped ones.
          let resume =
            counts ? nil : lastSkippedEnd.map { JSONScan.nextChild(after: $0, in: bytes) }
          JSONScan.forEachChild(ofContainerAt: 0, in: bytes, from: resume) { key, value in
            let childStart = key?.lowerBound ?? value.lowerBound
            if counts && value.upperBound < prefix {
              skipped += 1
              lastSkippedEnd = value.upperBound
              return true
            }
            if childStart - 1 >= suffixStart { return false }
            children.append(
              (
                key,
                JSONTextNode(
                  document: node.document, range: value.shifted(by: node.range.lowerBound))
              ))
            return true
          }
          return children
        }
        let oldChildren = middle(oldBytes, of: old, counting: true)
        let newChildren = middle(newBytes, of: new, counting: false)
        let oldSkipped = skipped
        if first == UInt8(ascii: "[") {
          return JSONDiffNarrowing(
            skipped: oldSkipped, old: .array(oldChildren.map(\.value)),
            new: .array(newChildren.map(\.value)))
        }
        func members(
          _ children: [(key: Range<Int>?, value: JSONTextNode)], in bytes: UnsafeRawBufferPointer
        )
          -> [(key: String, value: JSONTextNode)]
        {
          children.map { (($0.key.map { JSONScan.key($0, in: bytes) }) ?? "", $0.value) }
        }
        return JSONDiffNarrowing(
          skipped: oldSkipped, old: .object(members(oldChildren, in: oldBytes)),
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
