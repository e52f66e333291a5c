// SPDX-License-Identifier: Apache-2.0
/*
 * The raw loops' GCM128 callbacks (test/bench/raw.c, test/icount/runner.c):
 * the block function on an AES-ECB context, and a stream function that
 * leaves whole blocks as they are (the engine wrote them, or they are only
 * hashed) — what alg/gcm/compose.c does, written once for the loops that stand
 * beside it without the provider.
 */
#ifndef EIP93_TEST_RAW_GCM128_H
#define EIP93_TEST_RAW_GCM128_H

#include <string.h>

#include <openssl/evp.h>

static inline void raw_block(const unsigned char in[16], unsigned char out[16], const void *k)
{
	EVP_CIPHER_CTX *ecb;

	memcpy(&ecb, &k, sizeof(k)); /* the key GCM128 hands back as const */
	(void)EVP_Cipher(ecb, out, in, 16);
}

static inline void raw_stream(const unsigned char *in, unsigned char *out, size_t blocks,
			      const void *k, const unsigned char ivec[16])
{
	(void)in;
	(void)out;
	(void)blocks;
	(void)k;
	(void)ivec;
}

#endif /* EIP93_TEST_RAW_GCM128_H */
