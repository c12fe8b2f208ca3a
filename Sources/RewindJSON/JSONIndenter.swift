/// Indents compact JSON text for people to read — the one way Rewind pretty-prints JSON
/// (``JSONValue/prettyText(indent:)`` writes the value compactly, then indents that) — so a
/// large value already encoded is shown without being built as a ``JSONValue`` tree.
///
/// Each element and member goes on its own line, `indent` spaces deeper than its container;
/// keys are followed by `": "`; empty arrays and objects stay `[]` and `{}`; strings, numbers
/// and literals are copied as they are. The input must be one compact JSON text, as
/// ``JSONWriter`` and Rewind's encoder write it (no whitespace between tokens); whitespace
/// between tokens is dropped.
package enum JSONIndenter {
  /// `compact`, indented `indent` spaces per level (negative counts as 0), with no trailing
  /// newline.
  package static func indented(_ compact: UnsafeRawBufferPointer, indent: Int = 2) -> [UInt8] {
    var whole: [UInt8] = []
    whole.reserveCapacity(compact.count + compact.count / 2)
    Self.indent(compact, indent: indent) { whole.append(contentsOf: $0) }
    return whole
  }

  /// Indents `compact` as ``indented(_:indent:)`` does, handing the text to `write` in pieces
  /// of about 64 KiB as it goes: a large value is never held indented whole.
  package static func indent(
    _ compact: UnsafeRawBufferPointer, indent: Int = 2,
    to write: (UnsafeRawBufferPointer) -> Void
  ) {
    let indent = max(0, indent)
    var output: [UInt8] = []
    output.reserveCapacity(Self.pieceBytes + 4096)
    var depth = 0
    var i = 0
    let end = compact.count
    func newline(_ depth: Int) {
      output.append(.lineFeed)
      output.append(contentsOf: repeatElement(.space, count: indent * depth))
    }
    while i < end {
      let byte = compact[i]
      switch byte {
      case .quote:
        // A string, escapes and all, as it is.
        var j = i + 1
        while j < end, compact[j] != .quote { j += compact[j] == .backslash ? 2 : 1 }
        j = min(j + 1, end)
        output.append(contentsOf: UnsafeRawBufferPointer(rebasing: compact[i..<j]))
        i = j
        if output.count >= Self.pieceBytes {
          output.withUnsafeBytes(write)
          output.removeAll(keepingCapacity: true)
        }
        continue
      case .openBrace, .openBracket:
        output.append(byte)
        let close: UInt8 = byte == .openBrace ? .closeBrace : .closeBracket
        var next = i + 1
        while next < end, compact[next] <= .space { next += 1 }
        if next < end, compact[next] == close {
          output.append(close)
          i = next + 1
          continue
        }
        depth += 1
        newline(depth)
      case .closeBrace, .closeBracket:
        depth -= 1
        newline(depth)
        output.append(byte)
      case .comma:
        output.append(byte)
        newline(depth)
      case .colon:
        output.append(contentsOf: [.colon, .space])
      case .space, .tab, .lineFeed, .carriageReturn:
        break
      default:
        output.append(byte)
      }
      i += 1
      if output.count >= Self.pieceBytes {
        output.withUnsafeBytes(write)
        output.removeAll(keepingCapacity: true)
      }
    }
    output.withUnsafeBytes(write)
  }

  /// About how many bytes each piece handed to the writer holds.
  private static let pieceBytes = 64 << 10
}
