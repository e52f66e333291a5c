// SPDX-License-Identifier: Apache-2.0
/*
 * Adaptive routing: which of two correct paths (the engine, the software
 * delegate) is cheaper for a message of this size right now.
 *
 * Pure (no clock, no OpenSSL): callers pass measured wall times in
 * nanoseconds, so host tests drive it with synthetic timings.  The state is
 * a set of shards, each one cache-line aligned and used by one thread
 * (eip93_adapt_shard() hands them out round robin), so the per-message path
 * shares no written cache line between threads up to EIP93_ADAPT_NSHARDS
 * threads; fields are relaxed atomics only so that two threads landing on
 * one shard race harmlessly instead of undefinedly.
 *
 * Per shard and size class (powers of two, 16 B .. 64 KiB) each path keeps
 * its recent samples, normalised to the class's smallest size, and one
 * estimate suited to its cost:
 *
 * - software is pure CPU work, so noise (the thread preempted, by another
 *   thread, by the simulated engine's kernel worker, by the host under
 *   emulation) only ever ADDS time: its estimate is the minimum of its last
 *   EIP93_ADAPT_SW_WINDOW samples, its intrinsic cost, which no number of
 *   slow messages short of the whole window moves;
 * - the engine's wait behind other requests is real cost that must stay
 *   visible: its estimate is an EWMA (weight 1/2) of the median of its last
 *   three samples, so one slow message never moves it, and it jumps to the
 *   median when that is more than 4x away (a level shift: the engine became
 *   much slower, or recovered).
 *
 * A message goes to the engine while engine * 100 <= software * weight:
 * since software's estimate is its best time and the engine's its typical
 * one, the engine must be clearly cheaper to be chosen (the two statistics
 * are the hysteresis).  Every explore-th message of a class (stretched by
 * the square of the cost ratio, up to EIP93_ADAPT_STRETCH_MAX times, so
 * exploring a path r times dearer costs about 1 / (explore * r) of the time)
 * goes to the other path, so a path that became cheaper again is noticed; an engine sample far below
 * its estimate while software is chosen is confirmed by the next message at
 * once (the median needs two; software's minimum needs one).  An unmeasured
 * class measures the engine once, then software EIP93_ADAPT_SW_FIRST times
 * (one preempted first sample would otherwise stand for software's cost
 * until its next exploration).
 */
#ifndef EIP93_ADAPT_H
#define EIP93_ADAPT_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define EIP93_ADAPT_NCLASSES 13 /* 2^4 .. 2^16 bytes */
#define EIP93_ADAPT_NSHARDS 16
#define EIP93_ADAPT_ENGINE_WINDOW 3 /* engine samples a median is taken over */
#define EIP93_ADAPT_SW_WINDOW 16    /* software samples a minimum is taken over */
#define EIP93_ADAPT_SW_FIRST 8	    /* software samples taken before its estimate is used */
#define EIP93_ADAPT_EXPLORE_DEFAULT 32
#define EIP93_ADAPT_EXPLORE_MIN 4
#define EIP93_ADAPT_EXPLORE_MAX 4096
#define EIP93_ADAPT_STRETCH_MAX 64     /* exploration interval: up to 64x explore */
#define EIP93_ADAPT_WEIGHT_DEFAULT 100 /* percent: the engine while it costs <= 1x software */
#define EIP93_ADAPT_WEIGHT_MIN 10
#define EIP93_ADAPT_WEIGHT_MAX 10000

enum eip93_adapt_path { EIP93_ADAPT_ENGINE = 0, EIP93_ADAPT_SW = 1 };

/* What eip93_adapt_decide() says. */
enum eip93_adapt_choice {
	EIP93_ADAPT_GO_ENGINE,	    /* the engine is cheaper (or not yet measured) */
	EIP93_ADAPT_GO_SW,	    /* software is cheaper */
	EIP93_ADAPT_EXPLORE_ENGINE, /* software is cheaper, but sample the engine */
	EIP93_ADAPT_EXPLORE_SW,	    /* the engine is cheaper, but sample software */
};

/* Samples and estimates are nanoseconds normalised to the class's smallest size; 0 = none yet. */
struct eip93_adapt_class {
	_Atomic uint64_t eng[EIP93_ADAPT_ENGINE_WINDOW]; /* the engine's last samples */
	_Atomic uint64_t eng_est;			 /* EWMA of their median */
	_Atomic uint32_t sw[EIP93_ADAPT_SW_WINDOW];	 /* software's last samples (clamped) */
	_Atomic uint32_t sw_est;			 /* their minimum */
	atomic_uint eng_next, sw_next;			 /* ring positions */
	atomic_uint since;   /* messages since the other path was last sampled */
	atomic_uint confirm; /* 1: an engine sample fell far below its estimate */
};

struct eip93_adapt_shard {
	struct eip93_adapt_class cls[EIP93_ADAPT_NCLASSES];
	char pad[64]; /* the next shard starts on another cache line */
};

struct eip93_adapt {
	struct eip93_adapt_shard shard[EIP93_ADAPT_NSHARDS];
	atomic_uint next_shard; /* written once per thread and instance */
	unsigned int explore;	/* 1 in explore messages samples the other path */
	unsigned int weight;	/* the engine while engine * 100 <= software * weight */
};

/*
 * eip93_adapt_init() - empty estimates; @explore and @weight (percent: how
 * much dearer than software the engine may be and still be chosen; 100 =
 * strictly the cheaper) are clamped to their bounds.
 */
void eip93_adapt_init(struct eip93_adapt *a, unsigned int explore, unsigned int weight);

/* eip93_adapt_class_of() - the size class of a @len-byte message. */
unsigned int eip93_adapt_class_of(size_t len);

/*
 * eip93_adapt_shard() - the calling thread's shard of @a (assigned on the
 * thread's first message to @a, then kept in a thread-local cache).
 */
struct eip93_adapt_shard *eip93_adapt_shard(struct eip93_adapt *a);

/* eip93_adapt_decide() - where should a message of class @c go? */
enum eip93_adapt_choice eip93_adapt_decide(const struct eip93_adapt *a,
					   struct eip93_adapt_class *c);

/* eip93_adapt_record() - @path took @ns nanoseconds for a @len-byte message. */
void eip93_adapt_record(struct eip93_adapt_class *c, enum eip93_adapt_path path, size_t len,
			uint64_t ns);

/* eip93_adapt_estimate() - the current estimate of @path in @c (0: none). */
uint64_t eip93_adapt_estimate(const struct eip93_adapt_class *c, enum eip93_adapt_path path);

#endif /* EIP93_ADAPT_H */
