// SPDX-License-Identifier: Apache-2.0
/*
 * The composition self-test the gate asks (gcm.h): on this libcrypto, does
 * the CTR-only composition's software half (route.c) give what GCM128
 * itself computes?  With a stand-in block cipher (any function of the
 * counter block will do: GCM128 is the thing under test), a message is
 * sealed by GCM128 alone; the route then hashes that ciphertext's whole
 * blocks, as the engine's, and must produce the same partial block and tag,
 * and open it again.  The message spans more than one of the route's
 * chunks, the ciphertext it hashes must not be written, and the cipher is
 * never asked while the route hashes (its zero keystream: on a small-footprint
 * build GCM128 asks the block function for every hashed block, and real
 * keystream would leave plaintext in the route's scratch buffer).
 */
#include "gcm.h"
#include "route.h"

#include <errno.h>
#include <string.h>

#include <openssl/crypto.h>

#include "../../engine/shape.h"

#define BLK 16
#define LEN (2 * 3 * 1024 + 3 * BLK + 5)

/*
 * The stand-in cipher: a fixed mix of the block (no key: the tables are what
 * is tested); @key, when not NULL, counts its calls.
 */
static void probe_block(const unsigned char in[BLK], unsigned char out[BLK], const void *key)
{
	void *calls;

	memcpy(&calls, &key, sizeof(calls)); /* GCM128 hands the key back as const */
	if (calls != NULL)
		(*(unsigned int *)calls)++;
	for (int i = 0; i < BLK; i++)
		out[i] = (unsigned char)((in[i] ^ 0x5a) + in[(i + 5) % BLK] * 7 + i);
}

/* GCM128 alone: @ct and @tag of @pt under the stand-in cipher; 0, -ENOMEM or -ENOTSUP. */
static int reference(const unsigned char *iv, const unsigned char *aad, size_t aadlen,
		     const unsigned char *pt, unsigned char *ct, unsigned char tag[BLK])
{
	GCM128_CONTEXT *g = CRYPTO_gcm128_new(NULL, probe_block);
	int r;

	if (g == NULL)
		return -ENOMEM;
	CRYPTO_gcm128_setiv(g, iv, EIP93_ENGINE_IVLEN);
	r = CRYPTO_gcm128_aad(g, aad, aadlen) == 0 && CRYPTO_gcm128_encrypt(g, pt, ct, LEN) == 0
		    ? 0
		    : -ENOTSUP;
	CRYPTO_gcm128_tag(g, tag, BLK);
	CRYPTO_gcm128_release(g);
	return r;
}

/*
 * The route over @ct: the partial block into @last (sealing from @pt,
 * opening from @ct) and the tag; 1 when it ran and the cipher (whose calls
 * @calls counts) was not asked while the whole blocks were hashed.
 */
static int route(struct eip93_gcm_route *r, const unsigned int *calls, int enc,
		 const unsigned char *iv, const unsigned char *aad, size_t aadlen,
		 const unsigned char *pt, const unsigned char *ct, unsigned char *last,
		 unsigned char tag[BLK])
{
	size_t whole = LEN & ~(size_t)(BLK - 1);
	unsigned int before;

	if (eip93_route_start(r, iv, EIP93_ENGINE_IVLEN, aad, aadlen) != 0)
		return 0;
	before = *calls;
	if (eip93_route_hash(r, ct, whole) != 0 || *calls != before ||
	    eip93_route_last(r, enc, (enc ? pt : ct) + whole, last, LEN - whole) != 0)
		return 0;
	CRYPTO_gcm128_tag(r->g, tag, BLK);
	return 1;
}

int eip93_compose_selftest(void)
{
	static const unsigned char iv[EIP93_ENGINE_IVLEN] = { 1, 2, 3 };
	static const unsigned char aad[13] = { 0x17, 3, 3 };
	unsigned char *buf = OPENSSL_malloc(3 * (size_t)LEN), *pt = buf, *ct, *seen;
	unsigned char tag[BLK], rtag[BLK], last[BLK];
	size_t whole = LEN & ~(size_t)(BLK - 1);
	struct eip93_gcm_route r = { NULL, NULL, NULL, 0 };
	unsigned int calls = 0;
	int rc, ok;

	if (buf == NULL)
		return -ENOMEM;
	ct = buf + LEN;
	seen = ct + LEN;
	for (size_t i = 0; i < LEN; i++)
		pt[i] = (unsigned char)(i * 31 + (i >> 8));
	rc = reference(iv, aad, sizeof(aad), pt, ct, tag);
	if (rc == 0)
		rc = eip93_route_init(&r, probe_block, &calls);
	if (rc != 0) {
		eip93_route_free(&r);
		OPENSSL_free(buf);
		return rc;
	}
	memcpy(seen, ct, LEN);
	ok = route(&r, &calls, 1, iv, aad, sizeof(aad), pt, ct, last, rtag) &&
	     memcmp(last, ct + whole, LEN - whole) == 0 && memcmp(rtag, tag, BLK) == 0;
	ok = ok && route(&r, &calls, 0, iv, aad, sizeof(aad), pt, ct, last, rtag) &&
	     memcmp(last, pt + whole, LEN - whole) == 0 && memcmp(rtag, tag, BLK) == 0;
	ok = ok && memcmp(seen, ct, LEN) == 0;
	eip93_route_free(&r);
	OPENSSL_free(buf); /* the stand-in cipher's data: nothing secret */
	return ok ? 0 : -ENOTSUP;
}
