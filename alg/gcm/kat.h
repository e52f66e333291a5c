// SPDX-License-Identifier: Apache-2.0
/* kat.c: AES-GCM's known-answer checks, and a seal by the delegate on its own. */
#ifndef EIP93_GCM_KAT_H
#define EIP93_GCM_KAT_H

#include "../ctx.h"

/* The row's key_check: 0, -EBADMSG (a wrong answer) or the engine's -errno. */
int eip93_gcm_key_check(struct eip93_cctx *ctx);
/* AES-GCM encryption by the delegate in a context of its own, with the context's key; 1 or 0. */
int eip93_key_sw_seal(struct eip93_cctx *ctx, const unsigned char *iv, const unsigned char *aad,
		      size_t aadlen, const unsigned char *in, size_t len, unsigned char *out,
		      unsigned char *tag);

#endif /* EIP93_GCM_KAT_H */
