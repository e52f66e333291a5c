// SPDX-License-Identifier: Apache-2.0
/*
 * request.c: one backend request on the context's engine key, as any cipher
 * asks it (the compositions and the known-answer checks are the cipher's).
 */
#ifndef EIP93_REQUEST_H
#define EIP93_REQUEST_H

#include "ctx.h"

/* A kernel AEAD key's backend request alone (seal or unseal). */
int eip93_engine_request(struct eip93_cctx *ctx, int enc, const unsigned char *iv,
			 const unsigned char *aad, size_t aadlen, const unsigned char *in,
			 size_t len, unsigned char *out, unsigned char *tag);
/* An AES-CTR key's backend request alone: @len bytes from counter block @ctrblk. */
int eip93_engine_ctr(struct eip93_cctx *ctx, const unsigned char *ctrblk, const unsigned char *in,
		     unsigned char *out, size_t len);

/*
 * An skcipher key's request (@k: the context's engine key or another
 * transform of the same key): @len bytes from the 16-byte block @iv in the
 * direction @enc; @pages as in struct eip93_engine_msg (may be NULL).
 */
int eip93_engine_skc(struct eip93_cctx *ctx, struct eip93_engine_key *k, int enc,
		     const unsigned char *iv, const unsigned char *in, unsigned char *out,
		     size_t len, struct eip93_engine_pages *pages);

#endif /* EIP93_REQUEST_H */
