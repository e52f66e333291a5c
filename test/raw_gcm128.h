// SPDX-License-Identifier: Apache-2.0
/*
 * The raw loops' software half of ctr(aes-eip93) (test/bench/raw.c,
 * cdev_raw.c, test/icount/runner.c): the block function on an AES-ECB
 * context and the product's own route over GCM128 (alg/gcm/route.c), so
 * that a raw loop does what alg/gcm/compose.c does, on any libcrypto build,
 * without the provider around it.
 */
#ifndef EIP93_TEST_RAW_GCM128_H
#define EIP93_TEST_RAW_GCM128_H

#include <string.h>

#include <openssl/evp.h>

#include "../alg/gcm/route.h"

static inline void raw_block(const unsigned char in[16], unsigned char out[16], const void *k)
{
	EVP_CIPHER_CTX *ecb;

	memcpy(&ecb, &k, sizeof(k)); /* the key GCM128 hands back as const */
	(void)EVP_Cipher(ecb, out, in, 16);
}

/*
 * Sealing, after the engine wrote the whole blocks of @out: they are hashed,
 * the last partial block of @in encrypted into @out, the tag into @tag.
 */
static inline int raw_seal_tail(struct eip93_gcm_route *rt, const unsigned char *in,
				unsigned char *out, size_t len, unsigned char tag[16])
{
	size_t whole = len & ~(size_t)15;

	if (eip93_route_hash(rt, out, whole) != 0 ||
	    eip93_route_last(rt, 1, in + whole, out + whole, len - whole) != 0)
		return -1;
	CRYPTO_gcm128_tag(rt->g, tag, 16);
	return 0;
}

/*
 * Opening, before the engine: the ciphertext @in hashed, its last partial
 * block decrypted into @out, @tag checked (0, or -1 when it is wrong).
 */
static inline int raw_open_head(struct eip93_gcm_route *rt, const unsigned char *in,
				unsigned char *out, size_t len, const unsigned char tag[16])
{
	size_t whole = len & ~(size_t)15;

	if (eip93_route_hash(rt, in, whole) != 0 ||
	    eip93_route_last(rt, 0, in + whole, out + whole, len - whole) != 0)
		return -1;
	return CRYPTO_gcm128_finish(rt->g, tag, 16) == 0 ? 0 : -1;
}

#endif /* EIP93_TEST_RAW_GCM128_H */
