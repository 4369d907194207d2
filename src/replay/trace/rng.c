/* rng.c - see rng.h. */
#include "trace/rng.h"

#include <math.h>

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

void tp_rng_seed(tp_rng *r, uint64_t seed)
{
	uint64_t x = seed;
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&x);
}

uint64_t tp_rng_next(tp_rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

double tp_rng_uniform(tp_rng *r)
{
	return (double)(tp_rng_next(r) >> 11) * 0x1.0p-53;
}

double tp_rng_range(tp_rng *r, double lo, double hi)
{
	return lo + (hi - lo) * tp_rng_uniform(r);
}

double tp_rng_normal(tp_rng *r)
{
	/* u1 in (0,1] keeps log() finite. */
	double u1 = 1.0 - tp_rng_uniform(r);
	double u2 = tp_rng_uniform(r);
	return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

uint64_t tp_rng_below(tp_rng *r, uint64_t n)
{
	if (n == 0)
		return 0;
	/* Reject the top partial block of 2^64 so each residue is equally
	 * likely; threshold = 2^64 mod n. */
	uint64_t threshold = (0 - n) % n;
	for (;;) {
		uint64_t x = tp_rng_next(r);
		if (x >= threshold)
			return x % n;
	}
}
