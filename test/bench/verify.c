// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-bench, section 5: what the integrity check of every engine result
 * costs: eip93 checked vs unchecked, and the check's own work timed alone.
 */
#include "bench.h"

#include <stdio.h>
#include <string.h>

/* ---- section 5: the integrity check's cost -------------------------------- */

#define KS_MAX 72

struct ks_cost {
	EVP_CIPHER_CTX *ecb;
	unsigned char iv[IVLEN], a[MAX_PAYLOAD], b[MAX_PAYLOAD];
	size_t len, idx[KS_MAX], n;
};

/* The blocks alg/verify.c samples: first, last, one random, both sides of page edges. */
static void ks_add(struct ks_cost *k, size_t blk)
{
	for (size_t i = 0; i < k->n; i++)
		if (k->idx[i] == blk)
			return;
	if (k->n < KS_MAX)
		k->idx[k->n++] = blk;
}

static void ks_blocks(struct ks_cost *k, size_t aadlen, size_t boff)
{
	size_t nb = (k->len + 15) / 16,
	       firsts[2] = { (4096 - boff) % 4096, (4096 - aadlen % 4096) % 4096 };

	k->n = 0;
	ks_add(k, 0);
	ks_add(k, nb - 1);
	ks_add(k, nb / 2);
	for (int f = 0; f < 2; f++)
		for (size_t q = firsts[f]; q < k->len; q += 4096)
			if (q > 0) {
				ks_add(k, (q - 1) / 16);
				ks_add(k, q / 16);
			}
}

/* What the provider does per engine message to check it: AES of the counter blocks, compare. */
static int ks_cost_op(void *vs)
{
	struct ks_cost *k = vs;
	unsigned char ctr[KS_MAX * 16], ks[KS_MAX * 16], diff = 0;
	int outl = 0;

	for (size_t i = 0; i < k->n; i++) {
		uint32_t c = (uint32_t)(2 + k->idx[i]);

		memcpy(ctr + 16 * i, k->iv, IVLEN);
		ctr[16 * i + 12] = (unsigned char)(c >> 24);
		ctr[16 * i + 13] = (unsigned char)(c >> 16);
		ctr[16 * i + 14] = (unsigned char)(c >> 8);
		ctr[16 * i + 15] = (unsigned char)c;
	}
	if (!EVP_EncryptUpdate(k->ecb, ks, &outl, ctr, (int)(16 * k->n)))
		return -1;
	for (size_t i = 0; i < k->n; i++)
		for (size_t j = 0; j < 16 && k->idx[i] * 16 + j < k->len; j++)
			diff |= (unsigned char)(k->a[k->idx[i] * 16 + j] ^
						k->b[k->idx[i] * 16 + j] ^ ks[16 * i + j]);
	k->iv[0] ^= diff; /* keeps the comparison from being optimised away */
	return 0;
}

static int ks_cost_us(size_t len, const unsigned char *buf, double *us, size_t *blocks)
{
	static struct ks_cost k;
	EVP_CIPHER *c = EVP_CIPHER_fetch(NULL,
					 B.keylen == 16	  ? "AES-128-ECB"
					 : B.keylen == 24 ? "AES-192-ECB"
							  : "AES-256-ECB",
					 "provider=default");
	long n = B.fixed_iters > 0 ? B.fixed_iters * 50 : 20000;
	double t0;
	int rc = -1;

	memset(&k, 0, sizeof(k));
	k.len = len;
	/* The page offset of the record buffer the engine writes into. */
	ks_blocks(&k, TLS13_AAD, (uintptr_t)buf % 4096);
	*blocks = k.n;
	k.ecb = EVP_CIPHER_CTX_new();
	if (c != NULL && k.ecb != NULL && EVP_EncryptInit_ex2(k.ecb, c, B.key, NULL, NULL)) {
		t0 = now_s();
		for (long i = 0; i < n; i++)
			if (ks_cost_op(&k) != 0)
				goto out;
		*us = (now_s() - t0) * 1e6 / (double)n;
		rc = 0;
	}
out:
	EVP_CIPHER_CTX_free(k.ecb);
	EVP_CIPHER_free(c);
	return rc;
}

void section_verify(void)
{
	static const size_t sizes[] = { 4096, 16384, 32768 };
	static unsigned char ref[MAX_PAYLOAD + TAGLEN];
	char sz[32];

	printf("\n5. The integrity check of every engine result (TLS 1.3 records)\n");
	printf("   checked / unchecked: eip93 with and without the check (two provider "
	       "instances),\n"
	       "   interleaved; check alone: its AES of the sampled counter blocks (first, last, "
	       "one\n"
	       "   random, both sides of page edges) + compare, timed on its own, as a share of "
	       "the\n"
	       "   checked message time (target: < 1%% at 4 KiB)\n\n");
	printf("   %-3s %7s | %11s %11s | %7s (%s) | %6s %8s %7s\n", "dir", "size", "checked us",
	       "unchecked us", "ratio", "min..max", "blocks", "check us", "share");
	for (int enc = 1; enc >= 0; enc--)
		for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
			struct contender c[2];
			struct evp13 e[2];
			struct result r;
			double kus = 0;
			size_t len = sizes[i], blocks = 0;
			int ok;

			if (reference13(len, base_nonce, ref) != 0 ||
			    evp13_open(&e[0], B.c_eip93, enc, len, base_nonce, tls13_aad, ref) != 0)
				continue;
			if (evp13_open(&e[1], B.c_eip93_nv, enc, len, base_nonce, tls13_aad, ref) !=
			    0) {
				evp13_close(&e[0]);
				continue;
			}
			for (int j = 0; j < 2; j++) {
				c[j].prep = evp13_prep;
				c[j].op = evp13_op;
				c[j].st = &e[j];
				c[j].solo = 0;
			}
			ok = measure(c, 2, B.rounds, B.batch_s, &r) == 0 &&
			     ks_cost_us(len, e[0].buf, &kus, &blocks) == 0;
			if (ok)
				printf("   %-3s %7s | %11.1f %11.1f | %7.3f (%.3f..%.3f) | %6zu "
				       "%8.2f "
				       "%6.2f%%\n",
				       enc ? "enc" : "dec", size_str(len, sz, sizeof(sz)), r.us[0],
				       r.us[1], r.ratio, r.rmin, r.rmax, blocks, kus,
				       100.0 * kus / r.us[0]);
			else
				fail("integrity cost %s %zu", enc ? "enc" : "dec", len);
			fflush(stdout);
			evp13_close(&e[0]);
			evp13_close(&e[1]);
		}
}
