// What Rewind needs from the CPU that Swift code cannot reach by itself: the CRC-32C instruction
// of the log's checksums (Sources/Rewind/Log/CRC32C+Hardware.swift), the vector instructions of
// the JSON validator's structural pass (JSONStructure.c, Sources/RewindJSON/JSONValidator.swift),
// the constant-rate counter that times recorded actions
// (Sources/Rewind/Recorder/RecordingClock.swift), and atomic words
// (Sources/Rewind/Support/AtomicWord.swift) on every platform Rewind supports — Swift's own
// `Synchronization.Atomic` needs macOS 15 / iOS 18.
//
// Swift code is compiled for the baseline CPU and cannot inline an intrinsic that needs a newer
// one, so the loop over a line's bytes lives here, in one function compiled for the instruction
// (`target` attribute) and called only after `rewind_crc32c_hardware_available` said yes.

#ifndef REWIND_CPU_H
#define REWIND_CPU_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// 1 when this CPU has a CRC-32C instruction this library uses (x86-64's SSE 4.2, or ARMv8's
/// CRC32 extension), else 0. Asks the CPU (or the kernel) each time: call it once and keep the
/// answer.
int rewind_crc32c_hardware_available(void);

/// Continues a CRC-32C computed over earlier bytes (`crc`, 0 to start) with `count` bytes at
/// `bytes`, with the CPU's instruction. Only call it when `rewind_crc32c_hardware_available()`
/// returned 1; the result equals the table-driven one for every input.
uint32_t rewind_crc32c_hardware_update(uint32_t crc, const void *bytes, size_t count);

/// The bounds a JSON text is checked against (JSONLimits in Sources/RewindJSON/JSONLimits.swift).
typedef struct rewind_json_limits {
  /// The most containers open at once (also bounded by the `kinds` buffer: 64 a word).
  size_t max_depth;
  /// The longest string, in UTF-8 bytes after unescaping.
  size_t max_string_bytes;
  /// The longest number literal, in characters.
  size_t max_number_length;
  /// The most values inside containers, all added up.
  size_t max_elements;
} rewind_json_limits;

/// How `rewind_json_is_valid` classifies each 64-byte block of the text.
typedef enum rewind_json_path {
  /// The best path this CPU has (`rewind_json_automatic_path()`).
  REWIND_JSON_PATH_AUTOMATIC = 0,
  /// One byte at a time, on every CPU.
  REWIND_JSON_PATH_PORTABLE = 1,
  /// x86-64's SSE2 (every x86-64 CPU): four 16-byte vectors.
  REWIND_JSON_PATH_SSE2 = 2,
  /// x86-64's AVX2, when the CPU has it: two 32-byte vectors.
  REWIND_JSON_PATH_AVX2 = 3,
  /// 64-bit ARM's NEON (every such CPU): four 16-byte vectors.
  REWIND_JSON_PATH_NEON = 4,
} rewind_json_path;

/// 1 when `path` runs on this CPU, else 0 (a path of another architecture, or AVX2 on an x86-64
/// CPU without it).
int rewind_json_path_is_available(rewind_json_path path);

/// The path `REWIND_JSON_PATH_AUTOMATIC` takes on this CPU: AVX2 when there is, else SSE2, on
/// x86-64; NEON on 64-bit ARM; the portable one elsewhere. Asks the CPU each time.
rewind_json_path rewind_json_automatic_path(void);

/// 1 when the `count` bytes at `bytes` are one JSON text within `limits` — exactly what
/// JSONValidator (Sources/RewindJSON/JSONValidator.swift) accepts, duplicate keys aside — else
/// 0. A structural pass after simdjson's: 64 bytes at a time, classified with `path` (a path
/// this CPU lacks falls back to the automatic one). `kinds` is scratch space of `kind_words`
/// words, one bit per open container: the depth is also bounded by 64 × `kind_words`. Texts
/// starting with a UTF-8 byte order mark are rejected; the caller checks the length ceiling.
int rewind_json_is_valid(const void *bytes, size_t count, const rewind_json_limits *limits,
                         uint64_t *kinds, size_t kind_words, rewind_json_path path);

/// 1 when every line of the `count` bytes at `bytes` — split at each `\n` — is one JSON text
/// within `limits` (each line's own: `rewind_json_is_valid` would accept it) or blank (spaces,
/// tabs and `\r` only), else 0. One pass over all the lines, for a log's lines many at a time;
/// the caller checks each line's length against the ceiling, and on 0 checks the lines one by one
/// to find the bad ones. `kinds`, `kind_words` and `path` as for `rewind_json_is_valid`.
int rewind_json_lines_are_valid(const void *bytes, size_t count, const rewind_json_limits *limits,
                                uint64_t *kinds, size_t kind_words, rewind_json_path path);

/// 1 when `rewind_ticks()` reads a counter that ticks at a constant rate whatever the CPU's
/// frequency and sleep states (x86-64's invariant time-stamp counter, ARMv8's virtual counter),
/// else 0. Asks the CPU each time: call it once and keep the answer.
int rewind_ticks_are_constant(void);

/// The CPU's constant-rate counter: one instruction, no system call and no shared page. Its rate
/// is not known here (the caller measures it against the monotonic clock); 0 on a CPU without
/// one. Only meaningful when `rewind_ticks_are_constant()` returned 1.
static inline uint64_t rewind_ticks(void) {
#if defined(__x86_64__)
  return __builtin_ia32_rdtsc();
#elif defined(__aarch64__)
  uint64_t value;
  __asm__ __volatile__("mrs %0, cntvct_el0" : "=r"(value));
  return value;
#else
  return 0;
#endif
}

/// Reads a word that other threads (or a signal handler) write, with acquire ordering. Lock-free
/// and async-signal-safe on every target Rewind builds for.
static inline long rewind_atomic_load(const long *word) {
  return __atomic_load_n(word, __ATOMIC_ACQUIRE);
}

/// Writes a word that other threads (or a signal handler) read, with release ordering.
static inline void rewind_atomic_store(long *word, long value) {
  __atomic_store_n(word, value, __ATOMIC_RELEASE);
}

/// Sets `*word` to `desired` if it is `expected`; returns 1 when it did (acquire-release).
static inline int rewind_atomic_compare_exchange(long *word, long expected, long desired) {
  return __atomic_compare_exchange_n(
      word, &expected, desired, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

/// A full (sequentially consistent) fence: a store before it is seen by other threads — or
/// another process sharing the memory — before any load after it is made. Two parties that each
/// store a flag, fence and load the other's flag cannot both miss the other's store.
static inline void rewind_atomic_fence(void) {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

#ifdef __cplusplus
}
#endif

#endif
