// SPDX-License-Identifier: Apache-2.0
/*
 * The integrity check of an AES-CTR or AES-CBC engine result, on the rules
 * AES-GCM's follows (../verify.c, docs/design.md "Integrity: the buffers
 * the engine touches"): the engine wrote into a buffer that held a copy of
 * its input, so
 *   1. every whole block must differ from its input (a block skipped or
 *      left as it was is caught on every message: ../verify.c's
 *      eip93_verify_written());
 *   2. some blocks are recomputed with the key's own software AES: the
 *      first and last EDGE bytes, EDGE bytes on both sides of every page
 *      boundary of every buffer the engine read or wrote (the phases the
 *      backend reported), and one block chosen at random; every block of a
 *      short message.
 * A block i is recomputed with one AES encryption, whatever the mode and
 * direction (a = the engine's input, b = its output, c_-1 = the IV):
 *   CTR:              E(IV + i)               = a_i XOR b_i
 *   CBC encryption:   E(a_i XOR b_(i-1))      = b_i
 *   CBC decryption:   E(b_i XOR a_(i-1))      = a_i   (p_i = D(c_i) XOR c_(i-1))
 * All in one AES-ECB call.
 */
#include "skc_ctx.h"
#include "../verify.h"

#include <errno.h>
#include <string.h>

#include <openssl/crypto.h>

#define BLK EIP93_SKC_BLK
#define PAGE EIP93_ENGINE_PAGE
#define EDGE 64 /* a cache line of the Cortex-A53 */
#define EDGE_BLKS ((size_t)EDGE / BLK)
#define NPAGES ((size_t)EIP93_ROUTE_MAX_SIZE_CEIL / PAGE)
/* The most blocks one message checks: head, tail, a window per boundary, one random. */
#define MAXPICK (2 * EDGE_BLKS + (size_t)EIP93_ENGINE_MAX_PHASES * NPAGES * (2 * EDGE_BLKS + 1) + 1)
#define SHORT ((size_t)4 * EDGE_BLKS) /* below this many blocks, every one */

/* Block @i once into @pick (@n so far), if it is in the message (@nb blocks). */
static void pick_one(size_t *pick, size_t *n, size_t nb, size_t i)
{
	if (i < nb && *n < MAXPICK)
		pick[(*n)++] = i;
}

/* The blocks checked (duplicates cost an AES block each, nothing else). */
static size_t pick_blocks(struct eip93_cctx *c, const struct eip93_engine_pages *pg,
			  const unsigned char *b, size_t nb, size_t *pick)
{
	size_t n = 0;

	if (nb < SHORT) {
		for (size_t i = 0; i < nb; i++)
			pick[n++] = i;
		return n;
	}
	for (size_t i = 0; i < EDGE_BLKS; i++) {
		pick_one(pick, &n, nb, i);
		pick_one(pick, &n, nb, nb - EDGE_BLKS + i);
	}
	for (unsigned int j = 0; j < (pg != NULL && pg->n > 0 ? pg->n : 1); j++) {
		/* no phase reported: the output buffer's own pages */
		size_t q = pg != NULL && pg->n > 0 ? pg->q[j] : PAGE - (uintptr_t)b % PAGE;

		for (q = q == 0 ? PAGE : q; q < nb * BLK; q += PAGE) {
			size_t s = q < EDGE ? 0 : (q - EDGE) / BLK, e = (q + EDGE - 1) / BLK;

			for (size_t i = s; i <= e; i++)
				pick_one(pick, &n, nb, i);
		}
	}
	pick_one(pick, &n, nb, 1 + (size_t)(eip93_verify_rand(c) % (nb - 2)));
	return n;
}

int eip93_skc_check(struct eip93_cctx *c, int cbc, int enc, const unsigned char *iv,
		    const struct eip93_engine_pages *pg, const unsigned char *a,
		    const unsigned char *b, size_t len)
{
	unsigned char(*in)[BLK], (*want)[BLK];
	size_t pick[MAXPICK], nb = len / BLK, n;
	int r, got;

	if (len == 0 || !c->env->verify)
		return 0;
	if (c->key.ecb == NULL || len % BLK != 0 || len > EIP93_ROUTE_MAX_SIZE_CEIL)
		return -ENOMEM;
	r = eip93_verify_written(a, b, len);
	if (r != 0)
		return r;
	n = pick_blocks(c, pg, b, nb, pick);
	in = OPENSSL_malloc(2 * n * BLK);
	if (in == NULL)
		return -ENOMEM;
	want = in + n;
	for (size_t k = 0; k < n; k++) {
		size_t i = pick[k];
		const unsigned char *prev;

		if (!cbc) {
			memcpy(in[k], iv, BLK);
			for (size_t carry = i, j = BLK; carry != 0 && j-- > 0;) { /* IV + i */
				carry += in[k][j];
				in[k][j] = (unsigned char)carry;
				carry >>= 8;
			}
			for (size_t j = 0; j < BLK; j++)
				want[k][j] = (unsigned char)(a[i * BLK + j] ^ b[i * BLK + j]);
			continue;
		}
		prev = i == 0 ? iv : (enc ? b : a) + (i - 1) * BLK;
		for (size_t j = 0; j < BLK; j++)
			in[k][j] = (unsigned char)((enc ? a : b)[i * BLK + j] ^ prev[j]);
		memcpy(want[k], (enc ? b : a) + i * BLK, BLK);
	}
	if (!EVP_EncryptUpdate(c->key.ecb, in[0], &got, in[0], (int)(n * BLK)) ||
	    got != (int)(n * BLK))
		r = -ENOMEM;
	else
		r = CRYPTO_memcmp(in, want, n * BLK) == 0 ? 0 : -EBADMSG;
	OPENSSL_clear_free(in, 2 * n * BLK);
	return r;
}
