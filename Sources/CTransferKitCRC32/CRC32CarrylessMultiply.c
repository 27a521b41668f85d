// CRC-32 folding with PCLMULQDQ, after Gopal, Ozturk et al., "Fast CRC Computation for Generic
// Polynomials Using PCLMULQDQ Instruction" (Intel, 2009), in the bit-reflected form that zlib
// (Chromium's crc32_sse42_simd_) and the Linux kernel (crc32-pclmul) use for the IEEE polynomial.
// Long inputs use the same folding in 512-bit registers (VPCLMULQDQ) where the CPU has it, as zlib-ng and
// the kernel's AVX-512 variants do.
// See include/CTransferKitCRC32.h for why this is C.

#include "CTransferKitCRC32.h"

#if defined(__x86_64__)

#include <immintrin.h>
#include <stdatomic.h>

// The constants, bit-reflected and shifted left by one as the paper's reflected variant wants
// them; P(x) = 0x104C11DB7, "x^n" is x^n mod P(x). Each was recomputed from P(x) when written
// and matches zlib's and the kernel's tables.
//   k1 = x^(4*128+32), k2 = x^(4*128-32): fold a lane forward across four lanes (64 bytes).
//   k3 = x^(128+32),   k4 = x^(128-32):   fold a lane forward by one lane (16 bytes).
//   k5 = x^64:                             fold 96 bits to 64.
//   mu = floor(x^64 / P(x)), and P(x) itself: Barrett reduction from 64 bits to 32.
static const uint64_t k1 = 0x0154442bd4, k2 = 0x01c6e41596;
static const uint64_t k3 = 0x01751997d0, k4 = 0x00ccaa009e;
static const uint64_t k5 = 0x0163cd6124;
static const uint64_t mu = 0x01f7011641, reflectedPolynomial = 0x01db710641;

#define TK_CRC32_CLMUL_TARGET __attribute__((target("pclmul,sse4.1")))

// Multiplies the low 64 bits of `lane` by `constants`' low half and its high 64 bits by the high
// half, and adds (xors) both products to `next`: `lane` moved forward over the distance the
// constants stand for, landing on the data block `next`.
TK_CRC32_CLMUL_TARGET static inline __m128i fold(__m128i lane, __m128i constants, __m128i next) {
    __m128i low = _mm_clmulepi64_si128(lane, constants, 0x00);
    __m128i high = _mm_clmulepi64_si128(lane, constants, 0x11);
    return _mm_xor_si128(_mm_xor_si128(low, high), next);
}

// Folds whole 16-byte blocks into four lanes that already hold the first 64 bytes (the running remainder
// included), then the lanes into one, and reduces it to the CRC. `length` is a multiple of 16.
TK_CRC32_CLMUL_TARGET static uint32_t fold_lanes(
    __m128i lane0, __m128i lane1, __m128i lane2, __m128i lane3, const unsigned char *bytes, size_t length) {
    // Four independent lanes, each folded 64 bytes forward per block, hide PCLMULQDQ's latency.
    const __m128i k1k2 = _mm_set_epi64x((long long)k2, (long long)k1);
    while (length >= 64) {
        lane0 = fold(lane0, k1k2, _mm_loadu_si128((const __m128i *)(const void *)(bytes + 0)));
        lane1 = fold(lane1, k1k2, _mm_loadu_si128((const __m128i *)(const void *)(bytes + 16)));
        lane2 = fold(lane2, k1k2, _mm_loadu_si128((const __m128i *)(const void *)(bytes + 32)));
        lane3 = fold(lane3, k1k2, _mm_loadu_si128((const __m128i *)(const void *)(bytes + 48)));
        bytes += 64;
        length -= 64;
    }

    // Four lanes into one, then any remaining 16-byte blocks.
    const __m128i k3k4 = _mm_set_epi64x((long long)k4, (long long)k3);
    __m128i folded = fold(lane0, k3k4, lane1);
    folded = fold(folded, k3k4, lane2);
    folded = fold(folded, k3k4, lane3);
    while (length >= 16) {
        folded = fold(folded, k3k4, _mm_loadu_si128((const __m128i *)(const void *)bytes));
        bytes += 16;
        length -= 16;
    }

    // 128 bits to 96: the low 64 bits times k4, added to the high 64 bits.
    const __m128i low32 = _mm_setr_epi32(-1, 0, -1, 0);
    folded = _mm_xor_si128(_mm_srli_si128(folded, 8), _mm_clmulepi64_si128(folded, k3k4, 0x10));
    // 96 bits to 64: the low 32 bits times k5, added to the upper 64.
    const __m128i k5k0 = _mm_set_epi64x(0, (long long)k5);
    folded = _mm_xor_si128(
        _mm_srli_si128(folded, 4), _mm_clmulepi64_si128(_mm_and_si128(folded, low32), k5k0, 0x00));

    // Barrett reduction, 64 bits to 32: q = floor(R / P) from mu, then R - q * P.
    const __m128i barrett = _mm_set_epi64x((long long)mu, (long long)reflectedPolynomial);
    __m128i quotient = _mm_clmulepi64_si128(_mm_and_si128(folded, low32), barrett, 0x10);
    __m128i product = _mm_clmulepi64_si128(_mm_and_si128(quotient, low32), barrett, 0x00);
    folded = _mm_xor_si128(folded, product);
    return (uint32_t)_mm_extract_epi32(folded, 1);
}

TK_CRC32_CLMUL_TARGET static uint32_t fold_blocks(uint32_t state, const unsigned char *bytes, size_t length) {
    // length >= 64 and a multiple of 16 here.
    __m128i lane0 = _mm_loadu_si128((const __m128i *)(const void *)(bytes + 0));
    __m128i lane1 = _mm_loadu_si128((const __m128i *)(const void *)(bytes + 16));
    __m128i lane2 = _mm_loadu_si128((const __m128i *)(const void *)(bytes + 32));
    __m128i lane3 = _mm_loadu_si128((const __m128i *)(const void *)(bytes + 48));
    // The running remainder enters as the first 32 bits of the message, as in the table code.
    lane0 = _mm_xor_si128(lane0, _mm_cvtsi32_si128((int)state));
    return fold_lanes(lane0, lane1, lane2, lane3, bytes + 64, length - 64);
}

// The same folding four 128-bit lanes at a time in 512-bit registers (VPCLMULQDQ, AVX-512), for long inputs on
// CPUs that have it: four registers cover 256 bytes per step with a quarter of the instructions, so the checksum
// keeps up with copying memory (it is computed on both sides of a `pack | extract` pipe).
//   k6 = x^(4*512+32), k7 = x^(4*512-32): fold a register forward across four registers (256 bytes), in the
//   same reflected, shifted form as k1...k5.
static const uint64_t k6 = 0x011542778a, k7 = 0x01322d1430;

#define TK_CRC32_WIDE_TARGET __attribute__((target("vpclmulqdq,avx512f,pclmul,sse4.1")))

TK_CRC32_WIDE_TARGET static inline __m512i fold_wide(__m512i lanes, __m512i constants, __m512i next) {
    __m512i low = _mm512_clmulepi64_epi128(lanes, constants, 0x00);
    __m512i high = _mm512_clmulepi64_epi128(lanes, constants, 0x11);
    return _mm512_ternarylogic_epi64(low, high, next, 0x96);  // low ^ high ^ next
}

TK_CRC32_WIDE_TARGET static uint32_t fold_blocks_wide(uint32_t state, const unsigned char *bytes, size_t length) {
    // length >= 256 and a multiple of 16 here. Register j holds bytes 64j ..< 64j + 64 of each 256-byte block, as
    // four 128-bit lanes.
    __m512i z0 = _mm512_loadu_si512((const void *)(bytes + 0));
    __m512i z1 = _mm512_loadu_si512((const void *)(bytes + 64));
    __m512i z2 = _mm512_loadu_si512((const void *)(bytes + 128));
    __m512i z3 = _mm512_loadu_si512((const void *)(bytes + 192));
    z0 = _mm512_xor_si512(z0, _mm512_inserti32x4(_mm512_setzero_si512(), _mm_cvtsi32_si128((int)state), 0));
    bytes += 256;
    length -= 256;

    const __m512i k6k7 = _mm512_set_epi64(
        (long long)k7, (long long)k6, (long long)k7, (long long)k6, (long long)k7, (long long)k6, (long long)k7,
        (long long)k6);
    while (length >= 256) {
        z0 = fold_wide(z0, k6k7, _mm512_loadu_si512((const void *)(bytes + 0)));
        z1 = fold_wide(z1, k6k7, _mm512_loadu_si512((const void *)(bytes + 64)));
        z2 = fold_wide(z2, k6k7, _mm512_loadu_si512((const void *)(bytes + 128)));
        z3 = fold_wide(z3, k6k7, _mm512_loadu_si512((const void *)(bytes + 192)));
        bytes += 256;
        length -= 256;
    }

    // Four registers into one, each folded 64 bytes forward onto the next (k1, k2 in every lane): its four lanes
    // are then exactly the four lanes of the 128-bit code at this point, which finishes.
    const __m512i k1k2 = _mm512_set_epi64(
        (long long)k2, (long long)k1, (long long)k2, (long long)k1, (long long)k2, (long long)k1, (long long)k2,
        (long long)k1);
    __m512i z = fold_wide(z0, k1k2, z1);
    z = fold_wide(z, k1k2, z2);
    z = fold_wide(z, k1k2, z3);
    return fold_lanes(
        _mm512_extracti32x4_epi32(z, 0), _mm512_extracti32x4_epi32(z, 1), _mm512_extracti32x4_epi32(z, 2),
        _mm512_extracti32x4_epi32(z, 3), bytes, length);
}

// The fewest bytes worth the 512-bit path: two steps of 256.
#define TK_CRC32_WIDE_MINIMUM_LENGTH 512

static int cpu_supports_wide(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("vpclmulqdq") && __builtin_cpu_supports("avx512f");
}

// -1 until the CPU was asked, then 0 or 1, as for the 128-bit path.
static atomic_int cachedWideAvailability = -1;

static int wide_available(void) {
    int available = atomic_load_explicit(&cachedWideAvailability, memory_order_relaxed);
    if (available < 0) {
        available = cpu_supports_wide();
        atomic_store_explicit(&cachedWideAvailability, available, memory_order_relaxed);
    }
    return available;
}

static int cpu_supports_clmul(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1");
}

// -1 until the CPU was asked, then 0 or 1. Racing first callers store the same answer.
static atomic_int cachedAvailability = -1;

int tk_crc32_clmul_available(void) {
    int available = atomic_load_explicit(&cachedAvailability, memory_order_relaxed);
    if (available < 0) {
        available = cpu_supports_clmul();
        atomic_store_explicit(&cachedAvailability, available, memory_order_relaxed);
    }
    return available;
}

int tk_crc32_cpu_supports_clmul(void) { return cpu_supports_clmul(); }

size_t tk_crc32_clmul_update(uint32_t *state, const void *bytes, size_t length) {
    if (length < TK_CRC32_CLMUL_MINIMUM_LENGTH || !tk_crc32_clmul_available()) {
        return 0;
    }
    size_t folded = length & ~(size_t)15;
    if (folded >= TK_CRC32_WIDE_MINIMUM_LENGTH && wide_available()) {
        *state = fold_blocks_wide(*state, (const unsigned char *)bytes, folded);
    } else {
        *state = fold_blocks(*state, (const unsigned char *)bytes, folded);
    }
    return folded;
}

#else

int tk_crc32_clmul_available(void) { return 0; }

int tk_crc32_cpu_supports_clmul(void) { return 0; }

size_t tk_crc32_clmul_update(uint32_t *state, const void *bytes, size_t length) {
    (void)state;
    (void)bytes;
    (void)length;
    return 0;
}

#endif
