// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-adapt-check: adaptive routing in the guest, with the simulated
 * driver's timing model (/sys/module/eip93_sim/parameters).
 *
 *   eip93-adapt-check shift [SIZE]
 *       One thread, adaptive routing (adaptive-explore = 8), SIZE-byte
 *       (16384) AES-128-GCM encryptions: the engine at full speed, then made
 *       much slower (latency_us = 500000), then at full speed again.  In the
 *       TCG guest the simulated engine at full speed is slower than software
 *       (it computes on the guest's CPU, behind cross-vCPU wake-ups), so the
 *       test keeps it while it costs up to 40x software
 *       (adaptive-engine-weight = 4000); slowed, it costs far more.  Checks,
 *       from the provider's counters read after every message: the shift to
 *       software within a bounded number of messages, exploration bounded,
 *       and the return once the engine is fast again.  Outcomes, not times.
 *   eip93-adapt-check bench [--rounds N] [--ms MS] [--size BYTES]
 *       Aggregate MB/s at 1, 2, 4, 8 threads for software only, the engine
 *       only (routing = fixed) and adaptive: one pool of threads per route
 *       and thread count (adapt_pool.h: each thread's context, so its key,
 *       kept for the whole run), N rounds of MS-ms slices with the routes'
 *       turns rotated each round, medians; the engine's rate set to the
 *       measured one-thread software rate first; then the mid-run
 *       slow-down.  Targets printed, never asserted.
 *
 * Each routing is its own library context with its own provider instance.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#include "adapt_pool.h"
#include "../guest/sim.h"

#define SIMP "/sys/module/eip93_sim/parameters/"
#define MAXT POOL_MAXT

enum route { R_SW, R_FIXED, R_ADAPT, R_N };

struct lib {
	OSSL_LIB_CTX *lib;
	OSSL_PROVIDER *prov; /* eip93, NULL for software */
	EVP_CIPHER *c;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int sim_set(const char *name, unsigned long v)
{
	char path[128];

	snprintf(path, sizeof(path), SIMP "%s", name);
	return sim_write(path, (long long)v);
}

/* A library context whose eip93 section says @lines; software: default only. */
static int lib_open(struct lib *l, enum route r, const char *lines)
{
	char path[64];
	FILE *f;

	memset(l, 0, sizeof(*l));
	l->lib = OSSL_LIB_CTX_new();
	if (l->lib == NULL)
		return -1;
	if (r != R_SW) {
		snprintf(path, sizeof(path), "/tmp/adapt-%d.cnf", (int)r);
		f = fopen(path, "w");
		if (f == NULL)
			return -1;
		fprintf(f,
			"openssl_conf = openssl_init\n[openssl_init]\nproviders = ps\n"
			"[ps]\ndefault = ds\neip93 = es\n[ds]\nactivate = 1\n"
			"[es]\nactivate = 1\n%s\n",
			lines);
		fclose(f);
		if (!OSSL_LIB_CTX_load_config(l->lib, path))
			return -1;
		l->prov = OSSL_PROVIDER_load(l->lib, "eip93");
		l->c = EVP_CIPHER_fetch(l->lib, "AES-128-GCM", "provider=eip93");
	} else {
		if (OSSL_PROVIDER_load(l->lib, "default") == NULL)
			return -1;
		l->c = EVP_CIPHER_fetch(l->lib, "AES-128-GCM", "provider=default");
	}
	return l->c == NULL || (r != R_SW && l->prov == NULL) ? -1 : 0;
}

/* The counters adaptive routing is judged by. */
struct counts {
	uint64_t eng, sw_adapt, x_eng, x_sw, sw_all;
};

static int counts_get(const struct lib *l, struct counts *c)
{
	OSSL_PARAM q[6];

	q[0] = OSSL_PARAM_construct_uint64("eip93-engine-messages", &c->eng);
	q[1] = OSSL_PARAM_construct_uint64("eip93-software-messages-adaptive", &c->sw_adapt);
	q[2] = OSSL_PARAM_construct_uint64("eip93-adaptive-explore-engine", &c->x_eng);
	q[3] = OSSL_PARAM_construct_uint64("eip93-adaptive-explore-software", &c->x_sw);
	q[4] = OSSL_PARAM_construct_uint64("eip93-software-messages", &c->sw_all);
	q[5] = OSSL_PARAM_construct_end();
	return l->prov != NULL && OSSL_PROVIDER_get_params(l->prov, q) ? 0 : -1;
}

struct worker {
	pthread_t t;
	const EVP_CIPHER *c;
	size_t len;
	atomic_int *stop;
	_Atomic uint64_t bytes;
	int err;
};

static void *work(void *arg)
{
	struct worker *w = arg;
	EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
	unsigned char *buf = calloc(1, w->len);
	uint64_t ctr = (uint64_t)(uintptr_t)w << 20;

	w->err = x == NULL || buf == NULL;
	while (!w->err && !atomic_load(w->stop)) {
		if (pool_one(x, w->c, buf, w->len, &ctr) < 0)
			w->err = 1;
		else
			atomic_fetch_add_explicit(&w->bytes, w->len, memory_order_relaxed);
	}
	EVP_CIPHER_CTX_free(x);
	free(buf);
	return NULL;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of @n (at most 32) values, left in their order. */
static double median(const double *v, int n)
{
	double s[32];

	if (n > 32)
		n = 32;
	memcpy(s, v, (size_t)n * sizeof(*v));
	qsort(s, (size_t)n, sizeof(*s), cmp_d);
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

static int pass, fail;

static void ok(int cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void ok(int cond, const char *fmt, ...)
{
	va_list ap;

	printf(cond ? "ok - " : "not ok - ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (cond)
		pass++;
	else
		fail++;
}

#define EXPLORE 8
/*
 * The return's bound by design: the first exploration of the engine within
 * EXPLORE * EIP93_ADAPT_STRETCH_MAX (64) messages, its confirmation at once.
 */
#define RETURN_BOUND (EXPLORE * 64 + 2)
/* phase 3's length: its last half, where the engine must carry the load, starts after the bound */
#define RETURN_N (2 * RETURN_BOUND + 128)

/* One phase of @n messages: where each went, from the counters. */
struct phase {
	int eng, sw_adapt, x_eng, x_sw;
	int first_sw;  /* index of the first message sent to software by the estimate, or -1 */
	int first_eng; /* index of the first message sent to the engine by the estimate, or -1 */
	int eng_tail;  /* engine messages in the last half */
};

static int phase_run(const struct lib *l, EVP_CIPHER_CTX *x, unsigned char *buf, size_t len, int n,
		     uint64_t *ctr, struct phase *ph)
{
	struct counts a, b;

	memset(ph, 0, sizeof(*ph));
	ph->first_sw = ph->first_eng = -1;
	if (counts_get(l, &a) < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		if (pool_one(x, l->c, buf, len, ctr) < 0 || counts_get(l, &b) < 0)
			return -1;
		if (b.eng > a.eng) {
			ph->eng++;
			if (i >= n / 2)
				ph->eng_tail++;
			if (b.x_eng > a.x_eng)
				ph->x_eng++;
			else if (ph->first_eng < 0)
				ph->first_eng = i;
		} else if (b.sw_adapt > a.sw_adapt) {
			ph->sw_adapt++;
			if (b.x_sw > a.x_sw)
				ph->x_sw++;
			else if (ph->first_sw < 0)
				ph->first_sw = i;
		}
		a = b;
	}
	printf("#   %d messages: engine %d (explorations %d), software by the estimate %d "
	       "(explorations %d); first by the estimate: software at %d, engine at %d\n",
	       n, ph->eng, ph->x_eng, ph->sw_adapt, ph->x_sw, ph->first_sw, ph->first_eng);
	return 0;
}

/*
 * The shift and the return.  Bounds by design (alg/adapt.h): the median of
 * three moves after 2 slow samples, a level shift is taken at once, so the
 * estimate says software by the 3rd message (+1 if an exploration of
 * software falls in between); the engine is explored 1 in EXPLORE messages
 * stretched by the square of the cost ratio (at most 64x), and is back once a fast sample
 * is confirmed by the next message (RETURN_BOUND).
 */
static int cmd_shift(size_t len, unsigned long slow_us)
{
	struct lib l;
	struct phase a, b, c;
	EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
	unsigned char *buf = calloc(1, len);
	uint64_t ctr = 1;
	char lines[160];

	snprintf(lines, sizeof(lines),
		 "routing = adaptive\nadaptive-explore = %d\nadaptive-engine-weight = 4000\n"
		 "timeout-ms = 5000",
		 EXPLORE);
	if (x == NULL || buf == NULL || lib_open(&l, R_ADAPT, lines) < 0 ||
	    sim_set("latency_us", 0) < 0 || sim_set("rate", 0) < 0) {
		printf("not ok - setup\n");
		fail++;
		goto out;
	}
	printf("# phase 1: the engine at full speed, %zu-byte messages\n", len);
	if (phase_run(&l, x, buf, len, 64, &ctr, &a) < 0)
		goto err;
	ok(a.eng_tail >= 24, "full speed: the engine carries the load (%d of the last 32)",
	   a.eng_tail);
	printf("# phase 2: the engine made much slower (latency_us = %lu)\n", slow_us);
	if (sim_set("latency_us", slow_us) < 0 || phase_run(&l, x, buf, len, 48, &ctr, &b) < 0)
		goto err;
	ok(b.first_sw >= 0 && b.first_sw <= 3, "shift to software within 3 messages (at %d)",
	   b.first_sw);
	ok(b.eng - b.x_eng <= 3, "engine messages before the shift: %d (bound 3)", b.eng - b.x_eng);
	ok(b.x_eng <= 48 / EXPLORE + 1, "explorations of the slow engine: %d (bound %d)", b.x_eng,
	   48 / EXPLORE + 1);
	printf("# phase 3: the engine at full speed again\n");
	if (sim_set("latency_us", 0) < 0 || phase_run(&l, x, buf, len, RETURN_N, &ctr, &c) < 0)
		goto err;
	ok(c.first_eng >= 0 && c.first_eng <= RETURN_BOUND,
	   "return to the engine within %d messages (at %d)", RETURN_BOUND, c.first_eng);
	ok(c.eng_tail >= RETURN_N / 2 * 3 / 4,
	   "recovered: the engine carries the load again (%d of the last %d)", c.eng_tail,
	   RETURN_N / 2);
	goto out;
err:
	printf("not ok - a message or a counter failed\n");
	fail++;
out:
	(void)sim_set("latency_us", 0);
	EVP_CIPHER_CTX_free(x);
	free(buf);
	printf("# %d passed, %d failed\n", pass, fail);
	return fail != 0;
}

static const int threads[] = { 1, 2, 4, 8 };
#define NT 4

/* The mid-run slow-down: MB/s and where messages went, segment by segment. */
static void slowdown(int nt, int ms, size_t len, unsigned long slow_us)
{
	static const int slow[] = { 0, 0, 1, 1, 0, 0 };
	struct counts a, b;
	struct lib lw, *l = &lw;
	struct worker w[MAXT];
	atomic_int stop = 0;
	uint64_t prev = 0, now;
	double t0, t1;

	/*
	 * as in `shift`: the engine kept while it costs up to 40x software, and
	 * explored 1 in 8 messages (stretched), so that the return (within
	 * 8 * 64 messages per thread) falls inside a segment
	 */
	if (lib_open(l, R_ADAPT,
		     "routing = adaptive\nadaptive-explore = 8\nadaptive-engine-weight = 4000\n"
		     "timeout-ms = 5000") < 0)
		return;
	printf("\nmid-run slow-down, adaptive (adaptive-explore = 8, adaptive-engine-weight = "
	       "4000), %d threads, %d ms segments, engine slowed to latency_us = %lu in segments "
	       "3-4:\n\n",
	       nt, ms, slow_us);
	printf("(the engine kept while it costs up to 40x software: in this guest the simulated "
	       "engine at full speed is rarely cheaper; explored 1 in 8 messages, stretched, so "
	       "that the return, within 8 * 64 messages per thread, shows within a segment)\n\n");
	printf("| segment | engine | MB/s | engine messages | software (adaptive) "
	       "|\n|---|---|---|---|---|\n");
	/* the same threads and contexts throughout: the routing moves, not the keys */
	for (int i = 0; i < nt; i++) {
		w[i] = (struct worker){ .c = l->c, .len = len, .stop = &stop };
		if (pthread_create(&w[i].t, NULL, work, &w[i]) != 0)
			nt = i;
	}
	usleep(200000); /* keys opened and checked at full speed */
	for (int s = 0; s < 6; s++) {
		if (sim_set("latency_us", slow[s] ? slow_us : 0) < 0 || counts_get(l, &a) < 0)
			break;
		t0 = now_s();
		usleep((useconds_t)ms * 1000);
		t1 = now_s();
		now = 0;
		for (int i = 0; i < nt; i++)
			now += atomic_load_explicit(&w[i].bytes, memory_order_relaxed);
		if (counts_get(l, &b) < 0)
			break;
		printf("| %d | %s | %.2f | %llu | %llu |\n", s + 1, slow[s] ? "slow" : "normal",
		       (double)(now - prev) / (t1 - t0) / 1e6, (unsigned long long)(b.eng - a.eng),
		       (unsigned long long)(b.sw_adapt - a.sw_adapt));
		prev = now;
	}
	(void)sim_set("latency_us", 0);
	atomic_store(&stop, 1);
	for (int i = 0; i < nt; i++)
		pthread_join(w[i].t, NULL);
}

#define TURN_MS 100 /* a round's MS ms per route are run in turns of about this */

/* The bench's pools: one per route and thread count, kept for the whole run. */
static void pools_close(struct pool pl[R_N][NT])
{
	for (int r = 0; r < R_N; r++)
		for (int t = 0; t < NT; t++)
			if (pl[r][t].nt > 0)
				pool_close(&pl[r][t]);
}

static void bench_table(double v[R_N][NT][16], const double *share, int rounds, int ms, size_t len)
{
	double med[R_N], paired[16], best;
	int met = 1;

	printf("\n%zu-byte AES-128-GCM encryptions, aggregate MB/s, medians of %d rounds of %d ms "
	       "per route and thread count (run in turns of about %d ms, the routes' order rotated "
	       "every turn; threads and contexts kept for the run; QEMU TCG guest, -smp 2, no KVM, "
	       "2 shared host cores):\n\n",
	       len, rounds, ms, ms >= 2 * TURN_MS ? ms / (ms / TURN_MS) : ms);
	printf("| threads | software | engine (fixed) | adaptive | adaptive / better | "
	       "adaptive messages on the engine | adaptive / better, per round (median) |\n"
	       "|---|---|---|---|---|---|---|\n");
	for (int t = 0; t < NT; t++) {
		for (int k = 0; k < rounds; k++) {
			best = v[R_SW][t][k] > v[R_FIXED][t][k] ? v[R_SW][t][k] : v[R_FIXED][t][k];
			paired[k] = v[R_ADAPT][t][k] / best;
		}
		for (int r = 0; r < R_N; r++)
			med[r] = median(v[r][t], rounds);
		best = med[R_SW] > med[R_FIXED] ? med[R_SW] : med[R_FIXED];
		printf("| %d | %.2f | %.2f | %.2f | %.3fx | %.2f%% | %.3fx |\n", threads[t],
		       med[R_SW], med[R_FIXED], med[R_ADAPT], med[R_ADAPT] / best, 100 * share[t],
		       median(paired, rounds));
		met &= med[R_ADAPT] >= 0.95 * best;
	}
	printf("\nthe rounds, MB/s (software / engine / adaptive):\n");
	for (int t = 0; t < NT; t++) {
		printf("  %d thread%s:", threads[t], threads[t] > 1 ? "s" : "");
		for (int k = 0; k < rounds; k++)
			printf(" %.1f/%.1f/%.1f", v[R_SW][t][k], v[R_FIXED][t][k],
			       v[R_ADAPT][t][k]);
		printf("\n");
	}
	printf("\ntarget adaptive >= 0.95x the better at every thread count (medians): %s "
	       "(printed, not asserted)\n",
	       met ? "met" : "NOT met");
}

/*
 * Round @k at thread count @t: each route runs @ms ms in turns of about
 * TURN_MS, the routes taking turns in an order rotated every turn, so that
 * what the host does meanwhile falls on all three alike; v[r][t][k] is the
 * route's MB/s over its turns, eng and all count adaptive's messages.
 */
static int bench_round(struct pool pl[R_N][NT], int t, int k, int ms, const struct lib *la,
		       double v[R_N][NT][16], uint64_t *eng, uint64_t *all)
{
	int turns = ms >= 2 * TURN_MS ? ms / TURN_MS : 1, r;
	double bytes[R_N] = { 0 }, secs[R_N] = { 0 }, b, s;
	struct counts c0, c1;

	for (int j = 0; j < turns; j++)
		for (int i = 0; i < R_N; i++) {
			r = (i + j + k + t) % R_N;
			if (r == R_ADAPT && counts_get(la, &c0) < 0)
				return 1;
			b = pool_slice(&pl[r][t], ms / turns, &s);
			if (b < 0)
				return 1;
			bytes[r] += b;
			secs[r] += s;
			if (r == R_ADAPT && counts_get(la, &c1) == 0) {
				eng[t] += c1.eng - c0.eng;
				all[t] += c1.eng + c1.sw_all - c0.eng - c0.sw_all;
			}
		}
	for (r = 0; r < R_N; r++)
		v[r][t][k] = bytes[r] / secs[r] / 1e6;
	return 0;
}

static int cmd_bench(int rounds, int ms, size_t len)
{
	static struct pool pl[R_N][NT];
	struct lib l[R_N];
	double v[R_N][NT][16], sw1[3], share[NT];
	uint64_t eng[NT] = { 0 }, all[NT] = { 0 };
	unsigned long rate;
	int r, err = 0;

	if (rounds > 16)
		rounds = 16;
	if (lib_open(&l[R_SW], R_SW, "") < 0 ||
	    lib_open(&l[R_FIXED], R_FIXED, "routing = fixed") < 0 ||
	    lib_open(&l[R_ADAPT], R_ADAPT, "routing = adaptive") < 0 ||
	    sim_set("latency_us", 0) < 0 || sim_set("rate", 0) < 0) {
		printf("bench: setup failed (root, the simulated driver, the hooks build?)\n");
		return 1;
	}
	for (r = 0; r < R_N; r++)
		for (int t = 0; t < NT; t++)
			err |= pool_open(&pl[r][t], l[r].c, threads[t], len);
	for (int i = 0; i < 3 && !err; i++)
		sw1[i] = pool_mbs(&pl[R_SW][0], ms);
	rate = err ? 0 : (unsigned long)(median(sw1, 3) * 1e6);
	if (err || sim_set("rate", rate) < 0) {
		printf("bench: threads or the engine's rate could not be set\n");
		pools_close(pl);
		return 1;
	}
	printf("software, one thread: %.2f MB/s; the simulated engine's rate set to %lu B/s\n",
	       (double)rate / 1e6, rate);
	/* warm: every thread's key opened and checked, the estimates seeded */
	for (int t = 0; t < NT; t++)
		for (r = 0; r < R_N; r++)
			(void)pool_mbs(&pl[r][t], ms / 2);
	for (int k = 0; k < rounds; k++)
		for (int t = 0; t < NT; t++)
			err |= bench_round(pl, t, k, ms, &l[R_ADAPT], v, eng, all);
	for (int t = 0; t < NT; t++)
		share[t] = all[t] > 0 ? (double)eng[t] / (double)all[t] : 0;
	pools_close(pl);
	if (err) {
		printf("bench: a message or a counter failed\n");
		return 1;
	}
	bench_table(v, share, rounds, ms, len);
	(void)sim_set("rate", 0);
	slowdown(2, 1500, len, 200000);
	return 0;
}

/* probe: one thread, software and fixed engine, at the driver's current settings. */
static int cmd_probe(int ms, size_t len)
{
	struct lib s, f;
	struct pool ps, pf;

	if (lib_open(&s, R_SW, "") < 0 ||
	    lib_open(&f, R_FIXED, "routing = fixed\nmax-size = 65536") < 0 ||
	    pool_open(&ps, s.c, 1, len) < 0 || pool_open(&pf, f.c, 1, len) < 0)
		return 1;
	for (int i = 0; i < 3; i++)
		printf("%zu bytes: software %.2f MB/s, engine %.2f MB/s\n", len, pool_mbs(&ps, ms),
		       pool_mbs(&pf, ms));
	pool_close(&ps);
	pool_close(&pf);
	return 0;
}

int main(int argc, char **argv)
{
	int rounds = 3, ms = 400;
	size_t len = 16384;
	unsigned long slow_us = 500000;

	if (argc < 2) {
		fprintf(stderr, "usage: eip93-adapt-check shift|bench|probe [--rounds N] [--ms MS] "
				"[--size BYTES] [--slow-us US]\n");
		return 2;
	}
	for (int i = 2; i + 1 < argc; i += 2) {
		if (strcmp(argv[i], "--rounds") == 0)
			rounds = atoi(argv[i + 1]);
		else if (strcmp(argv[i], "--ms") == 0)
			ms = atoi(argv[i + 1]);
		else if (strcmp(argv[i], "--size") == 0)
			len = (size_t)strtoul(argv[i + 1], NULL, 10);
		else if (strcmp(argv[i], "--slow-us") == 0)
			slow_us = strtoul(argv[i + 1], NULL, 10);
	}
	if (rounds < 1 || ms < 10 || len < 16 || len > 65536)
		return 2;
	if (strcmp(argv[1], "shift") == 0)
		return cmd_shift(len, slow_us);
	if (strcmp(argv[1], "bench") == 0)
		return cmd_bench(rounds, ms, len);
	if (strcmp(argv[1], "probe") == 0)
		return cmd_probe(ms, len);
	return 2;
}
