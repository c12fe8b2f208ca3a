// See include/RewindCPU.h. A JSON validator in two stages, after simdjson's (Langdale and
// Lemire, "Parsing Gigabytes of JSON per Second", 2019), written for Rewind:
//
// Stage 1 classifies 64 bytes at a time into bit masks — backslashes, quotes, whitespace, the
// six structural characters, control characters and bytes that are not ASCII — with AVX2 or
// SSE2 on x86-64 (chosen at run time), NEON on 64-bit ARM, or a portable loop elsewhere. Plain
// bit arithmetic, shared by every path, then finds the escaped bytes, the quotes that open and
// close strings and the bytes inside strings (a prefix XOR), and from them the events stage 2
// reads: structural characters and quotes outside strings, and the first byte of each run of
// other bytes (a number or a literal). Errors stage 1 sees itself: a control character inside a
// string, a byte after a backslash that is not an escape, a `\u` escape that is not four
// hexadecimal digits or a lone surrogate, and UTF-8 that is not well formed (checked byte by
// byte only in blocks that hold a byte that is not ASCII).
//
// Stage 2 walks the events of each block as soon as stage 1 has made them — a state machine
// with one bit per open container — and checks the grammar and the limits: depth, values, the
// length of each number, and the unescaped length of each string.
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
} block_classes;

// MARK: - Stage 1: classifying a block

/// The portable classification: one byte at a time.
static inline __attribute__((always_inline)) block_classes classify_portable(
    const unsigned char *block) {
  block_classes classes = {0, 0, 0, 0, 0, 0};
  for (unsigned i = 0; i < 64; i++) {
    const unsigned char c = block[i];
    const uint64_t bit = (uint64_t)1 << i;
    switch (c) {
      case '\\': classes.backslash |= bit; break;
      case '"': classes.quote |= bit; break;
      case ' ': classes.whitespace |= bit; break;
      case '\t':
      case '\n':
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
  classes.whitespace = avx2_mask(
      _mm256_or_si256(
          _mm256_or_si256(_mm256_cmpeq_epi8(a, space), _mm256_cmpeq_epi8(a, tab)),
          _mm256_or_si256(_mm256_cmpeq_epi8(a, newline), _mm256_cmpeq_epi8(a, ret))),
      _mm256_or_si256(
          _mm256_or_si256(_mm256_cmpeq_epi8(b, space), _mm256_cmpeq_epi8(b, tab)),
          _mm256_or_si256(_mm256_cmpeq_epi8(b, newline), _mm256_cmpeq_epi8(b, ret))));
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
  __m128i backslash, quote, whitespace, op, control, high;
} sse2_vector_classes;

static inline __attribute__((always_inline)) sse2_vector_classes sse2_classify_vector(__m128i v) {
  const __m128i v5 = _mm_or_si128(v, _mm_set1_epi8(0x20));
  const __m128i below = _mm_set1_epi8(0x1F);
  sse2_vector_classes c;
  c.backslash = _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'));
  c.quote = _mm_cmpeq_epi8(v, _mm_set1_epi8('"'));
  c.whitespace =
      _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')),
                                _mm_cmpeq_epi8(v, _mm_set1_epi8('\t'))),
                   _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\n')),
                                _mm_cmpeq_epi8(v, _mm_set1_epi8('\r'))));
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
  uint8x16_t backslash, quote, whitespace, op, control, high;
} neon_vector_classes;

static inline __attribute__((always_inline)) neon_vector_classes neon_classify_vector(
    uint8x16_t v) {
  const uint8x16_t v5 = vorrq_u8(v, vdupq_n_u8(0x20));
  neon_vector_classes c;
  c.backslash = vceqq_u8(v, vdupq_n_u8('\\'));
  c.quote = vceqq_u8(v, vdupq_n_u8('"'));
  c.whitespace = vorrq_u8(vorrq_u8(vceqq_u8(v, vdupq_n_u8(' ')), vceqq_u8(v, vdupq_n_u8('\t'))),
                          vorrq_u8(vceqq_u8(v, vdupq_n_u8('\n')), vceqq_u8(v, vdupq_n_u8('\r'))));
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

/// What the next event may be.
enum {
  /// A value: at the start, after `:`, after `,` in an array.
  EXPECT_VALUE,
  /// A value or `]`: after `[`.
  EXPECT_VALUE_OR_ARRAY_END,
  /// A key or `}`: after `{`.
  EXPECT_KEY_OR_OBJECT_END,
  /// A key: after `,` in an object.
  EXPECT_KEY,
  /// `:`: after a key.
  EXPECT_COLON,
  /// `,` or the end of the open container: after a value inside one.
  EXPECT_COMMA_OR_END,
  /// The closing quote of the string that is open.
  EXPECT_STRING_END,
  /// Nothing: after the top-level value.
  EXPECT_NOTHING,
};

/// The validator's state between blocks.
typedef struct {
  const unsigned char *bytes;
  size_t count;
  const rewind_json_limits *limits;
  uint64_t *kinds;
  size_t depth_limit;
  size_t depth;
  size_t elements;
  int expect;
  int string_is_key;
  size_t string_start;
  /// 1 when the first byte of the next block is escaped.
  uint64_t escape_carry;
  /// All ones when the next block starts inside a string.
  uint64_t string_carry;
  /// 1 when the last byte of the block before was a number's or literal's.
  uint64_t scalar_carry;
  /// The offset the next UTF-8 lead byte (or ASCII byte) starts at.
  size_t utf8_next;
  /// The offset of the `u` of the low surrogate's escape that a high one requires, or SIZE_MAX.
  size_t low_surrogate;
} validation;

/// Whether the byte at `at`, just after a number or literal, ends it (the end of the text,
/// whitespace, a structural character or a quote).
static inline __attribute__((always_inline)) int ends_scalar(const validation *v, size_t at) {
  if (at >= v->count) return 1;
  switch (v->bytes[at]) {
    case ' ': case '\t': case '\n': case '\r':
    case '{': case '}': case '[': case ']': case ':': case ',': case '"':
      return 1;
    default:
      return 0;
  }
}

/// Checks the number or literal whose first byte is at `start`.
static inline __attribute__((always_inline)) int scalar_is_valid(const validation *v,
                                                                  size_t start) {
  const unsigned char *bytes = v->bytes;
  const size_t count = v->count;
  size_t i = start;
  switch (bytes[i]) {
    case 't':
      return count - i >= 4 && memcmp(bytes + i, "true", 4) == 0 && ends_scalar(v, i + 4);
    case 'f':
      return count - i >= 5 && memcmp(bytes + i, "false", 5) == 0 && ends_scalar(v, i + 5);
    case 'n':
      return count - i >= 4 && memcmp(bytes + i, "null", 4) == 0 && ends_scalar(v, i + 4);
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
  return i - start <= v->limits->max_number_length && ends_scalar(v, i);
}

/// A value starts: counts it (inside a container) and returns 0 when that is one too many.
static inline int count_value(validation *v) {
  if (v->depth == 0) return 1;
  v->elements += 1;
  return v->elements <= v->limits->max_elements;
}

/// The state after a value.
static inline void after_value(validation *v) {
  v->expect = v->depth > 0 ? EXPECT_COMMA_OR_END : EXPECT_NOTHING;
}

/// Whether the innermost open container is an object.
static inline int in_object(const validation *v) {
  const size_t top = v->depth - 1;
  return (v->kinds[top >> 6] >> (top & 63)) & 1;
}

/// Reads one event at `at`; returns 0 on an error.
static inline __attribute__((always_inline)) int event(validation *v, size_t at) {
  const unsigned char c = v->bytes[at];
  switch (c) {
    case '"':
      if (v->expect == EXPECT_STRING_END) {
        const size_t raw = at - v->string_start - 1;
        if (raw > v->limits->max_string_bytes &&
            unescaped_length(v->bytes, v->string_start, at) > v->limits->max_string_bytes) {
          return 0;
        }
        if (v->string_is_key) {
          v->expect = EXPECT_COLON;
        } else {
          after_value(v);
        }
        return 1;
      }
      if (v->expect == EXPECT_VALUE || v->expect == EXPECT_VALUE_OR_ARRAY_END) {
        if (!count_value(v)) return 0;
        v->string_is_key = 0;
      } else if (v->expect == EXPECT_KEY || v->expect == EXPECT_KEY_OR_OBJECT_END) {
        v->string_is_key = 1;
      } else {
        return 0;
      }
      v->string_start = at;
      v->expect = EXPECT_STRING_END;
      return 1;
    case '{':
    case '[': {
      if (v->expect != EXPECT_VALUE && v->expect != EXPECT_VALUE_OR_ARRAY_END) return 0;
      if (!count_value(v)) return 0;
      if (v->depth >= v->depth_limit) return 0;
      const uint64_t bit = (uint64_t)1 << (v->depth & 63);
      if (c == '{') {
        v->kinds[v->depth >> 6] |= bit;
        v->expect = EXPECT_KEY_OR_OBJECT_END;
      } else {
        v->kinds[v->depth >> 6] &= ~bit;
        v->expect = EXPECT_VALUE_OR_ARRAY_END;
      }
      v->depth += 1;
      return 1;
    }
    case '}':
      if (v->expect != EXPECT_KEY_OR_OBJECT_END &&
          !(v->expect == EXPECT_COMMA_OR_END && in_object(v))) {
        return 0;
      }
      v->depth -= 1;
      after_value(v);
      return 1;
    case ']':
      if (v->expect != EXPECT_VALUE_OR_ARRAY_END &&
          !(v->expect == EXPECT_COMMA_OR_END && !in_object(v))) {
        return 0;
      }
      v->depth -= 1;
      after_value(v);
      return 1;
    case ':':
      if (v->expect != EXPECT_COLON) return 0;
      v->expect = EXPECT_VALUE;
      return 1;
    case ',':
      if (v->expect != EXPECT_COMMA_OR_END) return 0;
      v->expect = in_object(v) ? EXPECT_KEY : EXPECT_VALUE;
      return 1;
    default:
      // The first byte of a number or literal (or of bytes that are neither).
      if (v->expect != EXPECT_VALUE && v->expect != EXPECT_VALUE_OR_ARRAY_END) return 0;
      if (!count_value(v)) return 0;
      if (!scalar_is_valid(v, at)) return 0;
      after_value(v);
      return 1;
  }
}

/// Checks the escape whose byte after the backslash is at `at`; returns 0 on an error.
static int escape_is_valid(validation *v, size_t at) {
  if (at >= v->count) return 0;
  switch (v->bytes[at]) {
    case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
      return 1;
    case 'u': {
      if (at == v->low_surrogate) {
        v->low_surrogate = SIZE_MAX;  // checked with its high surrogate
        return 1;
      }
      const long unit = hex_unit(v->bytes, v->count, at + 1);
      if (unit < 0 || (unit >= 0xDC00 && unit <= 0xDFFF)) return 0;
      if (unit >= 0xD800 && unit <= 0xDBFF) {
        // `\uD8xx` must be followed at once by `\uDCxx`.
        const size_t next = at + 5;
        if (next >= v->count || v->count - next < 2 || v->bytes[next] != '\\' ||
            v->bytes[next + 1] != 'u') {
          return 0;
        }
        const long low = hex_unit(v->bytes, v->count, next + 2);
        if (low < 0xDC00 || low > 0xDFFF) return 0;
        v->low_surrogate = next + 1;
      }
      return 1;
    }
    default:
      return 0;
  }
}

/// Runs both stages over one block whose classes are `classes` and whose first byte is at
/// `base`; returns 0 on an error.
static inline __attribute__((always_inline)) int block(validation *v, block_classes classes,
                                                       size_t base) {
  // The escaped bytes: the byte after each backslash that is not itself escaped. Backslashes
  // are rare in a log, so one at a time.
  uint64_t escaped = v->escape_carry;
  uint64_t backslashes = classes.backslash & ~v->escape_carry;
  v->escape_carry = 0;
  while (backslashes != 0) {
    const unsigned at = (unsigned)__builtin_ctzll(backslashes);
    if (at == 63) {
      v->escape_carry = 1;
      backslashes = 0;
    } else {
      escaped |= (uint64_t)1 << (at + 1);
      backslashes &= ~((uint64_t)3 << at);
    }
  }
  if (escaped != 0) {
    uint64_t each = escaped;
    while (each != 0) {
      if (!escape_is_valid(v, base + (unsigned)__builtin_ctzll(each))) return 0;
      each &= each - 1;
    }
  }
  const uint64_t quotes = classes.quote & ~escaped;
  // 1 from each opening quote up to its closing quote (not included).
  const uint64_t inside = prefix_xor(quotes) ^ v->string_carry;
  v->string_carry = (uint64_t)((int64_t)inside >> 63);
  if ((classes.control & inside) != 0) return 0;
  const uint64_t outside = ~(inside | quotes);
  const uint64_t scalar = outside & ~(classes.op | classes.whitespace);
  const uint64_t scalar_starts = scalar & ~((scalar << 1) | v->scalar_carry);
  v->scalar_carry = scalar >> 63;
  if (classes.high != 0) {
    // UTF-8, from the first lead byte the block before did not take.
    uint64_t high = classes.high;
    if (v->utf8_next > base) {
      const size_t skip = v->utf8_next - base;
      high = skip >= 64 ? 0 : high & (~(uint64_t)0 << skip);
    }
    while (high != 0) {
      const size_t at = base + (unsigned)__builtin_ctzll(high);
      if (at >= v->count) break;  // the padding after the text
      const size_t length = utf8_sequence(v->bytes, v->count, at);
      if (length == 0) return 0;
      v->utf8_next = at + length;
      const size_t skip = v->utf8_next - base;
      high = skip >= 64 ? 0 : high & (~(uint64_t)0 << skip);
    }
  }
  uint64_t events = (classes.op & outside) | quotes | scalar_starts;
  while (events != 0) {
    if (!event(v, base + (unsigned)__builtin_ctzll(events))) return 0;
    events &= events - 1;
  }
  return 1;
}

/// Both stages over `count` bytes, classifying each block with `classify`.
static inline __attribute__((always_inline)) int validate(
    const unsigned char *bytes, size_t count, const rewind_json_limits *limits, uint64_t *kinds,
    size_t kind_words, block_classes (*classify)(const unsigned char *)) {
  if (count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF) return 0;
  validation v;
  v.bytes = bytes;
  v.count = count;
  v.limits = limits;
  v.kinds = kinds;
  v.depth_limit = limits->max_depth < kind_words * 64 ? limits->max_depth : kind_words * 64;
  v.depth = 0;
  v.elements = 0;
  v.expect = EXPECT_VALUE;
  v.string_is_key = 0;
  v.string_start = 0;
  v.escape_carry = 0;
  v.string_carry = 0;
  v.scalar_carry = 0;
  v.utf8_next = 0;
  v.low_surrogate = SIZE_MAX;
  size_t base = 0;
  for (; count - base >= 64; base += 64) {
    if (!block(&v, classify(bytes + base), base)) return 0;
  }
  if (base < count) {
    // The last bytes, padded with spaces: whitespace, which changes nothing.
    unsigned char last[64];
    memset(last, ' ', sizeof last);
    memcpy(last, bytes + base, count - base);
    if (!block(&v, classify(last), base)) return 0;
  }
  return v.expect == EXPECT_NOTHING;
}

// MARK: - The paths

static int validate_portable(const unsigned char *bytes, size_t count,
                             const rewind_json_limits *limits, uint64_t *kinds,
                             size_t kind_words) {
  return validate(bytes, count, limits, kinds, kind_words, classify_portable);
}

#if defined(__x86_64__)

static int validate_sse2(const unsigned char *bytes, size_t count,
                         const rewind_json_limits *limits, uint64_t *kinds, size_t kind_words) {
  return validate(bytes, count, limits, kinds, kind_words, classify_sse2);
}

static int validate_avx2(const unsigned char *bytes, size_t count,
                         const rewind_json_limits *limits, uint64_t *kinds, size_t kind_words) {
  return validate(bytes, count, limits, kinds, kind_words, classify_avx2);
}

#elif defined(__aarch64__)

static int validate_neon(const unsigned char *bytes, size_t count,
                         const rewind_json_limits *limits, uint64_t *kinds, size_t kind_words) {
  return validate(bytes, count, limits, kinds, kind_words, classify_neon);
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

int rewind_json_is_valid(const void *bytes, size_t count, const rewind_json_limits *limits,
                         uint64_t *kinds, size_t kind_words, rewind_json_path path) {
  const unsigned char *text = (const unsigned char *)bytes;
  if (kind_words == 0) return 0;
  if (path == REWIND_JSON_PATH_AUTOMATIC || !rewind_json_path_is_available(path)) {
    path = rewind_json_automatic_path();
  }
  switch (path) {
#if defined(__x86_64__)
    case REWIND_JSON_PATH_AVX2:
      return validate_avx2(text, count, limits, kinds, kind_words);
    case REWIND_JSON_PATH_SSE2:
      return validate_sse2(text, count, limits, kinds, kind_words);
#elif defined(__aarch64__)
    case REWIND_JSON_PATH_NEON:
      return validate_neon(text, count, limits, kinds, kind_words);
#endif
    default:
      return validate_portable(text, count, limits, kinds, kind_words);
  }
}
