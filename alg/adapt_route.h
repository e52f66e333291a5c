// SPDX-License-Identifier: Apache-2.0
/* adapt_route.c: adaptive routing around a message the rule gave the engine. */
#ifndef EIP93_ADAPT_ROUTE_H
#define EIP93_ADAPT_ROUTE_H

#include "ctx.h"

struct eip93_adapt_tok {
	struct eip93_adapt_class *cls; /* NULL: nothing to record */
	enum eip93_adapt_path path;
	size_t len;
	uint64_t t0;
};
/* 1: the estimate says software (the rule's adapt_sw fact). */
int eip93_adapt_begin(struct eip93_cctx *ctx, size_t len, struct eip93_adapt_tok *t);
/* The chosen path starts now. */
void eip93_adapt_clock(struct eip93_adapt_tok *t);
/* The chosen path ran (@ok: and its time says something about its cost). */
void eip93_adapt_end(struct eip93_adapt_tok *t, int ok);

#endif /* EIP93_ADAPT_ROUTE_H */
