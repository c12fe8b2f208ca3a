// See include/RewindCPU.h. The CRC-32C instruction: x86-64 (SSE 4.2) and
// 64-bit ARM (the CRC32 extension); every other CPU reports no instruction and Rewind uses its
// slicing tables.

#include "RewindCPU.h"

#include <string.h>

#if defined(__x86_64__)

#include <cpuid.h>
#include <nmmintrin.h>

int rewind_crc32c_hardware_available(void) {
  unsigned int eax = 0, ebx = 0, ecx = 0, edx = 0;
  // Leaf 1, ECX bit 20: SSE 4.2, which holds CRC32.
  if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
  return (ecx & (1u << 20)) != 0;
}

__attribute__((target("sse4.2")))
uint32_t rewind_crc32c_hardware_update(uint32_t crc, const void *bytes, size_t count) {
  const unsigned char *pointer = (const unsigned char *)bytes;
  uint64_t wide = (uint32_t)~crc;
  while (count >= 8) {
    uint64_t word;
    memcpy(&word, pointer, 8);  // an unaligned load; x86-64 is little-endian
    wide = _mm_crc32_u64(wide, word);
    pointer += 8;
    count -= 8;
  }
  uint32_t narrow = (uint32_t)wide;
  if (count >= 4) {
    uint32_t word;
    memcpy(&word, pointer, 4);
    narrow = _mm_crc32_u32(narrow, word);
    pointer += 4;
    count -= 4;
  }
  while (count > 0) {
    narrow = _mm_crc32_u8(narrow, *pointer);
    pointer += 1;
    count -= 1;
  }
  return ~narrow;
}

#elif defined(__aarch64__)

#include <arm_acle.h>
#if defined(__linux__)
#include <sys/auxv.h>
#ifndef HWCAP_CRC32
#define HWCAP_CRC32 (1 << 7)
#endif
#endif

int rewind_crc32c_hardware_available(void) {
#if defined(__APPLE__)
  return 1;  // every 64-bit ARM CPU Apple ships has the CRC32 extension
#elif defined(__linux__)
  return (getauxval(AT_HWCAP) & HWCAP_CRC32) != 0;
#else
  return 0;
#endif
}

__attribute__((target("crc")))
uint32_t rewind_crc32c_hardware_update(uint32_t crc, const void *bytes, size_t count) {
  const unsigned char *pointer = (const unsigned char *)bytes;
  uint32_t value = ~crc;
  while (count >= 8) {
    uint64_t word;
    memcpy(&word, pointer, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    word = __builtin_bswap64(word);
#endif
    value = __crc32cd(value, word);
    pointer += 8;
    count -= 8;
  }
  while (count > 0) {
    value = __crc32cb(value, *pointer);
    pointer += 1;
    count -= 1;
  }
  return ~value;
}

#else

int rewind_crc32c_hardware_available(void) { return 0; }

uint32_t rewind_crc32c_hardware_update(uint32_t crc, const void *bytes, size_t count) {
  (void)bytes;
  (void)count;
  return crc;  // never called: no instruction is reported on this CPU
}

#endif
