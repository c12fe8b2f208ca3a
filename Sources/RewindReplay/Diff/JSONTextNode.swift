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
