// SPDX-License-Identifier: Apache-2.0
/* verify.c: the integrity check of every engine result, and the key's AES-ECB it uses. */
#ifndef EIP93_VERIFY_H
#define EIP93_VERIFY_H

#include "ctx.h"

/*
 * Does @a XOR @b (input and the engine's output, @b the buffer it wrote)
 * show the right keystream (AES of the counter blocks IV || 2+i) in the
 * sampled blocks: the message's edges, both sides of every page boundary of
 * the phases in @pg (what the backend reported for the request; NULL or
 * none: @b's own), one random block?  0, -EBADMSG, -ENOMEM.
 */
int eip93_verify_keystream(struct eip93_cctx *ctx, const unsigned char *iv,
			   const struct eip93_engine_pages *pg, const unsigned char *a,
			   const unsigned char *b, size_t len);
/*
 * Is every whole block of @b (@len bytes) different from the same block of
 * @a?  An engine destination that held its input before the request then has
 * no block left unencrypted or unwritten.  0 or -EBADMSG.
 */
int eip93_verify_written(const unsigned char *a, const unsigned char *b, size_t len);
int eip93_verify_key_init(struct eip93_cctx *ctx);
void eip93_verify_key_free(struct eip93_cctx *ctx);
/* The key's sampling generator's next value. */
uint64_t eip93_verify_rand(struct eip93_cctx *ctx);

#endif /* EIP93_VERIFY_H */
