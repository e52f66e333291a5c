// SPDX-License-Identifier: Apache-2.0
/*
 * Counters one provider instance keeps; the provider layer publishes them as
 * provider parameters.  Relaxed atomics: they are statistics, not locks.
 */
#ifndef EIP93_STATS_H
#define EIP93_STATS_H

#include <stdatomic.h>
#include <stdint.h>

#include "route.h"

struct eip93_stats {
	_Atomic uint64_t engine_messages;
	_Atomic uint64_t engine_bytes;
	_Atomic uint64_t sw_by_reason[EIP93_SW_NREASONS]; /* software messages by reason */
	_Atomic uint64_t key_checks_passed;
	_Atomic uint64_t key_checks_failed;
	_Atomic uint64_t engine_errors;
	_Atomic uint64_t engine_faults; /* wrong results caught: key checks, integrity checks */
	_Atomic uint64_t adapt_explore_engine; /* engine messages sent to sample its cost */
	_Atomic uint64_t adapt_explore_sw;     /* software messages sent to sample its cost */
	_Atomic uint64_t ahead_used;	       /* engine messages on a keystream computed ahead */
	_Atomic uint64_t ahead_dropped;	       /* keystreams computed ahead and never used */
};

static inline void eip93_stat_add(_Atomic uint64_t *c, uint64_t n)
{
	atomic_fetch_add_explicit(c, n, memory_order_relaxed);
}

static inline uint64_t eip93_stat_get(_Atomic uint64_t *c)
{
	return atomic_load_explicit(c, memory_order_relaxed);
}

#endif /* EIP93_STATS_H */
