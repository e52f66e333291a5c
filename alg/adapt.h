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
 * its last three samples, normalised to the class's smallest size; the
 * estimate is an EWMA (weight 1/2) of their median, so one slow message
 * never moves it, and it jumps to the median when that is more than 4x away
 * (a level shift: the engine became much slower, or recovered).  A message
 * goes to the engine while engine * 100 <= software * weight.  Every
 * explore-th message of a class (stretched by the cost ratio, up to
 * EIP93_ADAPT_STRETCH_MAX times, so exploring a far dearer path costs a
 * bounded share of the time too) goes to the other path, so a path that
 * became cheaper again is noticed; a sample far below its estimate is
 * confirmed by the next message at once (the median needs two).
 */
#ifndef EIP93_ADAPT_H
#define EIP93_ADAPT_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define EIP93_ADAPT_NCLASSES 13 /* 2^4 .. 2^16 bytes */
#define EIP93_ADAPT_NSHARDS 16
#define EIP93_ADAPT_WINDOW 3 /* samples a median is taken over */
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

struct eip93_adapt_path_est {
	_Atomic uint64_t sample[EIP93_ADAPT_WINDOW]; /* ns, normalised; 0 = none yet */
	_Atomic uint64_t est;			     /* ns, normalised; 0 = none yet */
	atomic_uint next;			     /* ring position */
};

struct eip93_adapt_class {
	struct eip93_adapt_path_est path[2];
	atomic_uint since;   /* messages since the other path was last sampled */
	atomic_uint confirm; /* 1 + a path whose last sample fell far below its estimate */
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
