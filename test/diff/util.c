// SPDX-License-Identifier: Apache-2.0
/*
 * Small utilities of eip93-diff: allocation that never fails, byte order,
 * the monotonic clock, and the seeded PRNG (splitmix64 seeding a
 * xoshiro256** state per case) every case draws its shape from.
 */
#include "diff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Zeroed, so that no output ever depends on uninitialised memory. */
void *xmalloc(size_t n)
{
	void *p = calloc(1, n ? n : 1);

	if (p == NULL) {
		fputs("eip93-diff: out of memory\n", stderr);
		exit(2);
	}
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (q == NULL) {
		fputs("eip93-diff: out of memory\n", stderr);
		exit(2);
	}
	return q;
}

void copy_bytes(void *dst, const void *src, size_t n)
{
	if (n != 0)
		memcpy(dst, src, n);
}

void *xmemdup(const void *src, size_t n)
{
	void *p = xmalloc(n);

	copy_bytes(p, src, n);
	return p;
}

void put_be16(unsigned char *p, size_t v)
{
	p[0] = (unsigned char)(v >> 8);
	p[1] = (unsigned char)v;
}

uint64_t get_be64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = (v << 8) | p[i];
	return v;
}

void seq_inc(unsigned char *seq)
{
	for (int i = 7; i >= 0; i--)
		if (++seq[i] != 0)
			break;
}

double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ------------------------------------------------------------------ */
/* Seeded PRNG: splitmix64 seeding a xoshiro256** state per case        */
/* ------------------------------------------------------------------ */

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void rng_seed(struct rng *r, uint64_t seed, uint64_t stream)
{
	uint64_t x = seed ^ (0xd1342543de82ef95ULL * (stream + 1));

	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&x);
}

static uint64_t rotl64(uint64_t v, int k)
{
	return (v << k) | (v >> (64 - k));
}

static uint64_t rng_u64(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t out = rotl64(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl64(s[3], 45);
	return out;
}

size_t rng_below(struct rng *r, size_t n)
{
	return n == 0 ? 0 : (size_t)(rng_u64(r) % n);
}

size_t rng_range(struct rng *r, size_t lo, size_t hi)
{
	return lo + rng_below(r, hi - lo + 1);
}

int rng_pct(struct rng *r, unsigned int pct)
{
	return rng_below(r, 100) < pct;
}

void rng_fill(struct rng *r, unsigned char *p, size_t n)
{
	while (n > 0) {
		uint64_t v = rng_u64(r);
		size_t k = n < 8 ? n : 8;

		memcpy(p, &v, k);
		p += k;
		n -= k;
	}
}

unsigned char rng_nonzero_byte(struct rng *r)
{
	return (unsigned char)rng_range(r, 1, 255);
}
