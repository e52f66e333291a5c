// SPDX-License-Identifier: Apache-2.0
/*
 * Shape pickers: the lengths (data, IV, tag, AAD, re-init messages, TLS
 * records) and splits drawn from a case's PRNG.  The order of the draws
 * is part of what a seed means: a printed seed replays only if it stays.
 */
#include "diff.h"

#include <stdlib.h>

size_t pick_data_len(struct rng *r)
{
	static const size_t small[] = { 0,  1,	2,  15,	 16,  17,  31,	 32,   33,
					63, 64, 65, 255, 256, 257, 1023, 1024, 1025 };
	static const size_t big[] = { 4095,  4096,  4097,  8191,  8192,	 8193,
				      16383, 16384, 16385, 32767, 32768, 32769 };
	size_t p = rng_below(r, 1000);

	if (p < 330)
		return rng_range(r, 0, 64);
	if (p < 430)
		return small[rng_below(r, sizeof(small) / sizeof(small[0]))];
	if (p < 730)
		return rng_range(r, 65, 2048);
	if (p < 840)
		return rng_range(r, 2049, 4094);
	if (p < 865)
		return big[rng_below(r, 3)];
	if (p < 957) {
		/* the engine window, denser at its small end */
		static const size_t e[] = { 12, 12, 13, 14 };
		size_t k = e[rng_below(r, 4)];

		return rng_range(r, (size_t)1 << k, ((size_t)1 << (k + 1)) - 1);
	}
	if (p < 990)
		return big[rng_below(r, sizeof(big) / sizeof(big[0]))];
	if (p < 997)
		return rng_range(r, 32770, 65535);
	return 65536;
}

size_t pick_ivlen(struct rng *r)
{
	static const size_t b[] = { 1, 8, 11, 13, 16, 32, 60, 64 };
	size_t p = rng_below(r, 100);

	if (p < 70)
		return 12;
	if (p < 80)
		return b[rng_below(r, sizeof(b) / sizeof(b[0]))];
	return rng_range(r, 1, MAX_IV);
}

size_t pick_taglen(struct rng *r)
{
	size_t p = rng_below(r, 100);

	if (p < 70)
		return 16;
	if (p < 97)
		return rng_range(r, 4, 15);
	return rng_range(r, 1, 3);
}

size_t pick_aadlen(struct rng *r)
{
	size_t p = rng_below(r, 100);

	if (p < 25)
		return 0;
	if (p < 50)
		return rng_range(r, 1, 32);
	if (p < 60)
		return rng_pct(r, 50) ? 13 : 5;
	if (p < 88)
		return rng_range(r, 33, ENGINE_AAD_MAX);
	return rng_range(r, ENGINE_AAD_MAX + 1, 600);
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

/* Split total into 1..MAX_CHUNKS pieces (zero-length pieces allowed). */
int split_len(struct rng *r, size_t total, size_t *chunks)
{
	size_t cuts[MAX_CHUNKS] = { 0 };
	int n;

	if (rng_pct(r, 55))
		n = 1;
	else if (rng_pct(r, 60))
		n = 2;
	else
		n = (int)rng_range(r, 3, MAX_CHUNKS);
	for (int i = 0; i < n - 1; i++) {
		cuts[i] = rng_range(r, 0, total);
		if (rng_pct(r, 30))
			cuts[i] &= ~(size_t)15;
	}
	qsort(cuts, (size_t)(n - 1), sizeof(cuts[0]), cmp_size);
	for (int i = 0; i < n; i++) {
		size_t lo = i == 0 ? 0 : cuts[i - 1];
		size_t hi = i == n - 1 ? total : cuts[i];

		chunks[i] = hi - lo;
	}
	return n;
}

void shape_chunks(struct harness *h, const size_t *c, int n)
{
	shape_add(h, "[");
	for (int i = 0; i < n; i++)
		shape_add(h, "%s%zu", i ? "+" : "", c[i]);
	shape_add(h, "]");
}

size_t pick_msg_len(struct rng *r)
{
	static const size_t b[] = { 0, 1, 16, 4095, 4096, 4097, 16384, 32768 };
	size_t p = rng_below(r, 100);

	if (p < 10)
		return b[rng_below(r, sizeof(b) / sizeof(b[0]))];
	if (p < 55)
		return rng_range(r, 0, 300);
	if (p < 72)
		return rng_range(r, 301, 4095);
	return rng_range(r, ENGINE_MIN, ENGINE_MAX);
}

size_t pick_tls_len(struct rng *r)
{
	static const size_t b[] = { 0, 1, 15, 16, 17, 4095, 4096, 4097, 16383, 16384 };
	size_t p = rng_below(r, 100);

	if (p < 10)
		return b[rng_below(r, sizeof(b) / sizeof(b[0]))];
	if (p < 50)
		return rng_range(r, 0, 512);
	if (p < 72)
		return rng_range(r, 513, 4095);
	return rng_range(r, 4096, 16384);
}
