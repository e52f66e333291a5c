// SPDX-License-Identifier: Apache-2.0
/*
 * Adaptive routing in the cipher: the clock and the counters around the
 * pure estimator (adapt.c).  The pipeline (pipeline.h) calls eip93_adapt_begin()
 * for a message the routing rule already gave the engine, put its answer in
 * the rule's adapt_sw fact (before the key is opened: a key the estimate
 * keeps in software never costs a known-answer check on a slow engine),
 * start the clock with eip93_adapt_clock() just before the chosen path runs
 * and call eip93_adapt_end() once it has.  Only the path that runs is timed: software is measured on messages
 * that go to software anyway, never by doing the work twice.
 */
#include "adapt_route.h"

#include <time.h>

static uint64_t now_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

int eip93_adapt_begin(struct eip93_cctx *ctx, size_t len, struct eip93_adapt_tok *t)
{
	struct eip93_adapt *a = ctx->env->adapt;
	struct eip93_stats *st = ctx->env->stats;
	enum eip93_adapt_choice ch;

	t->cls = NULL;
	if (a == NULL)
		return 0; /* routing = fixed */
	t->cls = &eip93_adapt_shard(a)->cls[eip93_adapt_class_of(len)];
	t->len = len;
	ch = eip93_adapt_decide(a, t->cls);
	if (ch == EIP93_ADAPT_EXPLORE_ENGINE)
		eip93_stat_add(&st->adapt_explore_engine, 1);
	else if (ch == EIP93_ADAPT_EXPLORE_SW)
		eip93_stat_add(&st->adapt_explore_sw, 1);
	t->path = ch == EIP93_ADAPT_GO_SW || ch == EIP93_ADAPT_EXPLORE_SW ? EIP93_ADAPT_SW
									  : EIP93_ADAPT_ENGINE;
	t->t0 = 0;
	return t->path == EIP93_ADAPT_SW;
}

void eip93_adapt_clock(struct eip93_adapt_tok *t)
{
	if (t->cls != NULL)
		t->t0 = now_ns();
}

void eip93_adapt_end(struct eip93_adapt_tok *t, int ok)
{
	uint64_t t1;

	if (t->cls == NULL)
		return;
	t1 = now_ns();
	/* a failed engine call measured nothing about the engine's cost */
	if (ok && t->t0 != 0 && t1 > t->t0)
		eip93_adapt_record(t->cls, t->path, t->len, t1 - t->t0);
	t->cls = NULL;
}
