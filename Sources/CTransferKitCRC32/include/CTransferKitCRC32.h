// CRC-32 (IEEE 802.3, reflected, as zlib's crc32()) folded with carry-less multiplication.
//
// Why this C target exists: Swift has no carry-less-multiply intrinsic (PCLMULQDQ) and no way to
// compile one function for a CPU feature the rest of the module may not assume. C has both:
// `__attribute__((target("pclmul,sse4.1")))` builds only the folding function with those
// instructions, and `__builtin_cpu_supports` decides at run time whether it may be called. Inputs of
// 512 bytes or more fold four lanes per instruction in 512-bit registers where the CPU also has
// VPCLMULQDQ and AVX-512F (about four times the speed), chosen the same way. It is
// a target inside this package, not a package dependency. `CRC32` in TransferKit calls it for
// long inputs on x86-64 and keeps its table code as the portable fallback; nothing else should.

#ifndef CTRANSFERKITCRC32_H
#define CTRANSFERKITCRC32_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The fewest bytes `tk_crc32_clmul_update` folds: one 64-byte block of four 128-bit lanes.
#define TK_CRC32_CLMUL_MINIMUM_LENGTH 64

/// 1 when this process may call the carry-less-multiply fast path (x86-64 with PCLMULQDQ and
/// SSE4.1), else 0. The CPU is asked once; later calls return the cached answer.
int tk_crc32_clmul_available(void);

/// Asks the CPU again, without the cache: 1 when `__builtin_cpu_supports` reports both
/// "pclmul" and "sse4.1" (always 0 off x86-64). For tests that check the fast path was chosen.
int tk_crc32_cpu_supports_clmul(void);

/// Folds the longest prefix of `bytes[0 ..< length]` whose length is a multiple of 16 into
/// `*state` and returns how many bytes that was. `*state` is the inverted running remainder, as
/// zlib keeps it between calls (0xFFFFFFFF before the first byte; the checksum is its
/// complement). Returns 0 and leaves `*state` alone when `length` is below
/// `TK_CRC32_CLMUL_MINIMUM_LENGTH` or the fast path is unavailable, so it is always safe to call;
/// the caller finishes the remaining bytes (fewer than 16, or all of them) with a table.
/// `bytes` needs no particular alignment.
size_t tk_crc32_clmul_update(uint32_t *state, const void *bytes, size_t length);

#ifdef __cplusplus
}
#endif

#endif
