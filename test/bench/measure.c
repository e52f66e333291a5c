// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-bench: the measurement of a row: contenders alternating sample by
 * sample over rounds, the median time per message of each, the ratios; and
 * the table's number formatting.
 */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- measurement -------------------------------------------------------- */

int run_n(const struct contender *c, long n)
{
	for (long i = 0; i < n; i++)
		if ((c->prep != NULL && c->prep(c->st) != 0) || c->op(c->st) != 0)
			return -1;
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Time @n messages, each from just before its op to just after. */
static int timed(const struct contender *c, long n, double *secs)
{
	double acc = 0;

	for (long i = 0; i < n; i++) {
		double t0;

		if (c->prep != NULL && c->prep(c->st) != 0)
			return -1;
		t0 = now_s();
		if (c->op(c->st) != 0)
			return -1;
		acc += now_s() - t0;
	}
	*secs = acc;
	return 0;
}

/* Mean of the fastest @keep of @n sorted values. */
static double low_mean(const double *sorted, long n, double keep)
{
	long m = (long)((double)n * keep + 0.5);
	double sum = 0;

	if (m < 1)
		m = 1;
	for (long i = 0; i < m; i++)
		sum += sorted[i];
	return sum / (double)m;
}

#define SAMPLE_S 40e-6 /* a timing sample covers at least this long */
#define MIN_SAMPLES 25 /* per contender and round */

/*
 * Run @k contenders (@c[0] the provider, @c[1] its baseline, the rest
 * auxiliary) for @rounds rounds of about @batch_s seconds of the baseline.
 * Within a round the contenders alternate sample by sample (a sample is g
 * messages, g = 1 for engine-sized messages), rotating the order, so they
 * share the machine's noise; "solo" contenders then run their samples back
 * to back.  Each round gives every contender the median time of its
 * samples, which drops samples hit by preemption.  Only the messages' ops
 * are timed (not the restoring of a decryption's input).
 */
int measure(const struct contender *c, int k, int rounds, double batch_s, struct result *res)
{
	double ratio[MAX_ROUNDS], tratio[MAX_ROUNDS], secs = 0, per_msg;
	double *t[NCONT] = { NULL }, *sys[NCONT] = { NULL }, *user = NULL;
	long n = 1, g = 1, ns, calls[NCONT] = { 0 };
	int rc = -1;

	if (rounds < 1 || rounds > MAX_ROUNDS || k < 2 || k > NCONT)
		return -1;
	memset(res, 0, sizeof(*res));
	/* Warm up (opens the provider's sockets, verifies the key) and calibrate on the baseline. */
	for (int j = 0; j < k; j++)
		if (run_n(&c[j], 2) != 0)
			return -1;
	res->msgs0 = 2;
	if (B.fixed_iters > 0) {
		ns = B.fixed_iters;
	} else {
		for (;;) {
			if (timed(&c[1], n, &secs) != 0)
				return -1;
			if (secs >= batch_s / 10 || n >= (1L << 30))
				break;
			n *= 2;
		}
		per_msg = secs / (double)n;
		if (per_msg > 0 && per_msg < SAMPLE_S)
			g = (long)(SAMPLE_S / per_msg) + 1;
		ns = per_msg > 0 ? (long)(batch_s / (per_msg * (double)g)) : MIN_SAMPLES;
		if (ns < MIN_SAMPLES)
			ns = MIN_SAMPLES; /* a calibration hit by a stall must not leave a round bare */
	}
	res->iters = ns * g;
	res->group = g;
	for (int j = 0; j < k; j++) {
		t[j] = calloc((size_t)ns, sizeof(double));
		sys[j] = calloc((size_t)ns, sizeof(double));
		if (t[j] == NULL || sys[j] == NULL)
			goto out;
	}
	user = calloc((size_t)ns, sizeof(double));
	if (user == NULL)
		goto out;

	for (int r = 0; r < rounds; r++) {
		/* The interleaved contenders, then each solo one; j walks a rotating order. */
		for (int phase = 0; phase <= k; phase++)
			for (long i = 0; i < ns; i++)
				for (int q = 0; q < k; q++) {
					int j = (int)((r + i + q) % k);
					double sys0 = sys_time;
					long calls0 = sys_calls;

					if (phase == 0 ? c[j].solo : j != phase - 1 || !c[j].solo)
						continue;
					if (timed(&c[j], g, &t[j][i]) != 0)
						goto out;
					sys[j][i] = sys_time - sys0;
					calls[j] += sys_calls - calls0;
				}
		res->msgs0 += ns * g;
		for (int j = 0; j < k; j++) {
			double scale = 1e6 / (double)g;

			for (long i = 0; i < ns; i++)
				user[i] = t[j][i] - sys[j][i];
			res->user[j][r] = median(user, (int)ns) * scale;
			res->sys[j][r] = median(sys[j], (int)ns) * scale;
			res->t[j][r] = median(t[j], (int)ns) * scale; /* sorts t[j] */
			res->tm[j][r] = low_mean(t[j], ns, 0.8) * scale;
		}
		ratio[r] = res->t[1][r] / res->t[0][r];
		tratio[r] = res->tm[1][r] / res->tm[0][r];
	}
	res->rounds = rounds;
	for (int j = 0; j < k; j++) {
		double v[MAX_ROUNDS];

		memcpy(v, res->t[j], sizeof(v));
		res->us[j] = median(v, rounds);
		memcpy(v, res->sys[j], sizeof(v));
		res->sys_us[j] = median(v, rounds);
		res->calls[j] = (double)calls[j] / ((double)ns * (double)g * rounds);
	}
	res->tratio = median(tratio, rounds);
	res->ratio = median(ratio, rounds); /* sorts ratio[] */
	res->rmin = ratio[0];
	res->rmax = ratio[rounds - 1];
	rc = 0;
out:
	for (int j = 0; j < k; j++) {
		free(t[j]);
		free(sys[j]);
	}
	free(user);
	return rc;
}

const char *size_str(size_t len, char *buf, size_t bufsz)
{
	if (len >= 1024 && len % 1024 == 0)
		snprintf(buf, bufsz, "%zu KiB", len / 1024);
	else
		snprintf(buf, bufsz, "%zu B", len);
	return buf;
}

double mbps(size_t len, double us)
{
	return (double)len / us; /* bytes per microsecond = MB/s */
}
