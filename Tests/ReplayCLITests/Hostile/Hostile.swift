import Testing

/// Hostile inputs to every command of `replay`: the JSONTestSuite corpus, deep nesting, huge
/// lines and arrays, odd bytes and encodings, files that are not logs. Each must yield a
/// specific diagnostic and status 2 (or, where the input is valid, the correct result) — never
/// a crash, a hang, or memory far past the reader's limits.
///
/// Every suite of the folder is nested here, so `swift test --filter Hostile` runs them all.
@Suite struct Hostile {}
