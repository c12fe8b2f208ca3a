// Fuzzes the JSON validator's structural pass (Sources/RewindCPU/JSONStructure.c) against its
// byte-by-byte reader (Sources/RewindJSON/JSONValidator.swift): on every path this CPU runs —
// AVX2 and SSE2 or NEON, the portable one, the automatic one — the pass accepts exactly the
// inputs the reader accepts, under the default limits and under tight ones that inputs of a
// fuzzer's sizes reach; and as lines, checked in one pass, against each line on its own. The
// input is also checked after 1 and 33 spaces, which move each of its bytes to another offset of
// a 64-byte block.
@_spi(Testing) import RewindJSON

private let tight = JSONLimits(maxDepth: 5, maxStringBytes: 6, maxNumberLength: 4, maxElements: 9)

private func check(_ bytes: UnsafeRawBufferPointer) {
  for limits in [JSONLimits.default, tight] {
    let expected = JSONStructuralPath.readerAccepts(bytes, limits: limits)
    for path in JSONStructuralPath.available
    where path.accepts(bytes, limits: limits) != expected {
      fatalError(
        "the \(path) pass \(expected ? "rejected" : "accepted") what the reader "
          + "\(expected ? "accepts" : "rejects") (limits \(limits)): \(Array(bytes))")
    }
    // The same bytes as lines, checked in one pass, against each line on its own.
    let linesExpected = JSONStructuralPath.readerAcceptsLines(bytes, limits: limits)
    for path in JSONStructuralPath.available
    where path.acceptsLines(bytes, limits: limits) != linesExpected {
      fatalError(
        "the \(path) pass over lines \(linesExpected ? "rejected" : "accepted") what the reader "
          + "\(linesExpected ? "accepts" : "rejects") line by line (limits \(limits)): "
          + "\(Array(bytes))")
    }
  }
}

/// libFuzzer's entry point: one input, `size` bytes at `data`; returns 0.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONStructure(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let buffer = UnsafeRawBufferPointer(start: data, count: size)
  check(buffer)
  for shift in [1, 33] {
    let shifted = [UInt8](repeating: 0x20, count: shift) + Array(buffer)
    shifted.withUnsafeBytes { check($0) }
  }
  return 0
}
