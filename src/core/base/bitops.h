/*
 * bitops.h - bit counting on 64-bit words, for node sets and the
 * allocators that walk them a word at a time.
 *
 * The build assumes no particular CPU: without a popcount instruction
 * (x86-64 before -mpopcnt) __builtin_popcountll is a call into libgcc,
 * slower than the branch-free SWAR sum below, so the builtin is used only
 * where the compiler turns it into an instruction.  __builtin_ctzll is an
 * instruction on every target GCC and Clang support.  The portable forms
 * are always defined so a test can check them against the builtins;
 * defining TP_BITOPS_PORTABLE before the first include selects them.
 */
#ifndef TP_BITOPS_H
#define TP_BITOPS_H

#include <stdint.h>

/* Bits set in x, by summing bit pairs, nibbles, then bytes. */
static inline int tp_popcount64_portable(uint64_t x)
{
	x = x - ((x >> 1) & 0x5555555555555555ull);
	x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
	return (int)((x * 0x0101010101010101ull) >> 56);
}

/* Index of the lowest set bit of x != 0 (de Bruijn: the isolated lowest
 * bit times the sequence puts a unique 6-bit pattern in the top bits). */
static inline int tp_ctz64_portable(uint64_t x)
{
	static const unsigned char pos[64] = {
		0, 1, 2, 53, 3, 7, 54, 27, 4, 38, 41, 8, 34, 55, 48, 28,
		62, 5, 39, 46, 44, 42, 22, 9, 24, 35, 59, 56, 49, 18, 29, 11,
		63, 52, 6, 26, 37, 40, 33, 47, 61, 45, 43, 21, 23, 58, 17, 10,
		51, 25, 36, 32, 60, 20, 57, 16, 50, 31, 19, 15, 30, 14, 13, 12,
	};
	return pos[((x & -x) * 0x022fdd63cc95386dull) >> 58];
}

#if defined(__GNUC__) && !defined(TP_BITOPS_PORTABLE)
#if defined(__POPCNT__) || defined(__aarch64__) || defined(__powerpc64__)
#define TP_POPCOUNT_BUILTIN 1
#endif
#define TP_CTZ_BUILTIN 1
#endif

static inline int tp_popcount64(uint64_t x)
{
#ifdef TP_POPCOUNT_BUILTIN
	return __builtin_popcountll(x);
#else
	return tp_popcount64_portable(x);
#endif
}

/* x must not be 0. */
static inline int tp_ctz64(uint64_t x)
{
#ifdef TP_CTZ_BUILTIN
	return __builtin_ctzll(x);
#else
	return tp_ctz64_portable(x);
#endif
}

/* The lowest k set bits of x (k <= popcount(x)). */
static inline uint64_t tp_lowest_bits64(uint64_t x, int k)
{
	uint64_t kept = 0;
	for (; k > 0; k--) {
		uint64_t low = x & -x;
		kept |= low;
		x ^= low;
	}
	return kept;
}

#endif
