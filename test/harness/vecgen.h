/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the vector generators share (vecgen.c: AES-GCM; vecgen_skc.c:
 * AES-CTR and AES-CBC): the fixed-seed splitmix64 stream, allocation, and
 * a stanza line of hex in evp_test's format.
 */
#ifndef EIP93_VECGEN_H
#define EIP93_VECGEN_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static inline uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static inline void fill_random(uint64_t *s, unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)(splitmix64(s) >> 56);
}

static inline void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (p == NULL) {
		fprintf(stderr, "eip93-vecgen: out of memory\n");
		exit(2);
	}
	return p;
}

static inline void put_hex(FILE *f, const char *name, const unsigned char *p, size_t n)
{
	static const char digits[] = "0123456789abcdef";

	fprintf(f, "%s =%s", name, n ? " " : "");
	for (size_t i = 0; i < n; i++) {
		fputc(digits[p[i] >> 4], f);
		fputc(digits[p[i] & 15], f);
	}
	fputc('\n', f);
}

#endif /* EIP93_VECGEN_H */
