// See include/RewindCPU.h. A JSON validator in two stages, after simdjson's (Langdale and
// Lemire, "Parsing Gigabytes of JSON per Second", 2019), written for Rewind:
//
// Stage 1 classifies 64 bytes at a time into bit masks — backslashes, quotes, whitespace, the
// six structural characters, control characters and bytes that are not ASCII — with AVX2 or
// SSE2 on x86-64 (chosen at run time), NEON on 64-bit ARM, or a portable loop elsewhere. Plain
// bit arithmetic, shared by every path, then finds the escaped bytes, the quotes that open and
// close strings and the bytes inside strings (a prefix XOR), checks what it can itself — a
// control character inside a string, a byte after a backslash that is not an escape, a `\u`
// escape that is not four hexadecimal digits or a lone surrogate, UTF-8 that is not well formed
// (byte by byte, only in blocks that hold a byte that is not ASCII), each number and literal,
// and (when a limit can be reached) each string's length — and writes the grammar's tokens: a
// byte each for the structural characters outside strings, each string (its opening quote) and
// each number or literal.
//
// Stage 2 reads a text's tokens at its end (or a part at a time when there are many): a state
// machine with one bit per open container that checks the grammar, the depth and the count of
// values. `rewind_json_lines_are_valid` checks many lines in one call, each newline outside
// strings ending a text; lines of a log have a few shapes, so the token strings of the lines
// already accepted are kept, and a line with one of them is not read again.
//
// The verdict equals JSONValidator's (Sources/RewindJSON/JSONValidator.swift) on every input:
// Tests/RewindJSONTests/JSONStructuralPassTests.swift and Fuzz/Sources/FuzzJSONStructure
// compare them.

#include "RewindCPU.h"

#include <string.h>

#if defined(__x86_64__)
#include <immintrin.h>
#elif defined(__aarch64__)
#include <arm_neon.h>
#endif

/// The classes of the 64 bytes of one block, one bit per byte (bit i is byte i).
typedef struct {
  uint64_t backslash;
  uint64_t quote;
  uint64_t whitespace;
  /// `{`, `}`, `[`, `]`, `:`, `,`
  uint64_t op;
  /// Bytes below 0x20.
  uint64_t control;
  /// Bytes of 0x80 and above.
  uint64_t high;
  /// `\n` (also whitespace and a control character).
  uint64_t newline;
} block_classes;

// MARK: - Stage 1: classifying a block

/// The portable classification: one byte at a time.
static inline __attribute__((always_inline)) block_classes classify_portable(
    const unsigned char *block) {
  block_classes classes = {0, 0, 0, 0, 0, 0, 0};
  for (unsigned i = 0; i < 64; i++) {
    const unsigned char c = block[i];
    const uint64_t bit = (uint64_t)1 << i;
    switch (c) {
      case '\\': classes.backslash |= bit; break;
      case '"': classes.quote |= bit; break;
      case ' ': classes.whitespace |= bit; break;
      case '\n':
        classes.newline |= bit;
        classes.whitespace |= bit;
        classes.control |= bit;
        break;
      case '\t':
      case '\r':
        classes.whitespace |= bit;
        classes.control |= bit;
        break;
      case '{':
      case '}':
      case '[':
      case ']':
      case ':':
      case ',': classes.op |= bit; break;
      default:
        if (c < 0x20) classes.control |= bit;
        if (c >= 0x80) classes.high |= bit;
        break;
    }
  }
  return classes;
}

#if defined(__x86_64__)

__attribute__((target("avx2"))) static inline uint64_t avx2_mask(__m256i low, __m256i high) {
  const uint32_t l = (uint32_t)_mm256_movemask_epi8(low);
  const uint32_t h = (uint32_t)_mm256_movemask_epi8(high);
  return (uint64_t)l | ((uint64_t)h << 32);
}

/// The classification with AVX2: two 32-byte vectors. Not inlined: only this function is
/// compiled for AVX2, so that the rest of the pass — the same code on every path — is not
/// vectorized by the compiler in AVX2's own way (byte inserts and extracts, slower on the
/// short lines of a log than the plain code).
__attribute__((target("avx2"), noinline)) static block_classes classify_avx2(
    const unsigned char *block) {
  const __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)block);
  const __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(block + 32));
  const __m256i backslash = _mm256_set1_epi8('\\');
  const __m256i quote = _mm256_set1_epi8('"');
  const __m256i space = _mm256_set1_epi8(' ');
  const __m256i tab = _mm256_set1_epi8('\t');
  const __m256i newline = _mm256_set1_epi8('\n');
  const __m256i ret = _mm256_set1_epi8('\r');
  const __m256i bit5 = _mm256_set1_epi8(0x20);
  const __m256i open = _mm256_set1_epi8('{');    // `{`, and `[` with bit 5 set
  const __m256i close = _mm256_set1_epi8('}');   // `}`, and `]` with bit 5 set
  const __m256i colon = _mm256_set1_epi8(':');
  const __m256i comma = _mm256_set1_epi8(',');
  const __m256i below = _mm256_set1_epi8(0x1F);
  block_classes classes;
  classes.backslash =
      avx2_mask(_mm256_cmpeq_epi8(a, backslash), _mm256_cmpeq_epi8(b, backslash));
  classes.quote = avx2_mask(_mm256_cmpeq_epi8(a, quote), _mm256_cmpeq_epi8(b, quote));
  const __m256i a_newline = _mm256_cmpeq_epi8(a, newline);
  const __m256i b_newline = _mm256_cmpeq_epi8(b, newline);
  classes.newline = avx2_mask(a_newline, b_newline);
  classes.whitespace = avx2_mask(
      _mm256_or_si256(
          _mm256_or_si256(_mm256_cmpeq_epi8(a, space), _mm256_cmpeq_epi8(a, tab)),
          _mm256_or_si256(a_newline, _mm256_cmpeq_epi8(a, ret))),
      _mm256_or_si256(
          _mm256_or_si256(_mm256_cmpeq_epi8(b, space), _mm256_cmpeq_epi8(b, tab)),
          _mm256_or_si256(b_newline, _mm256_cmpeq_epi8(b, ret))));
  const __m256i a5 = _mm256_or_si256(a, bit5);
  const __m256i b5 = _mm256_or_si256(b, bit5);
  classes.op = avx2_mask(
      _mm256_or_si256(
          _mm256_or_si256(_mm256_cmpeq_epi8(a5, open), _mm256_cmpeq_epi8(a5, close)),
          _mm256_or_si256(_mm256_cmpeq_epi8(a, colon), _mm256_cmpeq_epi8(a, comma))),
      _mm256_or_si256(
          _mm256_or_si256(_mm256_cmpeq_epi8(b5, open), _mm256_cmpeq_epi8(b5, close)),
          _mm256_or_si256(_mm256_cmpeq_epi8(b, colon), _mm256_cmpeq_epi8(b, comma))));
  // c <= 0x1F exactly when max(c, 0x1F) == 0x1F (unsigned).
  classes.control = avx2_mask(_mm256_cmpeq_epi8(_mm256_max_epu8(a, below), below),
                              _mm256_cmpeq_epi8(_mm256_max_epu8(b, below), below));
  classes.high = avx2_mask(a, b);
  return classes;
}

static inline __attribute__((always_inline)) uint64_t sse2_mask(__m128i v0, __m128i v1,
                                                                 __m128i v2, __m128i v3) {
  const uint64_t m0 = (uint16_t)_mm_movemask_epi8(v0);
  const uint64_t m1 = (uint16_t)_mm_movemask_epi8(v1);
  const uint64_t m2 = (uint16_t)_mm_movemask_epi8(v2);
  const uint64_t m3 = (uint16_t)_mm_movemask_epi8(v3);
  return m0 | (m1 << 16) | (m2 << 32) | (m3 << 48);
}

/// One 16-byte vector's classes, as `sse2_mask` inputs.
typedef struct {
  __m128i backslash, quote, whitespace, op, control, high, newline;
} sse2_vector_classes;

static inline __attribute__((always_inline)) sse2_vector_classes sse2_classify_vector(__m128i v) {
  const __m128i v5 = _mm_or_si128(v, _mm_set1_epi8(0x20));
  const __m128i below = _mm_set1_epi8(0x1F);
  sse2_vector_classes c;
  c.backslash = _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'));
  c.quote = _mm_cmpeq_epi8(v, _mm_set1_epi8('"'));
  c.newline = _mm_cmpeq_epi8(v, _mm_set1_epi8('\n'));
  c.whitespace =
      _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')),
                                _mm_cmpeq_epi8(v, _mm_set1_epi8('\t'))),
                   _mm_or_si128(c.newline, _mm_cmpeq_epi8(v, _mm_set1_epi8('\r'))));
  c.op = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v5, _mm_set1_epi8('{')),
                                   _mm_cmpeq_epi8(v5, _mm_set1_epi8('}'))),
                      _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(':')),
                                   _mm_cmpeq_epi8(v, _mm_set1_epi8(','))));
  c.control = _mm_cmpeq_epi8(_mm_max_epu8(v, below), below);
  c.high = v;
  return c;
}

/// The classification with SSE2 (every x86-64 CPU): four 16-byte vectors.
static inline __attribute__((always_inline)) block_classes classify_sse2(
    const unsigned char *block) {
  const sse2_vector_classes c0 =
      sse2_classify_vector(_mm_loadu_si128((const __m128i *)(const void *)block));
  const sse2_vector_classes c1 =
      sse2_classify_vector(_mm_loadu_si128((const __m128i *)(const void *)(block + 16)));
  const sse2_vector_classes c2 =
      sse2_classify_vector(_mm_loadu_si128((const __m128i *)(const void *)(block + 32)));
  const sse2_vector_classes c3 =
      sse2_classify_vector(_mm_loadu_si128((const __m128i *)(const void *)(block + 48)));
  block_classes classes;
  classes.backslash = sse2_mask(c0.backslash, c1.backslash, c2.backslash, c3.backslash);
  classes.quote = sse2_mask(c0.quote, c1.quote, c2.quote, c3.quote);
  classes.whitespace = sse2_mask(c0.whitespace, c1.whitespace, c2.whitespace, c3.whitespace);
  classes.op = sse2_mask(c0.op, c1.op, c2.op, c3.op);
  classes.control = sse2_mask(c0.control, c1.control, c2.control, c3.control);
  classes.high = sse2_mask(c0.high, c1.high, c2.high, c3.high);
  classes.newline = sse2_mask(c0.newline, c1.newline, c2.newline, c3.newline);
  return classes;
}

#elif defined(__aarch64__)

/// The 64 bits of four comparison results (each byte 0x00 or 0xFF), byte i of `v0` as bit i:
/// each byte keeps one bit of its position within 8, and three pairwise additions gather them.
static inline __attribute__((always_inline)) uint64_t neon_mask(uint8x16_t v0, uint8x16_t v1,
                                                                uint8x16_t v2, uint8x16_t v3) {
  const uint8x16_t bits = {0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80,
                           0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80};
  uint8x16_t sum0 = vpaddq_u8(vandq_u8(v0, bits), vandq_u8(v1, bits));
  const uint8x16_t sum1 = vpaddq_u8(vandq_u8(v2, bits), vandq_u8(v3, bits));
  sum0 = vpaddq_u8(sum0, sum1);
  sum0 = vpaddq_u8(sum0, sum0);
  return vgetq_lane_u64(vreinterpretq_u64_u8(sum0), 0);
}

/// One 16-byte vector's classes, each byte 0x00 or 0xFF.
typedef struct {
  uint8x16_t backslash, quote, whitespace, op, control, high, newline;
} neon_vector_classes;

static inline __attribute__((always_inline)) neon_vector_classes neon_classify_vector(
    uint8x16_t v) {
  const uint8x16_t v5 = vorrq_u8(v, vdupq_n_u8(0x20));
  neon_vector_classes c;
  c.backslash = vceqq_u8(v, vdupq_n_u8('\\'));
  c.quote = vceqq_u8(v, vdupq_n_u8('"'));
  c.newline = vceqq_u8(v, vdupq_n_u8('\n'));
  c.whitespace = vorrq_u8(vorrq_u8(vceqq_u8(v, vdupq_n_u8(' ')), vceqq_u8(v, vdupq_n_u8('\t'))),
                          vorrq_u8(c.newline, vceqq_u8(v, vdupq_n_u8('\r'))));
  c.op = vorrq_u8(vorrq_u8(vceqq_u8(v5, vdupq_n_u8('{')), vceqq_u8(v5, vdupq_n_u8('}'))),
                  vorrq_u8(vceqq_u8(v, vdupq_n_u8(':')), vceqq_u8(v, vdupq_n_u8(','))));
  c.control = vcltq_u8(v, vdupq_n_u8(0x20));
  c.high = vcgeq_u8(v, vdupq_n_u8(0x80));
  return c;
}

/// The classification with NEON (every 64-bit ARM CPU): four 16-byte vectors.
static inline __attribute__((always_inline)) block_classes classify_neon(
    const unsigned char *block) {
  const neon_vector_classes c0 = neon_classify_vector(vld1q_u8(block));
  const neon_vector_classes c1 = neon_classify_vector(vld1q_u8(block + 16));
  const neon_vector_classes c2 = neon_classify_vector(vld1q_u8(block + 32));
  const neon_vector_classes c3 = neon_classify_vector(vld1q_u8(block + 48));
  block_classes classes;
  classes.backslash = neon_mask(c0.backslash, c1.backslash, c2.backslash, c3.backslash);
  classes.quote = neon_mask(c0.quote, c1.quote, c2.quote, c3.quote);
  classes.whitespace = neon_mask(c0.whitespace, c1.whitespace, c2.whitespace, c3.whitespace);
  classes.op = neon_mask(c0.op, c1.op, c2.op, c3.op);
  classes.control = neon_mask(c0.control, c1.control, c2.control, c3.control);
  classes.high = neon_mask(c0.high, c1.high, c2.high, c3.high);
  classes.newline = neon_mask(c0.newline, c1.newline, c2.newline, c3.newline);
  return classes;
}

#endif

// MARK: - Stage 1: what the classes mean

/// Each bit set, and every bit above it up to the next bit set, flipped: 1 from an opening
/// quote up to (not including) its closing one.
static inline __attribute__((always_inline)) uint64_t prefix_xor(uint64_t bits) {
  bits ^= bits << 1;
  bits ^= bits << 2;
  bits ^= bits << 4;
  bits ^= bits << 8;
  bits ^= bits << 16;
  bits ^= bits << 32;
  return bits;
}

/// The value of the hexadecimal digit `c`, or -1.
static inline int hex_digit(unsigned char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/// The UTF-16 unit of the four hexadecimal digits at `start`, or -1.
static inline long hex_unit(const unsigned char *bytes, size_t count, size_t start) {
  if (start > count || count - start < 4) return -1;
  long unit = 0;
  for (size_t k = 0; k < 4; k++) {
    const int digit = hex_digit(bytes[start + k]);
    if (digit < 0) return -1;
    unit = unit << 4 | digit;
  }
  return unit;
}

/// The length of the well-formed UTF-8 sequence (Unicode's table 3-7) at `start`, whose lead
/// byte is not ASCII, or 0.
static size_t utf8_sequence(const unsigned char *bytes, size_t count, size_t start) {
  const unsigned char lead = bytes[start];
  size_t length;
  unsigned char low = 0x80, high = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead == 0xE0) {
    length = 3;
    low = 0xA0;
  } else if ((lead >= 0xE1 && lead <= 0xEC) || lead == 0xEE || lead == 0xEF) {
    length = 3;
  } else if (lead == 0xED) {
    length = 3;
    high = 0x9F;
  } else if (lead == 0xF0) {
    length = 4;
    low = 0x90;
  } else if (lead >= 0xF1 && lead <= 0xF3) {
    length = 4;
  } else if (lead == 0xF4) {
    length = 4;
    high = 0x8F;
  } else {
    return 0;
  }
  if (count - start < length) return 0;
  if (bytes[start + 1] < low || bytes[start + 1] > high) return 0;
  for (size_t k = 2; k < length; k++) {
    if ((bytes[start + k] & 0xC0) != 0x80) return 0;
  }
  return length;
}

/// The string's length after unescaping, for the string between the quotes at `open` and
/// `close` (its escapes already checked).
static size_t unescaped_length(const unsigned char *bytes, size_t open, size_t close) {
  size_t length = 0;
  size_t i = open + 1;
  while (i < close) {
    if (bytes[i] != '\\') {
      length += 1;
      i += 1;
    } else if (i + 1 < close && bytes[i + 1] == 'u') {
      const long unit = hex_unit(bytes, close, i + 2);
      if (unit >= 0xD800 && unit <= 0xDBFF) {
        length += 4;
        i += 12;
      } else {
        length += unit < 0x80 ? 1 : unit < 0x800 ? 2 : 3;
        i += 6;
      }
    } else {
      length += 1;
      i += 2;
    }
  }
  return length;
}

// MARK: - Stage 2: the grammar

// What the next event may be: one bit each, so that a check is one AND.

/// A value at the top: the start of a text (of a line, when checking lines).
#define S_TOP 0x001u
/// A value: after `:`, or after `,` in an array.
#define S_VALUE 0x002u
/// A value or `]`: after `[`.
#define S_ELEMENT 0x004u
/// A key or `}`: after `{` (`S_ELEMENT << 1`).
#define S_MEMBER 0x008u
/// A key: after `,` in an object.
#define S_KEY 0x010u
/// `:`: after a key.
#define S_COLON 0x020u
/// `,` or `}`: after a value in an object (`S_ARRAY_NEXT >> 1`).
#define S_OBJECT_NEXT 0x040u
/// `,` or `]`: after a value in an array.
#define S_ARRAY_NEXT 0x080u
/// Nothing (when checking lines: a newline): after the top-level value.
#define S_DONE 0x100u
/// Where a value may start.
#define S_VALUE_START (S_TOP | S_VALUE | S_ELEMENT)

/// Whether the byte at `at`, just after a number or literal, ends it (the end of the text,
/// whitespace, a structural character or a quote).
static inline __attribute__((always_inline)) int ends_scalar(const unsigned char *bytes,
                                                              size_t count, size_t at) {
  if (at >= count) return 1;
  switch (bytes[at]) {
    case ' ': case '\t': case '\n': case '\r':
    case '{': case '}': case '[': case ']': case ':': case ',': case '"':
      return 1;
    default:
      return 0;
  }
}

/// Checks the number or literal whose first byte is at `start`.
static inline __attribute__((always_inline)) int scalar_is_valid(const unsigned char *bytes,
                                                                  size_t count, size_t start,
                                                                  size_t max_number_length) {
  size_t i = start;
  switch (bytes[i]) {
    case 't':
      return count - i >= 4 && memcmp(bytes + i, "true", 4) == 0 &&
             ends_scalar(bytes, count, i + 4);
    case 'f':
      return count - i >= 5 && memcmp(bytes + i, "false", 5) == 0 &&
             ends_scalar(bytes, count, i + 5);
    case 'n':
      return count - i >= 4 && memcmp(bytes + i, "null", 4) == 0 &&
             ends_scalar(bytes, count, i + 4);
    default: break;
  }
#define IS_DIGIT(at) ((at) < count && (unsigned char)(bytes[at] - '0') < 10)
  if (bytes[i] == '-') i += 1;
  if (!IS_DIGIT(i)) return 0;
  if (bytes[i] == '0') {
    i += 1;
  } else {
    while (IS_DIGIT(i)) i += 1;
  }
  if (i < count && bytes[i] == '.') {
    i += 1;
    if (!IS_DIGIT(i)) return 0;
    while (IS_DIGIT(i)) i += 1;
  }
  if (i < count && (bytes[i] == 'e' || bytes[i] == 'E')) {
    i += 1;
    if (i < count && (bytes[i] == '+' || bytes[i] == '-')) i += 1;
    if (!IS_DIGIT(i)) return 0;
    while (IS_DIGIT(i)) i += 1;
  }
#undef IS_DIGIT
  return i - start <= max_number_length && ends_scalar(bytes, count, i);
}

/// Checks the escape whose byte after the backslash is at `at`; returns 0 on an error.
/// `low_surrogate` is the offset of the `u` of the low surrogate's escape that a high one
/// requires (already checked with it), or SIZE_MAX.
static inline __attribute__((always_inline)) int escape_is_valid(const unsigned char *bytes,
                                                                  size_t count, size_t at,
                                                                  size_t *low_surrogate) {
  if (at >= count) return 0;
  switch (bytes[at]) {
    case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
      return 1;
    case 'u': {
      if (at == *low_surrogate) {
        *low_surrogate = SIZE_MAX;  // checked with its high surrogate
        return 1;
      }
      const long unit = hex_unit(bytes, count, at + 1);
      if (unit < 0 || (unit >= 0xDC00 && unit <= 0xDFFF)) return 0;
      if (unit >= 0xD800 && unit <= 0xDBFF) {
        // `\uD8xx` must be followed at once by `\uDCxx`.
        const size_t next = at + 5;
        if (next >= count || count - next < 2 || bytes[next] != '\\' || bytes[next + 1] != 'u') {
          return 0;
        }
        const long low = hex_unit(bytes, count, next + 2);
        if (low < 0xDC00 || low > 0xDFFF) return 0;
        *low_surrogate = next + 1;
      }
      return 1;
    }
    default:
      return 0;
  }
}

/// The token of each byte that starts an event: itself for `{`, `}`, `[`, `]`, `:`, `,` and
/// `"` (a string's opening quote: the string is one token), `v` for the first byte of a number
/// or literal (checked apart), so that lines of the same shape have the same tokens.
static const unsigned char token_of[256] = {
    'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v',
    'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v',
    'v', 'v', '"', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', ',', 'v', 'v', 'v',
    'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', ':', 'v', 'v', 'v', 'v', 'v',
    'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v',
    'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', '[', 'v', ']', 'v', 'v',
    'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v',
    'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', '{', 'v', '}', 'v', 'v',
    'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v',
    'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v',
    'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v',
    'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v',
    'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v',
    'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v',
    'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v',
    'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v',
};

/// The grammar's state between tokens: the state as one bit (`S_*`), the state after a value
/// in the innermost container, the depth, and the kinds of the 64 innermost open containers in
/// a word (bit 0 the innermost, 1 for an object; deeper ones are kept in `kinds`, a bit each).
typedef struct {
  unsigned state;
  unsigned after;
  size_t depth;
  uint64_t stack;
  /// Values inside containers so far.
  size_t elements;
} grammar;

/// What the grammar checks against.
typedef struct {
  uint64_t *kinds;
  size_t depth_limit;
  size_t max_elements;
  /// 0 when no element limit can be reached (values are then not counted).
  int count_elements;
} grammar_limits;

static inline void grammar_start(grammar *g) {
  g->state = S_TOP;
  g->after = S_DONE;
  g->depth = 0;
  g->stack = 0;
  g->elements = 0;
}

/// Reads `n` tokens of one text; returns 0 on an error.
static int grammar_read(grammar *g, const unsigned char *tokens, size_t n,
                        const grammar_limits *limits) {
  unsigned state = g->state;
  unsigned after = g->after;
  size_t depth = g->depth;
  uint64_t stack = g->stack;
  size_t elements = g->elements;
  uint64_t *const kinds = limits->kinds;
  const size_t depth_limit = limits->depth_limit;
  const size_t max_elements = limits->max_elements;
  const int count_elements = limits->count_elements;
  int ok = 0;
  for (size_t i = 0; i < n; i++) {
    const unsigned char t = tokens[i];
    switch (t) {
      case '{':
      case '[': {
        if ((state & S_VALUE_START) == 0) goto done;
        if (count_elements && state != S_TOP && ++elements > max_elements) goto done;
        if (depth >= depth_limit) goto done;
        const uint64_t is_object = (t >> 5) & 1;  // `{` is 0x7B, `[` 0x5B
        if (depth >= 64) {
          // The 64th container out moves from `stack` to `kinds`.
          const size_t level = depth - 64;
          const uint64_t bit = (uint64_t)1 << (level & 63);
          kinds[level >> 6] = (stack >> 63) ? kinds[level >> 6] | bit : kinds[level >> 6] & ~bit;
        }
        stack = stack << 1 | is_object;
        depth += 1;
        state = S_ELEMENT << is_object;
        after = S_ARRAY_NEXT >> is_object;
        break;
      }
      case '}':
      case ']':
        // `S_MEMBER` and `S_OBJECT_NEXT` only ever follow an object's `{`, `S_ELEMENT` and
        // `S_ARRAY_NEXT` an array's `[`.
        if ((state & (t == '}' ? S_MEMBER | S_OBJECT_NEXT : S_ELEMENT | S_ARRAY_NEXT)) == 0) {
          goto done;
        }
        depth -= 1;
        stack >>= 1;
        if (depth >= 64) {
          const size_t level = depth - 64;
          stack |= ((kinds[level >> 6] >> (level & 63)) & 1) << 63;
        }
        after = depth == 0 ? S_DONE : S_ARRAY_NEXT >> (stack & 1);
        state = after;
        break;
      case ':':
        if (state != S_COLON) goto done;
        state = S_VALUE;
        break;
      case ',':
        if ((state & (S_OBJECT_NEXT | S_ARRAY_NEXT)) == 0) goto done;
        state = state == S_OBJECT_NEXT ? S_KEY : S_VALUE;
        break;
      case '"':
        if (state & S_VALUE_START) {
          if (count_elements && state != S_TOP && ++elements > max_elements) goto done;
          state = after;
        } else if (state & (S_KEY | S_MEMBER)) {
          state = S_COLON;
        } else {
          goto done;
        }
        break;
      default:
        // A number or literal (`v`), already checked.
        if ((state & S_VALUE_START) == 0) goto done;
        if (count_elements && state != S_TOP && ++elements > max_elements) goto done;
        state = after;
        break;
    }
  }
  ok = 1;
done:
  g->state = state;
  g->after = after;
  g->depth = depth;
  g->stack = stack;
  g->elements = elements;
  return ok;
}

/// Lines of a log have a few shapes: the token strings of those already read are kept (in a
/// call), and a line with one of them needs no grammar (its verdict depends on its tokens
/// alone; its numbers, strings and UTF-8 are checked apart).
#define SHAPES 16
/// The most tokens of a shape kept.
#define SHAPE_TOKENS 120

typedef struct {
  size_t length;
  unsigned char tokens[SHAPE_TOKENS];
} shape;

/// Which of the `SHAPES` entries the `n` tokens at `tokens` go in. Reads whole words: the 7
/// bytes after the tokens must be readable (their values do not matter).
static inline size_t shape_slot(const unsigned char *tokens, size_t n) {
  const uint64_t multiplier = 0x9E3779B97F4A7C15ull;
  uint64_t hash = n * multiplier;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t word;
    memcpy(&word, tokens + i, 8);
    hash = (hash ^ word) * multiplier;
  }
  if (i < n) {
    uint64_t word;
    memcpy(&word, tokens + i, 8);
    const unsigned unused = (unsigned)(8 - (n - i)) * 8;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    word &= ~(uint64_t)0 << unused;
#else
    word &= ~(uint64_t)0 >> unused;
#endif
    hash = (hash ^ word) * multiplier;
  }
  return (size_t)(hash >> 60) & (SHAPES - 1);
}

/// Whether the `n` tokens at `tokens` (with 7 readable bytes after them) are one complete text:
/// looked up in `shapes` (unless NULL) before reading them, and added to it when they are.
static int text_is_valid(const unsigned char *tokens, size_t n, shape *shapes,
                         const grammar_limits *limits) {
  shape *slot = NULL;
  if (shapes != NULL && n <= SHAPE_TOKENS) {
    slot = &shapes[shape_slot(tokens, n)];
    if (slot->length == n && memcmp(slot->tokens, tokens, n) == 0) return 1;
  }
  grammar g;
  grammar_start(&g);
  if (!grammar_read(&g, tokens, n, limits) || g.state != S_DONE) return 0;
  if (slot != NULL) {
    slot->length = n;
    memcpy(slot->tokens, tokens, n);
  }
  return 1;
}

/// Tokens kept at once: a text with more is read a part at a time.
#define TOKENS 4096

/// The whole check: both stages over `count` bytes, classifying each block with `classify`.
///
/// Stage 1 checks strings, escapes, UTF-8 and numbers and literals itself, and writes the
/// tokens of the grammar (`token_of`) to a buffer; stage 2 reads each text's tokens at its end
/// (or a part of them when the buffer is full). `lines` makes each newline outside strings end
/// a text: every line must then be one JSON text, or blank. `compact` is set when the text is
/// too short for any string or element limit to be reached (the caller checks): then string
/// lengths are not computed and values are not counted.
static inline __attribute__((always_inline)) int check(
    const unsigned char *bytes, size_t count, const rewind_json_limits *limits, uint64_t *kinds,
    size_t kind_words, block_classes (*classify)(const unsigned char *), const int compact,
    const int lines) {
  const grammar_limits grammar_limits = {
      kinds, limits->max_depth < kind_words * 64 ? limits->max_depth : kind_words * 64,
      limits->max_elements, !compact};
  const size_t max_number_length = limits->max_number_length;
  const size_t max_string_bytes = limits->max_string_bytes;
  // Stage 1's carries from one block to the next.
  uint64_t escape_carry = 0;  // 1 when the next block's first byte is escaped
  uint64_t string_carry = 0;  // all ones when the next block starts inside a string
  uint64_t scalar_carry = 0;  // 1 when the last byte was a number's or literal's
  size_t utf8_next = 0;       // where the next UTF-8 lead byte (or ASCII byte) starts
  size_t low_surrogate = SIZE_MAX;
  size_t string_start = 0;  // the opening quote of the string that is open (unless `compact`)
  // The tokens of the text being read, from `text_start` to `n`; when `streaming`, its tokens
  // before those have gone to `g` already.
  unsigned char tokens[TOKENS + 8];
  size_t n = 0;
  size_t text_start = 0;
  int streaming = 0;
  grammar g;
  shape shapes[SHAPES];
  if (lines) {
    for (size_t k = 0; k < SHAPES; k++) shapes[k].length = 0;
  }
  unsigned char last[64];
  for (size_t base = 0; base < count; base += 64) {
    block_classes classes;
    if (count - base >= 64) {
      classes = classify(bytes + base);
    } else {
      // The last bytes, padded with spaces: whitespace, which changes nothing.
      memset(last, ' ', sizeof last);
      memcpy(last, bytes + base, count - base);
      classes = classify(last);
    }
    if (n + 64 > TOKENS) {
      // Room for this block's tokens: drop the texts read, and read a part of a long one.
      if (!streaming && text_start > 0) {
        memmove(tokens, tokens + text_start, n - text_start);
        n -= text_start;
        text_start = 0;
      }
      if (n + 64 > TOKENS) {
        if (!streaming) {
          grammar_start(&g);
          streaming = 1;
        }
        if (!grammar_read(&g, tokens + text_start, n - text_start, &grammar_limits)) return 0;
        n = 0;
        text_start = 0;
      }
    }
    // The escaped bytes: the byte after each backslash that is not itself escaped. Backslashes
    // are rare in a log, so one at a time.
    uint64_t escaped = escape_carry;
    uint64_t backslashes = classes.backslash & ~escape_carry;
    escape_carry = 0;
    while (backslashes != 0) {
      const unsigned at = (unsigned)__builtin_ctzll(backslashes);
      if (at == 63) {
        escape_carry = 1;
        backslashes = 0;
      } else {
        escaped |= (uint64_t)1 << (at + 1);
        backslashes &= ~((uint64_t)3 << at);
      }
    }
    if (escaped != 0) {
      uint64_t each = escaped;
      while (each != 0) {
        const size_t at = base + (unsigned)__builtin_ctzll(each);
        if (!escape_is_valid(bytes, count, at, &low_surrogate)) return 0;
        each &= each - 1;
      }
    }
    const uint64_t quotes = classes.quote & ~escaped;
    // 1 from each opening quote up to its closing quote (not included).
    const uint64_t inside = prefix_xor(quotes) ^ string_carry;
    string_carry = (uint64_t)((int64_t)inside >> 63);
    if ((classes.control & inside) != 0) return 0;
    if (!compact) {
      // Each string's length, at its closing quote.
      uint64_t each = quotes;
      while (each != 0) {
        const size_t at = base + (unsigned)__builtin_ctzll(each);
        if ((inside >> (at - base)) & 1) {
          string_start = at;
        } else if (at - string_start - 1 > max_string_bytes &&
                   unescaped_length(bytes, string_start, at) > max_string_bytes) {
          return 0;
        }
        each &= each - 1;
      }
    }
    const uint64_t outside = ~(inside | quotes);
    const uint64_t scalar = outside & ~(classes.op | classes.whitespace);
    const uint64_t scalar_starts = scalar & ~((scalar << 1) | scalar_carry);
    scalar_carry = scalar >> 63;
    if (classes.high != 0) {
      // UTF-8, from the first lead byte the block before did not take.
      uint64_t high = classes.high;
      if (utf8_next > base) {
        const size_t skip = utf8_next - base;
        high = skip >= 64 ? 0 : high & (~(uint64_t)0 << skip);
      }
      while (high != 0) {
        const size_t at = base + (unsigned)__builtin_ctzll(high);
        if (at >= count) break;  // the padding after the text
        const size_t length = utf8_sequence(bytes, count, at);
        if (length == 0) return 0;
        utf8_next = at + length;
        const size_t skip = utf8_next - base;
        high = skip >= 64 ? 0 : high & (~(uint64_t)0 << skip);
      }
    }
    for (uint64_t each = scalar_starts; each != 0; each &= each - 1) {
      const size_t at = base + (unsigned)__builtin_ctzll(each);
      if (!scalar_is_valid(bytes, count, at, max_number_length)) return 0;
    }
    // The tokens: structural characters outside strings, each string's opening quote, and the
    // first byte of each number or literal.
    const uint64_t events = (classes.op & outside) | (quotes & inside) | scalar_starts;
    const size_t first = n;
    for (uint64_t each = events; each != 0; each &= each - 1) {
      tokens[n++] = token_of[bytes[base + (unsigned)__builtin_ctzll(each)]];
    }
    if (lines) {
      // Each newline outside strings ends a text: its tokens are those before it.
      for (uint64_t each = classes.newline & outside; each != 0; each &= each - 1) {
        const unsigned at = (unsigned)__builtin_ctzll(each);
        const size_t end = first + (size_t)__builtin_popcountll(events & (((uint64_t)1 << at) - 1));
        if (streaming) {
          streaming = 0;
          if (!grammar_read(&g, tokens + text_start, end - text_start, &grammar_limits) ||
              g.state != S_DONE) {
            return 0;
          }
        } else if (end > text_start &&
                   !text_is_valid(tokens + text_start, end - text_start, shapes, &grammar_limits)) {
          return 0;
        }
        text_start = end;
      }
    }
  }
  if (string_carry != 0) return 0;  // a string not closed
  // The last text (for lines, the one after the last newline: it may be blank).
  if (streaming) {
    return grammar_read(&g, tokens + text_start, n - text_start, &grammar_limits) &&
           g.state == S_DONE;
  }
  if (n == text_start) return lines;
  return text_is_valid(tokens + text_start, n - text_start, lines ? shapes : NULL,
                       &grammar_limits);
}

/// Whether no string or element limit can be reached in `count` bytes: a string's unescaped
/// length is at most its raw length, less than `count`, and every value takes a byte.
static inline int is_compact(size_t count, const rewind_json_limits *limits) {
  return count <= limits->max_string_bytes && count <= limits->max_elements;
}

/// `check` for one text, or for lines, in the compact form when it can be.
static inline __attribute__((always_inline)) int validate(
    const unsigned char *bytes, size_t count, const rewind_json_limits *limits, uint64_t *kinds,
    size_t kind_words, block_classes (*classify)(const unsigned char *), const int lines) {
  if (!lines && count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF) return 0;
  if (is_compact(count, limits)) {
    return check(bytes, count, limits, kinds, kind_words, classify, 1, lines);
  }
  return check(bytes, count, limits, kinds, kind_words, classify, 0, lines);
}

// MARK: - The paths

static int validate_portable(const unsigned char *bytes, size_t count,
                             const rewind_json_limits *limits, uint64_t *kinds,
                             size_t kind_words, int lines) {
  if (lines) return validate(bytes, count, limits, kinds, kind_words, classify_portable, 1);
  return validate(bytes, count, limits, kinds, kind_words, classify_portable, 0);
}

#if defined(__x86_64__)

static int validate_sse2(const unsigned char *bytes, size_t count,
                         const rewind_json_limits *limits, uint64_t *kinds, size_t kind_words,
                         int lines) {
  if (lines) return validate(bytes, count, limits, kinds, kind_words, classify_sse2, 1);
  return validate(bytes, count, limits, kinds, kind_words, classify_sse2, 0);
}

static int validate_avx2(const unsigned char *bytes, size_t count,
                         const rewind_json_limits *limits, uint64_t *kinds, size_t kind_words,
                         int lines) {
  if (lines) return validate(bytes, count, limits, kinds, kind_words, classify_avx2, 1);
  return validate(bytes, count, limits, kinds, kind_words, classify_avx2, 0);
}

#elif defined(__aarch64__)

static int validate_neon(const unsigned char *bytes, size_t count,
                         const rewind_json_limits *limits, uint64_t *kinds, size_t kind_words,
                         int lines) {
  if (lines) return validate(bytes, count, limits, kinds, kind_words, classify_neon, 1);
  return validate(bytes, count, limits, kinds, kind_words, classify_neon, 0);
}

#endif

int rewind_json_path_is_available(rewind_json_path path) {
  switch (path) {
    case REWIND_JSON_PATH_AUTOMATIC:
    case REWIND_JSON_PATH_PORTABLE:
      return 1;
#if defined(__x86_64__)
    case REWIND_JSON_PATH_SSE2:
      return 1;
    case REWIND_JSON_PATH_AVX2:
      return __builtin_cpu_supports("avx2") ? 1 : 0;
#elif defined(__aarch64__)
    case REWIND_JSON_PATH_NEON:
      return 1;
#endif
    default:
      return 0;
  }
}

rewind_json_path rewind_json_automatic_path(void) {
#if defined(__x86_64__)
  return __builtin_cpu_supports("avx2") ? REWIND_JSON_PATH_AVX2 : REWIND_JSON_PATH_SSE2;
#elif defined(__aarch64__)
  return REWIND_JSON_PATH_NEON;
#else
  return REWIND_JSON_PATH_PORTABLE;
#endif
}

/// Both entry points: one text, or lines.
static int dispatch(const void *bytes, size_t count, const rewind_json_limits *limits,
                    uint64_t *kinds, size_t kind_words, rewind_json_path path, int lines) {
  const unsigned char *text = (const unsigned char *)bytes;
  if (kind_words == 0) return 0;
  if (path == REWIND_JSON_PATH_AUTOMATIC || !rewind_json_path_is_available(path)) {
    path = rewind_json_automatic_path();
  }
  switch (path) {
#if defined(__x86_64__)
    case REWIND_JSON_PATH_AVX2:
      return validate_avx2(text, count, limits, kinds, kind_words, lines);
    case REWIND_JSON_PATH_SSE2:
      return validate_sse2(text, count, limits, kinds, kind_words, lines);
#elif defined(__aarch64__)
    case REWIND_JSON_PATH_NEON:
      return validate_neon(text, count, limits, kinds, kind_words, lines);
#endif
    default:
      return validate_portable(text, count, limits, kinds, kind_words, lines);
  }
}

int rewind_json_is_valid(const void *bytes, size_t count, const rewind_json_limits *limits,
                         uint64_t *kinds, size_t kind_words, rewind_json_path path) {
  return dispatch(bytes, count, limits, kinds, kind_words, path, 0);
}

int rewind_json_lines_are_valid(const void *bytes, size_t count, const rewind_json_limits *limits,
                                uint64_t *kinds, size_t kind_words, rewind_json_path path) {
  return dispatch(bytes, count, limits, kinds, kind_words, path, 1);
}
