// The one place where Rewind depends on the CPU: the CRC-32C instruction of x86-64 (SSE 4.2) or
// 64-bit ARM (the CRC32 extension), through the `RewindCPU` C target. Swift code is compiled
// for the baseline CPU and may not inline an intrinsic that needs a newer one, so the loop over a
// line's bytes is one C function compiled for the instruction. Every other CPU uses the slicing
// tables of `CRC32C.swift`.
import RewindCPU

extension CRC32C {
  /// The CPU's own CRC-32C instruction, when it has one.
  ///
  /// One call per buffer: the loop — one instruction per eight bytes — runs in C. Whether the
  /// CPU has the instruction is asked once (`cpuid` on x86-64, the kernel's hardware
  /// capabilities on ARM Linux), before any is run.
  package struct Hardware: Sendable {
    /// The instruction, or `nil` when this CPU (or this build's architecture) has none.
    package static let available: Hardware? =
      rewind_crc32c_hardware_available() != 0 ? Hardware() : nil

    private init() {}

    /// Continues a CRC-32C computed over earlier bytes with `bytes`: the same value as
    /// ``CRC32C/updateBySlicing(_:_:)``.
    /// - Complexity: O(n): one instruction per eight bytes, and at most four for the rest.
    @inline(__always)
    package func update(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
      guard let base = bytes.baseAddress else { return crc }
      return rewind_crc32c_hardware_update(crc, base, bytes.count)
    }
  }
}
