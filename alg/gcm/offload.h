// SPDX-License-Identifier: Apache-2.0
/* offload.c: a generic engine message (first data, replay, final) and what the delegate owes. */
#ifndef EIP93_GCM_OFFLOAD_H
#define EIP93_GCM_OFFLOAD_H

#include "gcm_ctx.h"

int eip93_offload_first_data(struct gcm_ctx *ctx, eip93_sw_op_fn sw_op, unsigned char *out,
			     size_t *outl, size_t outsize, const unsigned char *in, size_t inl);
/* Replay an engine message under way and pay what is owed, except @keep (EIP93_OWE_*). */
int eip93_offload_settle_slow(struct gcm_ctx *ctx, unsigned int keep);
int eip93_offload_final(struct gcm_ctx *ctx, unsigned char *out, size_t *outl, size_t outsize);
/* The reason a message without data is counted in software. */
enum eip93_sw_reason eip93_offload_reason_empty(const struct gcm_ctx *ctx);

/*
 * Before a delegate call: the delegate must hold what software alone would
 * have left in it, except what @keep says the call can neither see nor change.
 */
static inline int eip93_offload_settle(struct gcm_ctx *ctx, unsigned int keep)
{
	if (ctx->sh.msg != EIP93_MSG_ENGINE && (ctx->owed & ~keep) == 0)
		return 1;
	return eip93_offload_settle_slow(ctx, keep);
}

#endif /* EIP93_GCM_OFFLOAD_H */
