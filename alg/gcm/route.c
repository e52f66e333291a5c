// SPDX-License-Identifier: Apache-2.0
/*
 * The CTR-only composition's software half (compose.c) over libcrypto's
 * exported GCM128 API: GHASH of the AAD and of the ciphertext, the tag mask
 * E_K(J0) and the last partial block.
 *
 * The engine computes the keystream of the payload's whole blocks, so
 * GCM128 must only hash them.  It is asked to decrypt them, which hashes its
 * input (the ciphertext), into a scratch buffer the route never reads.  Its
 * key pointer is the route: the block function returns sixteen zero bytes
 * while r->zero is set (not nothing: GCM128 XORs whatever its keystream
 * buffer holds, which would be the previous block's keystream), and the
 * stream function does nothing.  Whichever of the two a build of GCM128
 * uses for whole blocks (a default build the stream, an
 * OPENSSL_SMALL_FOOTPRINT build the block function), the hash is GCM's and
 * nothing but ciphertext is written; the route does not depend on how a
 * build treats the stream function.  The caller's buffers are only read
 * (an opened message's ciphertext is the caller's const input, a sealed
 * one's is released as it is).  GCM128's loops over these calls read bytes
 * and call the stream function (a default build) or read and write bytes
 * only (a small-footprint build), so no buffer needs word alignment
 * (strict-alignment CPUs such as MIPS; a TLS record's payload starts at
 * offset 13).  H, E_K(J0) and the partial last block take the key's real
 * AES (r->zero clear).
 */
#include "route.h"

#include <errno.h>
#include <string.h>

#define BLK 16
/* The scratch output's size: GCM128's GHASH chunk (3 KiB), a bulk GHASH a call. */
#define CHUNK ((size_t)3 * 1024)

/* GCM128 hands its key back as const void *: the route, without the const. */
static struct eip93_gcm_route *route_of(const void *key)
{
	void *r;

	memcpy(&r, &key, sizeof(r));
	return r;
}

static void route_block(const unsigned char in[BLK], unsigned char out[BLK], const void *key)
{
	const struct eip93_gcm_route *r = route_of(key);

	if (r->zero)
		memset(out, 0, BLK);
	else
		r->aes(in, out, r->aes_key);
}

/* The stream function: the whole blocks' output is never read, so nothing to compute. */
static void route_stream(const unsigned char *in, unsigned char *out, size_t blocks,
			 const void *key, const unsigned char ivec[BLK])
{
	(void)in;
	(void)out;
	(void)blocks;
	(void)key;
	(void)ivec;
}

int eip93_route_init(struct eip93_gcm_route *r, block128_f aes, const void *aes_key)
{
	eip93_route_free(r);
	r->aes = aes;
	r->aes_key = aes_key;
	r->zero = 0;
	r->g = CRYPTO_gcm128_new(r, route_block);
	return r->g != NULL ? 0 : -ENOMEM;
}

void eip93_route_free(struct eip93_gcm_route *r)
{
	CRYPTO_gcm128_release(r->g);
	r->g = NULL;
}

int eip93_route_start(struct eip93_gcm_route *r, const unsigned char *iv, size_t ivlen,
		      const unsigned char *aad, size_t aadlen)
{
	if (r->g == NULL)
		return -ENOMEM;
	CRYPTO_gcm128_setiv(r->g, iv, ivlen);
	return aadlen == 0 || CRYPTO_gcm128_aad(r->g, aad, aadlen) == 0 ? 0 : -EINVAL;
}

int eip93_route_hash(struct eip93_gcm_route *r, const unsigned char *ct, size_t whole)
{
	unsigned char sink[CHUNK]; /* never read; at most ciphertext XOR zero is written */
	size_t off, n;
	int rc = 0;

	r->zero = 1;
	for (off = 0; off < whole && rc == 0; off += n) {
		n = whole - off < CHUNK ? whole - off : CHUNK;
		if (CRYPTO_gcm128_decrypt_ctr32(r->g, ct + off, sink, n, route_stream) != 0)
			rc = -EINVAL;
	}
	r->zero = 0;
	return rc;
}

int eip93_route_last(struct eip93_gcm_route *r, int enc, const unsigned char *in,
		     unsigned char *out, size_t n)
{
	int rc = enc ? CRYPTO_gcm128_encrypt(r->g, in, out, n)
		     : CRYPTO_gcm128_decrypt(r->g, in, out, n);

	return rc == 0 ? 0 : -EINVAL;
}
