// SPDX-License-Identifier: Apache-2.0
/*
 * route.c: the software half of the CTR-only composition, over the GCM128
 * functions libcrypto exports, on any build of it.
 */
#ifndef EIP93_GCM_ROUTE_H
#define EIP93_GCM_ROUTE_H

#include <stddef.h>

#include <openssl/modes.h>

/*
 * One key's GCM128 context and the block function it was made with.  The
 * context's key pointer is this object: its block function returns the
 * key's AES of a block, or, while @zero is set, sixteen zero bytes (the
 * stream function writes nothing), so GCM128 only hashes what it is given.
 *
 * @g: the GCM128 context (H and its tables), NULL until eip93_route_init()
 * @aes: the key's AES block function, @aes_key its key
 * @zero: set only inside eip93_route_hash()
 */
struct eip93_gcm_route {
	GCM128_CONTEXT *g;
	block128_f aes;
	const void *aes_key;
	int zero;
};

/* Make @r's GCM128 context for the AES block function @aes of @aes_key: 0 or -ENOMEM. */
int eip93_route_init(struct eip93_gcm_route *r, block128_f aes, const void *aes_key);
/* Free it (GCM128 cleanses H and its tables); r->g must be NULL or made by eip93_route_init(). */
void eip93_route_free(struct eip93_gcm_route *r);
/*
 * A message: J0 and the tag mask from @iv (@ivlen bytes), then the AAD
 * hashed: 0, -ENOMEM (no context) or -EINVAL.
 */
int eip93_route_start(struct eip93_gcm_route *r, const unsigned char *iv, size_t ivlen,
		      const unsigned char *aad, size_t aadlen);
/*
 * The next @whole bytes (a multiple of 16) of ciphertext @ct hashed, their
 * counter blocks counted; @ct is only read: 0 or -EINVAL.
 */
int eip93_route_hash(struct eip93_gcm_route *r, const unsigned char *ct, size_t whole);
/*
 * The last @n (< 16) bytes of the message: encrypted (@enc) or decrypted
 * from @in into @out with the key's own AES keystream, the ciphertext
 * hashed: 0 or -EINVAL.
 */
int eip93_route_last(struct eip93_gcm_route *r, int enc, const unsigned char *in,
		     unsigned char *out, size_t n);

#endif /* EIP93_GCM_ROUTE_H */
