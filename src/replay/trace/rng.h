/*
 * rng.h - seeded, deterministic random numbers for generators and
 * estimate-error models.
 *
 * xoshiro256** (Blackman & Vigna) with its state filled from the seed by
 * splitmix64, so any 64-bit seed (including 0) gives a well-mixed state.
 * The same seed gives the same sequence on every platform: experiments are
 * reproducible from the seed alone, never from the C library's rand().
 */
#ifndef TP_RNG_H
#define TP_RNG_H

#include <stdint.h>

typedef struct tp_rng {
	uint64_t s[4];
} tp_rng;

void     tp_rng_seed(tp_rng *r, uint64_t seed);
uint64_t tp_rng_next(tp_rng *r);
/* Uniform on [0,1) with 53 random bits. */
double   tp_rng_uniform(tp_rng *r);
/* Uniform on [lo,hi) (lo when lo == hi). */
double   tp_rng_range(tp_rng *r, double lo, double hi);
/* Standard normal (Box-Muller); consumes exactly two tp_rng_next() draws,
 * so the stream position after k normals does not depend on their values. */
double   tp_rng_normal(tp_rng *r);
/* Uniform integer in [0,n), without modulo bias; 0 when n == 0. */
uint64_t tp_rng_below(tp_rng *r, uint64_t n);

#endif
