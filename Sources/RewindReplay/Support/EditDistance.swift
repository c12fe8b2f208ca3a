/// The longest name, in characters, that ``closestMatch(to:in:maxDistance:)`` compares.
///
/// Edit distance costs time proportional to the product of the two lengths, and the names it
/// compares can come from an untrusted log (state keys), so longer ones are not compared.
private let longestComparedName = 128

/// Returns the edit distance between two strings: the fewest insertions, deletions,
/// substitutions and swaps of two adjacent characters that turn `source` into `target`.
///
/// This is the *optimal string alignment* form of the Damerau–Levenshtein distance: a swapped
/// pair counts as one edit (`"ifno"` → `"info"` is 1), but a swapped pair is not edited again.
/// Characters are compared as grapheme clusters, case-sensitively.
///
///     editDistance("--jsn", "--json")  // 1
///     editDistance("stpe", "step")     // 1
///
/// - Complexity: O(*m* × *n*) time and O(*n*) memory for strings of *m* and *n* characters.
package func editDistance(_ source: String, _ target: String) -> Int {
  let a = Array(source)
  let b = Array(target)
  if a.isEmpty { return b.count }
  if b.isEmpty { return a.count }

  var beforePrevious = [Int](repeating: 0, count: b.count + 1)
  var previous = Array(0...b.count)
  var current = [Int](repeating: 0, count: b.count + 1)
  for i in 1...a.count {
    current[0] = i
    for j in 1...b.count {
      let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
      var distance = min(previous[j] + 1, current[j - 1] + 1, substitution)
      if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
        distance = min(distance, beforePrevious[j - 2] + 1)
      }
      current[j] = distance
    }
    (beforePrevious, previous, current) = (previous, current, beforePrevious)
  }
  return previous[b.count]
}

/// Returns the candidate closest to `name`, for a "Did you mean …?" suggestion, or `nil` when
/// none is close enough.
///
/// The comparison ignores case. A candidate is close when either
/// - its ``editDistance(_:_:)`` from `name` is at most `maxDistance`, which defaults to a third
///   of the length of `name` but at least 1, and less than the longer one's length (replacing
///   every character is not a near miss: `x` is not close to `c`); or
/// - one of the two is a prefix of the other and the shorter has at least 2 characters
///   (`"inf"` → `"information"`).
///
/// Among close candidates the one at the smallest distance wins; ties go to the earlier
/// candidate, so the result does not depend on hashing. Names or candidates longer than 128
/// characters are not compared.
///
///     closestMatch(to: "jsn", in: ["json", "help"])        // "json"
///     closestMatch(to: "INFO", in: ["info", "step"])       // "info"
///     closestMatch(to: "frobnicate", in: ["info", "step"]) // nil
///
/// - Parameters:
///   - name: What the user typed, without any `--` prefix.
///   - candidates: The valid names.
///   - maxDistance: The largest edit distance that still counts as close.
/// - Complexity: O(*k* × *m* × *n*) for *k* candidates of at most *n* characters and a name of
///   *m* characters.
package func closestMatch(
  to name: String, in candidates: [String], maxDistance: Int? = nil
) -> String? {
  let typed = name.lowercased()
  let typedLength = typed.count
  guard typedLength > 0, typedLength <= longestComparedName else { return nil }
  let limit = maxDistance ?? max(1, typedLength / 3)

  var best: (candidate: String, distance: Int)?
  for candidate in candidates {
    let valid = candidate.lowercased()
    let validLength = valid.count
    guard validLength > 0, validLength <= longestComparedName else { continue }
    let isPrefix =
      min(typedLength, validLength) >= 2 && (valid.hasPrefix(typed) || typed.hasPrefix(valid))
    // The distance is at least the difference in length, so skip hopeless candidates early.
    guard isPrefix || abs(validLength - typedLength) <= limit else { continue }
    let distance = editDistance(typed, valid)
    // A distance as large as the longer name means nothing is shared: `x` is not close to `c`.
    guard isPrefix || (distance <= limit && distance < max(typedLength, validLength)) else {
      continue
    }
    if best.map({ distance < $0.distance }) ?? true {
      best = (candidate, distance)
    }
  }
  return best?.candidate
}
