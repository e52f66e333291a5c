// SPDX-License-Identifier: Apache-2.0
/*
 * account.c: counters, and what engine errors and faults say about the
 * engine.  The two counters of every message are inline (per message).
 */
#ifndef EIP93_ACCOUNT_H
#define EIP93_ACCOUNT_H

#include "ctx.h"

static inline void eip93_count_sw(struct eip93_cctx *ctx, enum eip93_sw_reason r)
{
	eip93_stat_add(&ctx->env->stats->sw_by_reason[r], 1); /* the total is their sum */
}

static inline void eip93_count_engine(struct eip93_cctx *ctx, size_t len)
{
	struct eip93_stats *st = ctx->env->stats;

	atomic_store_explicit(&ctx->env->consecutive_errors, 0, memory_order_relaxed);
	eip93_stat_add(&st->engine_messages, 1);
	eip93_stat_add(&st->engine_bytes, len);
}

/* The engine's message left it by a replay: it counts once, as software. */
void eip93_count_replay(struct eip93_cctx *ctx, size_t len);
/* An engine call failed with @err: classify, account; returns the reason to count. */
enum eip93_sw_reason eip93_account_error(struct eip93_cctx *ctx, int err, const char *where);
/*
 * What an engine step's non-zero result @e means (eip93_route_outcome()): a
 * wrong result (a fault), a refused tag (the delegate decides), a record the
 * engine could not take, or an error; accounted, and the reason the message
 * then goes to software returned.
 */
enum eip93_sw_reason eip93_account_outcome(struct eip93_cctx *ctx, int e, const char *where);
/* The engine's result was wrong: the key goes to software, the fault is counted. */
void eip93_account_fault(struct eip93_cctx *ctx, const char *what);

#endif /* EIP93_ACCOUNT_H */
