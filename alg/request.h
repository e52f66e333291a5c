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

#endif /* EIP93_REQUEST_H */
