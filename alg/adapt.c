// SPDX-License-Identifier: Apache-2.0
/* The cost estimators and the adaptive decision (see adapt.h); pure, no clock. */
#include "adapt.h"

#include <string.h>

_Static_assert(EIP93_ADAPT_SW_FIRST >= 1 && EIP93_ADAPT_SW_FIRST <= EIP93_ADAPT_SW_WINDOW,
	       "software is measured within its window");

#define LD(x) atomic_load_explicit(&(x), memory_order_relaxed)
#define ST(x, v) atomic_store_explicit(&(x), (v), memory_order_relaxed)

void eip93_adapt_init(struct eip93_adapt *a, unsigned int explore, unsigned int weight)
{
	memset(a, 0, sizeof(*a));
	if (explore < EIP93_ADAPT_EXPLORE_MIN)
		explore = EIP93_ADAPT_EXPLORE_MIN;
	if (explore > EIP93_ADAPT_EXPLORE_MAX)
		explore = EIP93_ADAPT_EXPLORE_MAX;
	a->explore = explore;
	if (weight < EIP93_ADAPT_WEIGHT_MIN)
		weight = EIP93_ADAPT_WEIGHT_MIN;
	if (weight > EIP93_ADAPT_WEIGHT_MAX)
		weight = EIP93_ADAPT_WEIGHT_MAX;
	a->weight = weight;
}

unsigned int eip93_adapt_class_of(size_t len)
{
	unsigned int c = 0;

	/* floor(log2(len)) - 4, within [0, NCLASSES - 1] */
	for (size_t v = len >> 5; v != 0 && c < EIP93_ADAPT_NCLASSES - 1; v >>= 1)
		c++;
	return c;
}

struct eip93_adapt_shard *eip93_adapt_shard(struct eip93_adapt *a)
{
	/* One thread-local cache: a thread that alternates instances re-draws, rarely. */
	static _Thread_local struct {
		const struct eip93_adapt *a;
		unsigned int idx;
	} tl;

	if (tl.a != a) {
		tl.idx = atomic_fetch_add_explicit(&a->next_shard, 1, memory_order_relaxed) %
			 EIP93_ADAPT_NSHARDS;
		tl.a = a;
	}
	return &a->shard[tl.idx];
}

/* The median of the engine's samples so far (at most three). */
static uint64_t engine_median(const struct eip93_adapt_class *c)
{
	uint64_t v[EIP93_ADAPT_ENGINE_WINDOW], t;
	unsigned int n = 0;

	for (unsigned int i = 0; i < EIP93_ADAPT_ENGINE_WINDOW; i++) {
		t = LD(c->eng[i]);
		if (t != 0)
			v[n++] = t;
	}
	if (n == 0)
		return 0;
	/* insertion sort of at most three */
	for (unsigned int i = 1; i < n; i++)
		for (unsigned int j = i; j > 0 && v[j - 1] > v[j]; j--) {
			t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	return n == 2 ? (v[0] + v[1]) / 2 : v[n / 2];
}

static void record_engine(struct eip93_adapt_class *c, uint64_t norm)
{
	unsigned int i = LD(c->eng_next) % EIP93_ADAPT_ENGINE_WINDOW;
	uint64_t med, est;

	ST(c->eng[i], norm);
	ST(c->eng_next, (i + 1) % EIP93_ADAPT_ENGINE_WINDOW);
	med = engine_median(c);
	est = LD(c->eng_est);
	/* far below its estimate: confirm at once (a median needs a second sample) */
	if (est != 0 && norm < est / 4)
		ST(c->confirm, 1);
	/* a level shift (4x either way) is taken at once: the median already filtered outliers */
	if (est == 0 || med / 4 > est || est / 4 > med)
		est = med;
	else
		est = est / 2 + med / 2;
	ST(c->eng_est, est);
}

/*
 * Software's estimate is the minimum of its window: preemption, a busy
 * host, cache misses only make a message slower than the work it is, so
 * the smallest recent sample is the best estimate of that work, and slow
 * samples, however many in a row short of the whole window, never raise it.
 * A real and lasting rise (a slower clock) shows once the window has turned
 * over.
 */
static void record_sw(struct eip93_adapt_class *c, uint64_t norm)
{
	unsigned int i = LD(c->sw_next) % EIP93_ADAPT_SW_WINDOW;
	uint32_t v, lo = UINT32_MAX;

	ST(c->sw[i], norm < UINT32_MAX ? (uint32_t)norm : UINT32_MAX);
	ST(c->sw_next, (i + 1) % EIP93_ADAPT_SW_WINDOW);
	for (unsigned int j = 0; j < EIP93_ADAPT_SW_WINDOW; j++) {
		v = LD(c->sw[j]);
		if (v != 0 && v < lo)
			lo = v;
	}
	ST(c->sw_est, lo);
}

void eip93_adapt_record(struct eip93_adapt_class *c, enum eip93_adapt_path path, size_t len,
			uint64_t ns)
{
	unsigned int cls = eip93_adapt_class_of(len);
	uint64_t base = (uint64_t)16 << cls, norm;

	if (len == 0)
		return;
	/* normalised to the class's smallest size, so one class's sizes compare */
	if (ns > ((uint64_t)1 << 40))
		ns = (uint64_t)1 << 40; /* 18 minutes: keeps the product below 2^57 */
	norm = ns * base / len;
	if (norm == 0)
		norm = 1; /* 0 means "no sample" */
	if (path == EIP93_ADAPT_SW)
		record_sw(c, norm);
	else
		record_engine(c, norm);
}

uint64_t eip93_adapt_estimate(const struct eip93_adapt_class *c, enum eip93_adapt_path path)
{
	return path == EIP93_ADAPT_SW ? LD(c->sw_est) : LD(c->eng_est);
}

enum eip93_adapt_choice eip93_adapt_decide(const struct eip93_adapt *a, struct eip93_adapt_class *c)
{
	uint64_t e = LD(c->eng_est);
	uint64_t s = LD(c->sw_est);
	uint64_t ew, sw, q, stretch;
	unsigned int since;
	int engine;

	if (e == 0)
		return EIP93_ADAPT_GO_ENGINE; /* not measured yet: measure it */
	/* the ring fills from its start: software measured EIP93_ADAPT_SW_FIRST times first */
	if (s == 0 || LD(c->sw[EIP93_ADAPT_SW_FIRST - 1]) == 0)
		return EIP93_ADAPT_EXPLORE_SW;
	/* the engine's estimate is at most 2^40 (record() clamps), software's 2^32: they fit */
	ew = e * 100;
	sw = s * a->weight;
	engine = ew <= sw;
	/*
	 * A fast engine sample taken while software was chosen is confirmed now;
	 * one taken while the engine was chosen anyway needs nothing (and must
	 * not fire later, once the engine has become dear).
	 */
	if (LD(c->confirm) != 0) {
		ST(c->confirm, 0);
		if (!engine)
			return EIP93_ADAPT_EXPLORE_ENGINE;
	}
	/*
	 * 1 in explore messages, stretched by the square of how much dearer the
	 * other path is (up to EIP93_ADAPT_STRETCH_MAX times): sampling a path r
	 * times dearer every explore * r * r messages costs about 1 / (explore * r)
	 * of the time, so a near tie is sampled often and a far dearer path (which
	 * would have to become r times cheaper to be chosen) rarely; a stretch of
	 * r alone would spend a steady 1 / explore of the time there.
	 */
	q = engine ? sw * 16 / (ew != 0 ? ew : 1) : ew * 16 / (sw != 0 ? sw : 1); /* r * 16 */
	if (q > (uint64_t)16 * EIP93_ADAPT_STRETCH_MAX)
		q = (uint64_t)16 * EIP93_ADAPT_STRETCH_MAX;
	stretch = q * q / 256;
	if (stretch < 1)
		stretch = 1;
	if (stretch > EIP93_ADAPT_STRETCH_MAX)
		stretch = EIP93_ADAPT_STRETCH_MAX;
	since = LD(c->since) + 1;
	if (since >= a->explore * (unsigned int)stretch) {
		ST(c->since, 0);
		return engine ? EIP93_ADAPT_EXPLORE_SW : EIP93_ADAPT_EXPLORE_ENGINE;
	}
	ST(c->since, since);
	return engine ? EIP93_ADAPT_GO_ENGINE : EIP93_ADAPT_GO_SW;
}
