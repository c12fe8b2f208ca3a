// The one place where Rewind depends on the CPU's architecture: the CRC-32C instruction of
// x86-64's SSE 4.2, reached through the compiler's own intrinsics module (no C target). Every
// other CPU, and an x86-64 one without SSE 4.2, uses the slicing tables of `CRC32C.swift`.
#if arch(x86_64) && canImport(_Builtin_intrinsics.intel)
  import _Builtin_intrinsics.intel
  import _Builtin_intrinsics.intel.cpuid
#endif

extension CRC32C {
  /// The CPU's own CRC-32C instruction, when it has one.
  ///
  /// The intrinsics are reached through C function pointers: Swift code is compiled for the
  /// baseline CPU, and an intrinsic compiled for SSE 4.2 may not be inlined into it, so each
  /// step is a call to the compiler's out-of-line copy — a handful of instructions for eight
  /// bytes, where the tables take about forty. Whether the CPU has the instruction is asked once
  /// (`cpuid`), before any is run.
  package struct Hardware: Sendable {
    private let step64: @convention(c) (UInt64, UInt64) -> UInt64
    private let step32: @convention(c) (UInt32, UInt32) -> UInt32
    private let step8: @convention(c) (UInt32, UInt8) -> UInt32

    /// The instruction's steps, or `nil` when this CPU (or this build's architecture) has none.
    package static let available: Hardware? = {
      #if arch(x86_64) && canImport(_Builtin_intrinsics.intel)
        var (eax, ebx, ecx, edx): (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
        // Leaf 1, ECX bit 20: SSE 4.2, which holds CRC32.
        guard __get_cpuid(1, &eax, &ebx, &ecx, &edx) != 0, ecx & (1 << 20) != 0 else {
          return nil
        }
        return Hardware(step64: _mm_crc32_u64, step32: _mm_crc32_u32, step8: _mm_crc32_u8)
      #else
        return nil
      #endif
    }()

    /// Continues a CRC-32C computed over earlier bytes with `bytes`: the same value as
    /// ``CRC32C/updateBySlicing(_:_:)``.
    /// - Complexity: O(n): one instruction per eight bytes, and at most two for the rest.
    package func update(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
      guard var pointer = bytes.baseAddress else { return crc }
      var remaining = bytes.count
      var wide = UInt64(~crc)
      while remaining >= 8 {
        wide = step64(wide, UInt64(littleEndian: pointer.loadUnaligned(as: UInt64.self)))
        pointer += 8
        remaining &-= 8
      }
      var crc = UInt32(truncatingIfNeeded: wide)
      if remaining >= 4 {
        crc = step32(crc, UInt32(littleEndian: pointer.loadUnaligned(as: UInt32.self)))
        pointer += 4
        remaining &-= 4
      }
      while remaining > 0 {
        crc = step8(crc, pointer.load(as: UInt8.self))
        pointer += 1
        remaining &-= 1
      }
      return ~crc
    }
  }
}
