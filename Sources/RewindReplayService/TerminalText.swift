// Untrusted text (action titles, state values, file names, arguments) reaches the terminal
// only through `inert`, and is measured and shortened by display width, not by `count`.

/// Returns `text` with every character that could act on a terminal replaced by a visible escape.
///
/// A recorded log is untrusted input: an action title holding `"\u{1B}[2J"` would clear the
/// screen, and `"\u{1B}]52;c;…\u{07}"` (OSC 52) would write to the user's clipboard. After
/// `inert` no such sequence can reach the terminal raw. Escaped are:
///
/// | Characters                                   | Written as                  |
/// |----------------------------------------------|-----------------------------|
/// | tab, line feed, carriage return              | `\t`, `\n`, `\r`            |
/// | other C0 controls (U+0000–U+001F), DEL       | `\x00` … `\x1f`, `\x7f`     |
/// | C1 controls (U+0080–U+009F)                  | `\u{80}` … `\u{9f}`         |
/// | line and paragraph separators (U+2028/2029)  | `\u{2028}`, `\u{2029}`      |
/// | bidi overrides, embeddings and isolates      | `\u{202a}` … `\u{202e}`,    |
/// | (U+202A–U+202E, U+2066–U+2069)               | `\u{2066}` … `\u{2069}`     |
/// | bidi marks (U+200E, U+200F, U+061C)          | `\u{200e}`, `\u{200f}`, …   |
///
/// Everything else passes through unchanged, including emoji, zero-width joiners inside emoji
/// sequences, and combining marks. Backslashes are *not* escaped, so the output is readable
/// rather than reversible (`inert` of a title that literally reads `\x1b` is the same as of one
/// holding ESC), and applying `inert` twice changes nothing.
///
///     inert("ok\u{1B}[2J")  // "ok\\x1b[2J"
///     inert("a\nb")         // "a\\nb"
///     inert("a\nb", keepingNewlines: true)  // "a\nb"
///
/// - Parameters:
///   - text: The untrusted text.
///   - keepingNewlines: Keep line feeds (U+000A) for a multi-line block; every other character
///     above is still escaped, carriage returns included.
/// - Complexity: O(*n*) in the number of Unicode scalars.
package func inert(_ text: String, keepingNewlines: Bool = false) -> String {
  let scalars = text.unicodeScalars
  guard scalars.contains(where: { escape(for: $0, keepingNewlines: keepingNewlines) != nil })
  else { return text }

  var result = ""
  result.unicodeScalars.reserveCapacity(scalars.count + 16)
  for scalar in scalars {
    if let replacement = escape(for: scalar, keepingNewlines: keepingNewlines) {
      result.unicodeScalars.append(contentsOf: replacement.unicodeScalars)
    } else {
      result.unicodeScalars.append(scalar)
    }
  }
  return result
}

/// The visible replacement for `scalar`, or `nil` when it is safe to write as it is.
private func escape(for scalar: Unicode.Scalar, keepingNewlines: Bool) -> String? {
  let value = scalar.value
  switch value {
  case 0x0A: return keepingNewlines ? nil : "\\n"
  case 0x09: return "\\t"
  case 0x0D: return "\\r"
  case 0x00...0x1F, 0x7F:
    let hex = String(value, radix: 16)
    return "\\x" + (hex.count < 2 ? "0" + hex : hex)
  case 0x80...0x9F, 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069:
    return "\\u{" + String(value, radix: 16) + "}"
  default:
    return nil
  }
}

/// Returns the number of terminal columns `text` takes, by the approximation of
/// ``displayWidth(of:)-(Character)`` applied to each grapheme cluster.
package func displayWidth(of text: String) -> Int {
  text.reduce(0) { $0 + displayWidth(of: $1) }
}

/// Returns the number of terminal columns a grapheme cluster takes: 0, 1 or 2.
///
/// An approximation of `wcwidth(3)` that needs no tables beyond a few ranges:
/// - 2 for East Asian wide and fullwidth characters (Hangul, CJK ideographs, kana, fullwidth
///   forms…), for emoji shown as emoji by default, and for any cluster containing the emoji
///   presentation selector U+FE0F (`"❤️"`, keycaps, flags).
/// - 0 for controls, format characters (zero-width space, joiners, bidi marks) and combining
///   marks standing alone.
/// - 1 otherwise, including ambiguous-width characters (Greek, Cyrillic, box drawing), which
///   most terminals outside East Asian locales draw narrow.
///
/// A terminal may still disagree for newly added emoji or text-presentation symbols.
package func displayWidth(of character: Character) -> Int {
  let scalars = character.unicodeScalars
  guard let first = scalars.first else { return 0 }
  if first.value < 0x7F {
    return first.value >= 0x20 ? 1 : 0  // the common case, without property look-ups
  }
  if isWide(first) || first.properties.isEmojiPresentation
    || scalars.contains(where: { $0.value == 0xFE0F })
  {
    return 2
  }
  switch first.properties.generalCategory {
  case .control, .format, .nonspacingMark, .enclosingMark, .lineSeparator, .paragraphSeparator:
    return 0
  default:
    return 1
  }
}

/// Whether `scalar` is East Asian wide or fullwidth, by the ranges `wcwidth` implementations use.
private func isWide(_ scalar: Unicode.Scalar) -> Bool {
  switch scalar.value {
  case 0x1100...0x115F,  // Hangul Jamo initial consonants
    0x2E80...0x303E,  // CJK radicals … CJK symbols and punctuation
    0x3041...0x33FF,  // kana, Bopomofo, Hangul compatibility Jamo, CJK compatibility
    0x3400...0x4DBF,  // CJK extension A
    0x4E00...0x9FFF,  // CJK unified ideographs
    0xA000...0xA4CF,  // Yi
    0xA960...0xA97F,  // Hangul Jamo extended A
    0xAC00...0xD7A3,  // Hangul syllables
    0xF900...0xFAFF,  // CJK compatibility ideographs
    0xFE10...0xFE19,  // vertical forms
    0xFE30...0xFE6F,  // CJK compatibility forms, small form variants
    0xFF00...0xFF60,  // fullwidth forms
    0xFFE0...0xFFE6,  // fullwidth signs
    0x1F300...0x1F64F,  // pictographs and emoticons
    0x1F900...0x1F9FF,  // supplemental symbols and pictographs
    0x20000...0x2FFFD,  // CJK extensions B–F
    0x30000...0x3FFFD:  // CJK extension G and later
    return true
  default:
    return false
  }
}

/// Returns `text` shortened to at most `width` terminal columns, ending with `…` when shortened.
///
/// Cuts only between grapheme clusters, so an emoji sequence, a flag or a letter with its
/// accents stays whole or goes whole. Widths come from ``displayWidth(of:)-(Character)``; when a
/// wide character does not fit before the `…`, the result is one column narrower than `width`.
/// Make the text ``inert(_:keepingNewlines:)`` first: a control character counts 0 columns.
///
///     truncate("state.todos", toWidth: 8)  // "state.t…"
///     truncate("日本語テキスト", toWidth: 7)  // "日本語…"
///     truncate("short", toWidth: 10)       // "short"
///
/// - Parameters:
///   - text: The text to shorten.
///   - width: The most columns the result may take; 0 or less gives `""`.
/// - Complexity: O(*n*) in the length of `text`.
package func truncate(_ text: String, toWidth width: Int) -> String {
  guard width > 0 else { return "" }
  var used = 0
  var fitsBeforeEllipsis = text.startIndex
  for index in text.indices {
    let columns = displayWidth(of: text[index])
    if used + columns <= width - 1 { fitsBeforeEllipsis = text.index(after: index) }
    used += columns
    if used > width { return String(text[..<fitsBeforeEllipsis]) + "…" }
  }
  return text
}
