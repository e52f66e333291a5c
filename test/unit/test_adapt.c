// SPDX-License-Identifier: Apache-2.0
/*
 * alg/adapt.c with synthetic timings: size classes, the first samples, the
 * cheaper path wins, exploration is exactly 1 in N, one slow message does
 * not flip the decision, the shift to software and the return are bounded
 * in messages, software's estimate is its best recent time (preempted
 * messages, alone, in bursts or as a third of all, never send messages to a
 * dearer engine), the engine's is its typical one (queueing stays visible),
 * a stale confirmation never fires, shards per thread.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "../../alg/adapt.h"

#define EXPLORE 32
#define LEN 16384

static struct eip93_adapt A;

/* One message of @len: decide, "run" it at the given costs, record; returns the decision. */
static enum eip93_adapt_choice decide_run(struct eip93_adapt_class *c, size_t len, uint64_t eng_ns,
					  uint64_t sw_ns)
{
	enum eip93_adapt_choice ch = eip93_adapt_decide(&A, c);
	enum eip93_adapt_path p = ch == EIP93_ADAPT_GO_SW || ch == EIP93_ADAPT_EXPLORE_SW
					  ? EIP93_ADAPT_SW
					  : EIP93_ADAPT_ENGINE;

	eip93_adapt_record(c, p, len, p == EIP93_ADAPT_ENGINE ? eng_ns : sw_ns);
	return ch;
}

/* The same; returns the path the message took. */
static enum eip93_adapt_path step(struct eip93_adapt_class *c, size_t len, uint64_t eng_ns,
				  uint64_t sw_ns)
{
	enum eip93_adapt_choice ch = decide_run(c, len, eng_ns, sw_ns);

	return ch == EIP93_ADAPT_GO_SW || ch == EIP93_ADAPT_EXPLORE_SW ? EIP93_ADAPT_SW
								       : EIP93_ADAPT_ENGINE;
}

static struct eip93_adapt_class *fresh(void)
{
	eip93_adapt_init(&A, EXPLORE, 100);
	return &eip93_adapt_shard(&A)->cls[eip93_adapt_class_of(LEN)];
}

static void test_classes(void)
{
	CHECK_EQ_INT(eip93_adapt_class_of(0), 0);
	CHECK_EQ_INT(eip93_adapt_class_of(16), 0);
	CHECK_EQ_INT(eip93_adapt_class_of(31), 0);
	CHECK_EQ_INT(eip93_adapt_class_of(32), 1);
	CHECK_EQ_INT(eip93_adapt_class_of(4096), 8);
	CHECK_EQ_INT(eip93_adapt_class_of(16383), 9);
	CHECK_EQ_INT(eip93_adapt_class_of(16384), 10);
	CHECK_EQ_INT(eip93_adapt_class_of(65536), 12);
	CHECK_EQ_INT(eip93_adapt_class_of(1u << 20), 12);
}

static void test_bounds(void)
{
	eip93_adapt_init(&A, 1, 1);
	CHECK_EQ_INT(A.explore, EIP93_ADAPT_EXPLORE_MIN);
	CHECK_EQ_INT(A.weight, EIP93_ADAPT_WEIGHT_MIN);
	eip93_adapt_init(&A, 1u << 30, 1u << 30);
	CHECK_EQ_INT(A.explore, EIP93_ADAPT_EXPLORE_MAX);
	CHECK_EQ_INT(A.weight, EIP93_ADAPT_WEIGHT_MAX);
}

/*
 * Unmeasured paths are measured first: the engine once, then software
 * EIP93_ADAPT_SW_FIRST times (its estimate the fastest of them).
 */
static void test_first(void)
{
	struct eip93_adapt_class *c = fresh();

	CHECK_EQ_INT(eip93_adapt_decide(&A, c), EIP93_ADAPT_GO_ENGINE);
	eip93_adapt_record(c, EIP93_ADAPT_ENGINE, LEN, 1000);
	for (int i = 0; i < EIP93_ADAPT_SW_FIRST; i++) {
		CHECK_EQ_INT(eip93_adapt_decide(&A, c), EIP93_ADAPT_EXPLORE_SW);
		eip93_adapt_record(c, EIP93_ADAPT_SW, LEN, i == 3 ? 3000 : 30000);
	}
	CHECK_EQ_INT(eip93_adapt_decide(&A, c), EIP93_ADAPT_GO_ENGINE);
	CHECK_EQ_INT(eip93_adapt_estimate(c, EIP93_ADAPT_ENGINE), 1000);
	CHECK_EQ_INT(eip93_adapt_estimate(c, EIP93_ADAPT_SW), 3000);
}

/*
 * The cheaper path takes all but 1 in EXPLORE messages, either way round;
 * stretched by the square of the cost ratio when the other path is dearer
 * (1.5x: 1 in 2 * EXPLORE; 3x: 1 in 9 * EXPLORE), up to
 * EIP93_ADAPT_STRETCH_MAX (a ratio of 8 or more).
 */
static int explorations(uint64_t eng, uint64_t sw, enum eip93_adapt_path other)
{
	struct eip93_adapt_class *c = fresh();
	int n = 0;

	for (int i = 0; i < 1 + EIP93_ADAPT_SW_FIRST; i++)
		(void)step(c, LEN, eng, sw);
	c->since = 0;
	for (int i = 0; i < 100 * EXPLORE; i++)
		n += step(c, LEN, eng, sw) == other;
	return n;
}

static void test_cheaper_and_explore(void)
{
	CHECK_EQ_INT(explorations(1000, 1000, EIP93_ADAPT_SW), 100);
	CHECK_EQ_INT(explorations(1000, 1200, EIP93_ADAPT_SW), 100);
	CHECK_EQ_INT(explorations(1200, 1000, EIP93_ADAPT_ENGINE), 100);
	CHECK_EQ_INT(explorations(1000, 1500, EIP93_ADAPT_SW), 50);
	CHECK_EQ_INT(explorations(1500, 1000, EIP93_ADAPT_ENGINE), 50);
	CHECK_EQ_INT(explorations(1000, 3000, EIP93_ADAPT_SW), 100 / 9);
	CHECK_EQ_INT(explorations(3000, 1000, EIP93_ADAPT_ENGINE), 100 / 9);
	CHECK_EQ_INT(explorations(1000, 8000, EIP93_ADAPT_SW), 100 / EIP93_ADAPT_STRETCH_MAX);
	CHECK_EQ_INT(explorations(1000, 1000000, EIP93_ADAPT_SW), 100 / EIP93_ADAPT_STRETCH_MAX);
}

/* One message 100x slower, anywhere, never changes where the next ones go. */
static void test_one_slow_message(void)
{
	struct eip93_adapt_class *c = fresh();
	int sw = 0;

	for (int i = 0; i < 10; i++)
		(void)step(c, LEN, 1000, 1500);
	eip93_adapt_record(c, EIP93_ADAPT_ENGINE, LEN, 100000);
	c->since = 0; /* no exploration in the way */
	for (int i = 0; i < EXPLORE - 2; i++)
		sw += step(c, LEN, 1000, 1500) == EIP93_ADAPT_SW;
	CHECK_EQ_INT(sw, 0);
	CHECK(eip93_adapt_estimate(c, EIP93_ADAPT_ENGINE) < 1500);
}

/*
 * The engine becomes k times slower: messages still sent to it before the
 * shift (design bound: 2 for the median; then at once for a level shift of
 * more than 4x, else the EWMA halves the distance each message: at most 3
 * when the new cost is at least twice software's).
 */
static int messages_to_shift(uint64_t eng, uint64_t slow, uint64_t sw)
{
	struct eip93_adapt_class *c = fresh();
	int n = 0;

	for (int i = 0; i < 10; i++)
		(void)step(c, LEN, eng, sw);
	c->since = 0; /* no exploration in the way */
	/* explorations of software do not end it: the decision does */
	while (n < 1000 && decide_run(c, LEN, slow, sw) != EIP93_ADAPT_GO_SW)
		n++;
	return n;
}

static void test_shift(void)
{
	CHECK_EQ_INT(messages_to_shift(1000, 20000, 2000), 2);
	CHECK(messages_to_shift(1000, 4000, 2000) <= 3);
	CHECK_EQ_INT(messages_to_shift(1000, 1000000, 2000), 2);
	CHECK(messages_to_shift(1000, 2500, 2000) <= 4);
	/* slower, but still cheaper than software: stays */
	CHECK_EQ_INT(messages_to_shift(1000, 1500, 2000), 1000);
}

/*
 * The engine recovers while software carries the load: it is sampled 1 in
 * EXPLORE * min(ratio^2, EIP93_ADAPT_STRETCH_MAX) messages (a ratio of 10
 * here: the most); the fast sample is confirmed by the next message, which
 * moves the median by a level shift (more than 4x): back within
 * EXPLORE * EIP93_ADAPT_STRETCH_MAX + 2 messages.
 */
static void test_return(void)
{
	struct eip93_adapt_class *c = fresh();
	int n = 0, eng = 0;

	for (int i = 0; i < 10; i++)
		(void)step(c, LEN, 1000, 2000);
	for (int i = 0; i < 10 * EXPLORE; i++)
		(void)step(c, LEN, 20000, 2000);
	CHECK(eip93_adapt_estimate(c, EIP93_ADAPT_ENGINE) > 10000);
	while (n < 1000 * EXPLORE && decide_run(c, LEN, 1000, 2000) != EIP93_ADAPT_GO_ENGINE)
		n++;
	CHECK(n <= EIP93_ADAPT_STRETCH_MAX * EXPLORE + 2);
	for (int i = 0; i < 10 * EXPLORE; i++)
		eng += step(c, LEN, 1000, 2000) == EIP93_ADAPT_ENGINE;
	CHECK(eng >= 10 * EXPLORE - 10 - 1);
}

/* Sizes within a class compare per byte: twice the bytes at twice the time is the same cost. */
static void test_normalised(void)
{
	struct eip93_adapt_class *c = fresh();

	eip93_adapt_record(c, EIP93_ADAPT_ENGINE, 16384, 1000);
	eip93_adapt_record(c, EIP93_ADAPT_SW, 32767, 1999);
	CHECK_EQ_INT(eip93_adapt_estimate(c, EIP93_ADAPT_SW), 999);
	eip93_adapt_record(c, EIP93_ADAPT_SW, 100, 0); /* 0 ns is still a sample */
	CHECK(eip93_adapt_estimate(c, EIP93_ADAPT_SW) != 0);
}

/* The engine weight: 300% keeps the engine while it costs up to 3x software. */
static void test_weight(void)
{
	struct eip93_adapt_class *c;
	int sw = 0;

	eip93_adapt_init(&A, EXPLORE, 300);
	c = &eip93_adapt_shard(&A)->cls[eip93_adapt_class_of(LEN)];
	for (int i = 0; i < EXPLORE - 1; i++)
		sw += step(c, LEN, 2900, 1000) == EIP93_ADAPT_SW;
	CHECK_EQ_INT(sw, EIP93_ADAPT_SW_FIRST); /* the first measurements of software only */
	c->since = 0;
	for (int i = 0; i < 3; i++)
		(void)step(c, LEN, 3100, 1000);
	CHECK_EQ_INT(eip93_adapt_decide(&A, c), EIP93_ADAPT_GO_SW);
}

/* A deterministic generator (xorshift64*) for the noisy timings below. */
static uint64_t rng_state;

static void seed(uint64_t s)
{
	/* splitmix64's finaliser: a small seed still starts the generator well mixed */
	s += 0x9e3779b97f4a7c15ULL;
	s = (s ^ (s >> 30)) * 0xbf58476d1ce4e5b9ULL;
	s = (s ^ (s >> 27)) * 0x94d049bb133111ebULL;
	rng_state = (s ^ (s >> 31)) | 1;
}

static uint64_t rnd(uint64_t lo, uint64_t hi)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return lo + (rng_state * 0x2545f4914f6cdd1dULL >> 11) % (hi - lo + 1);
}

/*
 * Software as measured in the -smp 2 TCG guest (docs/performance.md): its
 * own cost (1000 here) plus up to 80% of jitter, and @preempt_pct percent of
 * the messages preempted for 3 to 40 times as long again.
 */
static uint64_t sw_noisy(unsigned int preempt_pct)
{
	uint64_t t = rnd(1000, 1800);

	if (rnd(0, 99) < preempt_pct)
		t += rnd(3000, 40000);
	return t;
}

/* The engine there: @base to 5 * @base, typically 2-3x @base. */
static uint64_t eng_noisy(uint64_t base)
{
	return rnd(base, 3 * base) + (rnd(0, 3) == 0 ? rnd(0, 2 * base) : 0);
}

/*
 * Messages (of @n) that went to the engine when software costs
 * sw_noisy(@preempt_pct) and the engine eng_noisy(@eng_base).
 */
static int engine_share(unsigned int preempt_pct, uint64_t eng_base, int n)
{
	struct eip93_adapt_class *c = fresh();
	int eng = 0;

	seed(1);
	for (int i = 0; i < n; i++)
		eng += step(c, LEN, eng_noisy(eng_base), sw_noisy(preempt_pct)) ==
		       EIP93_ADAPT_ENGINE;
	return eng;
}

/*
 * The guest's case: the engine 2-3x dearer than software's own cost (the
 * simulated engine computes on the guest's CPUs), software's messages often
 * preempted so that a third of them look dearer than the engine.  The
 * engine gets the explorations only: 1 in EXPLORE stretched by the cost
 * ratio (>= 2), so fewer than 1 in 2 * EXPLORE.  (A median of software's
 * last samples sent 10-26% of the messages to the engine here.)
 */
static void test_sw_preempted(void)
{
	CHECK(engine_share(0, 3000, 20000) <= 20000 / (2 * EXPLORE));
	CHECK(engine_share(35, 3000, 20000) <= 20000 / (2 * EXPLORE));
	CHECK(engine_share(60, 3000, 20000) <= 20000 / (2 * EXPLORE));
	/* an engine clearly cheaper than software keeps the load, noise or not */
	CHECK(engine_share(35, 200, 20000) >= 20000 - 20000 / EXPLORE);
	CHECK(engine_share(0, 200, 20000) >= 20000 - 20000 / EXPLORE);
}

/* Software chosen; a burst of preempted software messages never moves the decision. */
static void test_sw_burst(void)
{
	struct eip93_adapt_class *c = fresh();
	int eng = 0;

	for (int i = 0; i < 20; i++)
		(void)step(c, LEN, 2000, 1000);
	c->since = 0; /* no exploration in the way */
	for (int i = 0; i < EIP93_ADAPT_SW_WINDOW - 1; i++)
		eng += step(c, LEN, 2000, 30000) == EIP93_ADAPT_ENGINE;
	CHECK_EQ_INT(eng, 0);
	CHECK_EQ_INT(eip93_adapt_estimate(c, EIP93_ADAPT_SW), 1000);
}

/* Software really becomes dearer (for good): the engine within a window of software messages. */
static void test_sw_rise(void)
{
	struct eip93_adapt_class *c = fresh();
	int n = 0;

	for (int i = 0; i < 20; i++)
		(void)step(c, LEN, 2000, 1000);
	c->since = 0;
	while (n < 1000 && decide_run(c, LEN, 2000, 5000) != EIP93_ADAPT_GO_ENGINE)
		n++;
	CHECK_EQ_INT(n, EIP93_ADAPT_SW_WINDOW);
	CHECK_EQ_INT(eip93_adapt_estimate(c, EIP93_ADAPT_SW), 5000);
}

/*
 * The engine's queueing stays visible: when two of every three engine
 * messages wait behind other work (6x), software takes the load, though one
 * in three still comes back fast (a minimum would keep the engine).
 */
static void test_engine_queue(void)
{
	struct eip93_adapt_class *c = fresh();
	int eng = 0;

	for (int i = 0; i < 20; i++)
		(void)step(c, LEN, 1000, 2000);
	c->since = 0;
	for (int i = 0; i < EXPLORE - 2; i++)
		eng += step(c, LEN, i % 3 == 0 ? 1000 : 6000, 2000) == EIP93_ADAPT_ENGINE;
	CHECK(eng <= 3);
	CHECK(eip93_adapt_estimate(c, EIP93_ADAPT_ENGINE) >= 6000);
}

/*
 * A fast engine sample while the engine is chosen anyway confirms nothing:
 * once the engine becomes slow and software is chosen, no exploration of
 * the engine follows at once (the guest saw one: a confirmation left over).
 */
static void test_stale_confirm(void)
{
	struct eip93_adapt_class *c = fresh();
	enum eip93_adapt_choice ch;
	int x = 0;

	for (int i = 0; i < 20; i++)
		(void)step(c, LEN, 4000, 8000);
	eip93_adapt_record(c, EIP93_ADAPT_ENGINE, LEN, 500); /* far below its estimate */
	c->since = 0;
	for (int i = 0; i < EXPLORE - 2; i++) {
		ch = decide_run(c, LEN, 1000000, 8000);
		x += ch == EIP93_ADAPT_EXPLORE_ENGINE;
	}
	CHECK_EQ_INT(x, 0);
	CHECK_EQ_INT(eip93_adapt_decide(&A, c), EIP93_ADAPT_GO_SW);
}

/*
 * The engine must beat software's best time, not its typical one: an engine
 * a little cheaper than software's median but dearer than its best gets the
 * explorations only (a near tie: 1 in EXPLORE), after its first measurement
 * (what the two statistics cost where software is noisy;
 * adaptive-engine-weight moves it).
 */
static void test_margin(void)
{
	struct eip93_adapt_class *c = fresh();
	int eng = 0;

	seed(2);
	for (int i = 0; i < 10 * EXPLORE; i++)
		eng += step(c, LEN, 1200, rnd(1000, 1600)) == EIP93_ADAPT_ENGINE;
	CHECK(eng <= 1 + 10 + 1);
	CHECK(eng >= 1 + 8);
}

static void *shard_of(void *arg)
{
	*(struct eip93_adapt_shard **)arg = eip93_adapt_shard(&A);
	return NULL;
}

/* Each thread its own shard (round robin), the same one every time. */
static void test_shards(void)
{
	struct eip93_adapt_shard *s[4];
	pthread_t t[4];

	eip93_adapt_init(&A, EXPLORE, 100);
	for (int i = 0; i < 4; i++)
		CHECK_EQ_INT(pthread_create(&t[i], NULL, shard_of, &s[i]), 0);
	for (int i = 0; i < 4; i++)
		CHECK_EQ_INT(pthread_join(t[i], NULL), 0);
	for (int i = 0; i < 4; i++)
		for (int j = i + 1; j < 4; j++)
			CHECK(s[i] != s[j]);
	CHECK(eip93_adapt_shard(&A) == eip93_adapt_shard(&A));
	CHECK_EQ_INT(sizeof(struct eip93_adapt_shard) % 8, 0);
	CHECK(sizeof(struct eip93_adapt_shard) >= 64 + sizeof(struct eip93_adapt_class));
}

int main(void)
{
	test_classes();
	test_bounds();
	test_first();
	test_cheaper_and_explore();
	test_one_slow_message();
	test_shift();
	test_return();
	test_normalised();
	test_weight();
	test_sw_preempted();
	test_sw_burst();
	test_sw_rise();
	test_engine_queue();
	test_stale_confirm();
	test_margin();
	test_shards();
	return check_done("test_adapt");
}
