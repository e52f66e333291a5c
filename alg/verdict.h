// SPDX-License-Identifier: Apache-2.0
/*
 * verdict.c: the key checks an instance saw pass in this process, by a keyed
 * hash of the key bytes and what they were checked on (never the key).
 */
#ifndef EIP93_VERDICT_H
#define EIP93_VERDICT_H

#include "ctx.h"

#define EIP93_VERDICT_TAGLEN 32
struct eip93_verdict_query {
	unsigned char tag[EIP93_VERDICT_TAGLEN]; /* the key's keyed hash (ok) */
	uint64_t trouble; /* the instance's engine errors + faults when the query began */
	uint64_t serial;  /* the table it was made on */
	int ok;		  /* tag computed */
};
/*
 * 1: @ctx's key bytes passed a check on this instance in this process, and
 * no engine error or fault was counted since that check began.  Fills @q.
 */
int eip93_verdict_find(struct eip93_cctx *ctx, struct eip93_verdict_query *q);
/* The check that followed @q's miss @passed (kept) or not (forgotten); cleanses @q. */
void eip93_verdict_keep(struct eip93_cctx *ctx, struct eip93_verdict_query *q, int passed);

#endif /* EIP93_VERDICT_H */
