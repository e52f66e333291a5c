// SPDX-License-Identifier: Apache-2.0
/* The cost estimator and the adaptive decision (see adapt.h); pure, no clock. */
#include "adapt.h"

#include <string.h>

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

static uint64_t median(const struct eip93_adapt_path_est *p)
{
	uint64_t v[EIP93_ADAPT_WINDOW], t;
	unsigned int n = 0;

	for (unsigned int i = 0; i < EIP93_ADAPT_WINDOW; i++) {
		t = LD(p->sample[i]);
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

void eip93_adapt_record(struct eip93_adapt_class *c, enum eip93_adapt_path path, size_t len,
			uint64_t ns)
{
	struct eip93_adapt_path_est *p = &c->path[path];
	unsigned int cls = eip93_adapt_class_of(len), i;
	uint64_t base = (uint64_t)16 << cls, norm, med, est;

	if (len == 0)
		return;
	/* normalised to the class's smallest size, so one class's sizes compare */
	if (ns > ((uint64_t)1 << 40))
		ns = (uint64_t)1 << 40; /* 18 minutes: keeps the product below 2^57 */
	norm = ns * base / len;
	if (norm == 0)
		norm = 1; /* 0 means "no sample" */
	i = LD(p->next) % EIP93_ADAPT_WINDOW;
	ST(p->sample[i], norm);
	ST(p->next, (i + 1) % EIP93_ADAPT_WINDOW);
	med = median(p);
	est = LD(p->est);
	/* far below its estimate: confirm at once (a median needs a second sample) */
	if (est != 0 && norm < est / 4)
		ST(c->confirm, (unsigned int)path + 1);
	/* a level shift (4x either way) is taken at once: the median already filtered outliers */
	if (est == 0 || med / 4 > est || est / 4 > med)
		est = med;
	else
		est = est / 2 + med / 2;
	ST(p->est, est);
}

uint64_t eip93_adapt_estimate(const struct eip93_adapt_class *c, enum eip93_adapt_path path)
{
	return LD(c->path[path].est);
}

enum eip93_adapt_choice eip93_adapt_decide(const struct eip93_adapt *a, struct eip93_adapt_class *c)
{
	uint64_t e = LD(c->path[EIP93_ADAPT_ENGINE].est);
	uint64_t s = LD(c->path[EIP93_ADAPT_SW].est);
	uint64_t ew, sw, ratio;
	unsigned int since;
	int engine;

	if (e == 0)
		return EIP93_ADAPT_GO_ENGINE; /* not measured yet: measure it */
	if (s == 0)
		return EIP93_ADAPT_EXPLORE_SW;
	/* estimates are at most 2^40 (record() clamps), so the products fit */
	ew = e * 100;
	sw = s * a->weight;
	engine = ew <= sw;
	if (LD(c->confirm) == (engine ? EIP93_ADAPT_SW : EIP93_ADAPT_ENGINE) + 1u) {
		ST(c->confirm, 0);
		return engine ? EIP93_ADAPT_EXPLORE_SW : EIP93_ADAPT_EXPLORE_ENGINE;
	}
	/*
	 * 1 in explore messages, stretched by how much dearer the other path is
	 * (up to EIP93_ADAPT_STRETCH_MAX times): exploring a path 100x dearer
	 * 1 in 32 messages would spend most of the time there.
	 */
	ratio = engine ? sw / (ew != 0 ? ew : 1) : ew / (sw != 0 ? sw : 1);
	if (ratio < 1)
		ratio = 1;
	if (ratio > EIP93_ADAPT_STRETCH_MAX)
		ratio = EIP93_ADAPT_STRETCH_MAX;
	since = LD(c->since) + 1;
	if (since >= a->explore * (unsigned int)ratio) {
		ST(c->since, 0);
		return engine ? EIP93_ADAPT_EXPLORE_SW : EIP93_ADAPT_EXPLORE_ENGINE;
	}
	ST(c->since, since);
	return engine ? EIP93_ADAPT_GO_ENGINE : EIP93_ADAPT_GO_SW;
}
