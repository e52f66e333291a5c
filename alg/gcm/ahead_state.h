// SPDX-License-Identifier: Apache-2.0
/*
 * One AES-GCM context's keystream-ahead state (ahead.c owns what it means;
 * gcm_ctx.h embeds it): apart from ahead.h so that the context's header
 * and ahead.c's unit do not include each other.
 */
#ifndef EIP93_GCM_AHEAD_STATE_H
#define EIP93_GCM_AHEAD_STATE_H

#include <stddef.h>
#include <stdint.h>

#include "../../engine/shape.h"

/* One context's predictor and its request ahead (zero: nothing seen, nothing asked). */
struct eip93_ahead {
	unsigned char base[EIP93_ENGINE_IVLEN]; /* the first nonce seen since the key */
	unsigned char last[EIP93_ENGINE_IVLEN]; /* the last one */
	unsigned char next[EIP93_ENGINE_IVLEN]; /* the one asked ahead */
	uint64_t seq;	     /* the last nonce XOR base (TLS 1.3's sequence number) */
	size_t len;	     /* the bytes asked ahead */
	int seen;	     /* a message since the key */
	int pending;	     /* a request ahead is outstanding on the context's engine key */
	int armed;	     /* this message may take and ask (eip93_engine_checked) */
	unsigned int run[3]; /* messages in a row that kept each pattern (ahead.c) */
	unsigned int misses; /* keystreams asked and dropped since the last one used */
};

#endif /* EIP93_GCM_AHEAD_STATE_H */
