/* SPDX-License-Identifier: Apache-2.0 */
/*
 * eip93-vecgen-skc: generate the large AES-CTR and AES-CBC vectors
 * (test/data/vectors/{ctr,cbc}-large-{engine,software}.txt.xz) in evp_test's
 * stanza format, computed by the Linux kernel's generic templates over its
 * generic AES, ctr(aes-generic) and cbc(aes-generic), through libkcapi -- an
 * implementation independent of OpenSSL, and spelled out so that the
 * simulated EIP93 driver (whose ctr(aes-eip93) and cbc(aes-eip93) become the
 * kernel's "ctr(aes)" and "cbc(aes)" once loaded) can never be the
 * reference.  Runs in the test guest (vecgen-guest.sh); the output is
 * checked in, and guest_harness_vectors regenerates and compares it.
 *
 *   eip93-vecgen-skc DIR
 *
 * writes DIR/ctr-large-engine.txt, ctr-large-software.txt,
 * cbc-large-engine.txt and cbc-large-software.txt.  Cases: whole-block
 * payloads in the engine window (4096, 16384, 16400, 32768) under every key
 * size; AES-CTR also with counters whose last 32 bits wrap inside the
 * message (the engine's counter has no carry there: eip93 cuts the request)
 * and one whose 128 bits all carry; payloads outside the window or not of
 * whole blocks (4080, 4097, 32784, 36864).  Each stanza has the IV the
 * context must report after it ("NextIV": CBC, the last ciphertext block;
 * CTR, the counter after the last block begun).  Keys and IVs come from a
 * fixed-seed splitmix64 stream, plaintexts are a cheap byte pattern.  Both
 * directions of a case are eligible for the engine or neither (whole
 * blocks, 4096..32768 bytes: docs/contract.md "Eligible messages"); each
 * file starts with "# eip93-engine-directions: N" and "# cases: N".
 */
#include "vecgen.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kcapi.h>

#define BLK 16

struct scase {
	size_t keylen, len;
	uint32_t ctr_low; /* CTR: 0, or the IV's last 32 bits (a wrap in the message) */
	int all_ones;	  /* CTR: the IV's first 120 bits set (a 128-bit carry) */
};

static const struct scase ctr_cases[] = {
	{ 16, 4096, 0, 0 },
	{ 24, 4096, 0, 0 },
	{ 32, 4096, 0, 0 },
	{ 16, 16384, 0, 0 },
	{ 24, 16384, 0, 0 },
	{ 32, 16384, 0, 0 },
	{ 16, 16400, 0, 0 },
	{ 24, 16400, 0, 0 },
	{ 32, 16400, 0, 0 },
	{ 16, 32768, 0, 0 },
	{ 24, 32768, 0, 0 },
	{ 32, 32768, 0, 0 },
	{ 16, 8192, UINT32_C(0xfffffff8), 0 },	/* the wrap after 8 blocks */
	{ 32, 32768, UINT32_C(0xffffff00), 0 }, /* after 256 of 2048 */
	{ 24, 4096, UINT32_C(0xfffffffc), 1 },	/* every bit carries */
	{ 16, 4080, 0, 0 },
	{ 24, 4097, UINT32_C(0xfffffff0), 0 },
	{ 32, 32784, 0, 0 },
	{ 16, 36864, 0, 0 },
};

static const struct scase cbc_cases[] = {
	{ 16, 4096, 0, 0 },  { 24, 4096, 0, 0 },  { 32, 4096, 0, 0 },  { 16, 16384, 0, 0 },
	{ 24, 16384, 0, 0 }, { 32, 16384, 0, 0 }, { 16, 16400, 0, 0 }, { 24, 16400, 0, 0 },
	{ 32, 16400, 0, 0 }, { 16, 32768, 0, 0 }, { 24, 32768, 0, 0 }, { 32, 32768, 0, 0 },
	{ 24, 4080, 0, 0 },  { 32, 32784, 0, 0 }, { 16, 36864, 0, 0 },
};

static int eligible(const struct scase *c)
{
	return c->len % BLK == 0 && c->len >= 4096 && c->len <= 32768;
}

/* One request to the kernel (@alg, @enc), @len bytes; 0 or a negative errno. */
static int kernel(const char *alg, int enc, const unsigned char *key, size_t keylen,
		  const unsigned char *iv, const unsigned char *in, unsigned char *out, size_t len)
{
	struct kcapi_handle *kh;
	ssize_t n;
	int rc = kcapi_cipher_init(&kh, alg, 0);

	if (rc < 0)
		return rc;
	rc = kcapi_cipher_setkey(kh, key, (uint32_t)keylen);
	if (rc >= 0) {
		n = enc ? kcapi_cipher_encrypt(kh, in, len, iv, out, len, KCAPI_ACCESS_HEURISTIC)
			: kcapi_cipher_decrypt(kh, in, len, iv, out, len, KCAPI_ACCESS_HEURISTIC);
		rc = n < 0 ? (int)n : (size_t)n == len ? 0 : -EMSGSIZE;
	}
	kcapi_cipher_destroy(kh);
	return rc;
}

/* @iv plus @blocks, a 128-bit big-endian counter. */
static void ctr_add(unsigned char iv[BLK], size_t blocks)
{
	for (int i = BLK - 1; i >= 0 && blocks != 0; i--) {
		size_t s = iv[i] + (blocks & 0xff);

		iv[i] = (unsigned char)s;
		blocks = (blocks >> 8) + (s >> 8);
	}
}

static int emit(FILE *f, const char *alg, int cbc, const struct scase *c, uint64_t seed)
{
	uint64_t s = seed;
	unsigned char key[32], iv[BLK], next[BLK];
	unsigned char *pt = xmalloc(c->len), *ct = xmalloc(c->len), *back = xmalloc(c->len);
	int rc;

	fill_random(&s, key, c->keylen);
	fill_random(&s, iv, BLK);
	if (c->all_ones)
		memset(iv, 0xff, BLK - 4);
	if (c->ctr_low != 0) {
		for (int i = 0; i < 4; i++)
			iv[BLK - 1 - i] = (unsigned char)(c->ctr_low >> (8 * i));
	}
	for (size_t i = 0; i < c->len; i++)
		pt[i] = (unsigned char)((i ^ (i >> 8) ^ seed) & 0xff);
	rc = kernel(alg, 1, key, c->keylen, iv, pt, ct, c->len);
	if (rc == 0)
		rc = kernel(alg, 0, key, c->keylen, iv, ct, back, c->len);
	if (rc == 0 && memcmp(back, pt, c->len) != 0)
		rc = -EPROTO;
	if (rc != 0) {
		fprintf(stderr, "eip93-vecgen-skc: kernel %s failed (key %zu, len %zu): %s\n", alg,
			c->keylen, c->len, strerror(-rc));
	} else {
		memcpy(next, cbc ? ct + c->len - BLK : iv, BLK);
		if (!cbc)
			ctr_add(next, (c->len + BLK - 1) / BLK);
		fprintf(f, "# %zu-byte payload%s%s\n", c->len,
			c->all_ones  ? ", the counter's 128 bits carry"
			: c->ctr_low ? ", the counter's last 32 bits wrap"
				     : "",
			eligible(c) ? "" : ", software only");
		fprintf(f, "Cipher = aes-%zu-%s\n", c->keylen * 8, cbc ? "cbc" : "ctr");
		put_hex(f, "Key", key, c->keylen);
		put_hex(f, "IV", iv, BLK);
		put_hex(f, "Plaintext", pt, c->len);
		put_hex(f, "Ciphertext", ct, c->len);
		put_hex(f, "NextIV", next, BLK);
		fputc('\n', f);
	}
	free(pt);
	free(ct);
	free(back);
	return rc;
}

/* One mode's two files: DIR/<mode>-large-{engine,software}.txt; prints their counts. */
static int write_mode(const char *dir, int cbc, const struct scase *cases, size_t n, uint64_t seed0)
{
	const char *mode = cbc ? "cbc" : "ctr";
	char alg[32], path[2][4096];
	size_t ncase[2] = { 0, 0 };
	FILE *out[2];

	snprintf(alg, sizeof(alg), "%s(aes-generic)", mode);
	for (size_t i = 0; i < n; i++)
		ncase[eligible(&cases[i]) ? 0 : 1]++;
	for (int k = 0; k < 2; k++) {
		snprintf(path[k], sizeof(path[k]), "%s/%s-large-%s.txt", dir, mode,
			 k ? "software" : "engine");
		out[k] = fopen(path[k], "w");
		if (out[k] == NULL) {
			perror(path[k]);
			return 1;
		}
		fprintf(out[k],
			"# SPDX-License-Identifier: Apache-2.0\n"
			"# Generated by eip93-vecgen-skc (test/harness/vecgen_skc.c) with the "
			"kernel's\n"
			"# %s through libkcapi; do not edit.\n"
			"# eip93-engine-directions: %zu\n"
			"# cases: %zu\n\n",
			alg, k ? 0 : 2 * ncase[0], ncase[k]);
	}
	for (size_t i = 0; i < n; i++)
		if (emit(out[eligible(&cases[i]) ? 0 : 1], alg, cbc, &cases[i], seed0 * (i + 1)) !=
		    0)
			return 1;
	for (int k = 0; k < 2; k++) {
		if (fclose(out[k]) != 0) {
			perror(path[k]);
			return 1;
		}
	}
	printf("eip93-vecgen-skc: %s: %zu cases (%zu engine-eligible in %zu directions, %zu "
	       "software-only) via %s\n",
	       mode, n, ncase[0], 2 * ncase[0], ncase[1], alg);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: eip93-vecgen-skc DIR\n");
		return 2;
	}
	if (write_mode(argv[1], 0, ctr_cases, sizeof(ctr_cases) / sizeof(ctr_cases[0]),
		       UINT64_C(0xc7e93)) != 0 ||
	    write_mode(argv[1], 1, cbc_cases, sizeof(cbc_cases) / sizeof(cbc_cases[0]),
		       UINT64_C(0xcbc93)) != 0)
		return 1;
	return 0;
}
