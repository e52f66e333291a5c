// SPDX-License-Identifier: Apache-2.0
/* compose.c: one AES-GCM engine message in the bound composition, and its check. */
#ifndef EIP93_GCM_COMPOSE_H
#define EIP93_GCM_COMPOSE_H

#include "gcm_ctx.h"

/*
 * Kernel AES-GCM compositions: the tags of a key's first this many engine
 * messages are recomputed in software, then 1 in env->tag_check.
 */
#define EIP93_TAG_CHECK_FIRST 4

/*
 * One engine message in the bound composition (engine AES-CTR with GHASH
 * and tag here, or a kernel AES-GCM request with its tag sampled): 0,
 * EIP93_ENGINE_WRONG (a sampled tag was wrong), -EBADMSG (the tag refused)
 * or -errno.
 */
int eip93_engine_message(struct gcm_ctx *ctx, int enc, const unsigned char *iv,
			 const unsigned char *aad, size_t aadlen, const unsigned char *in,
			 size_t len, unsigned char *out, unsigned char *tag,
			 struct eip93_engine_pages *pg);
/*
 * eip93_engine_message() from @in into @out with the whole integrity check of
 * its result (verify.c).  @out must hold a copy of the input before the call
 * (then a block the engine skips or leaves unencrypted equals its input, and
 * is caught); @orig is the input as it was (@in, or a copy when @in == @out).
 * 0, EIP93_ENGINE_WRONG, -EBADMSG (the tag refused) or -errno.
 */
int eip93_engine_checked(struct gcm_ctx *ctx, int enc, const unsigned char *iv,
			 const unsigned char *aad, size_t aadlen, const unsigned char *in,
			 const unsigned char *orig, unsigned char *out, size_t len,
			 unsigned char *tag);
/* The row's key hooks: the key's GCM128 context (after its AES-ECB); 0 or -ENOMEM. */
int eip93_compose_key_init(struct eip93_cctx *c);
void eip93_compose_key_free(struct eip93_cctx *c);

#endif /* EIP93_GCM_COMPOSE_H */
