// SPDX-License-Identifier: Apache-2.0
/* `eip93-doctor calibrate`'s clocks and medians (tools/calib_time.h). */
#include "calib_time.h"

#include <stdlib.h>
#include <string.h>

double calib_now(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double calib_round3(double mbs)
{
	return (double)(long long)(mbs * 1000.0 + 0.5) / 1000.0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static struct eip93_calib_stat stat_of(double *v, unsigned int n)
{
	struct eip93_calib_stat s;

	qsort(v, n, sizeof(*v), cmp_double);
	s.min = v[0];
	s.max = v[n - 1];
	s.med = n % 2 ? v[n / 2] : calib_round3((v[n / 2 - 1] + v[n / 2]) / 2);
	return s;
}

void calib_store(struct eip93_calib_stat *st, double *stcpu, const double *v, const double *cpu,
		 unsigned int n)
{
	double a[CALIB_MAX_ROUNDS];

	memcpy(a, v, sizeof(a[0]) * n);
	*st = stat_of(a, n);
	memcpy(a, cpu, sizeof(a[0]) * n);
	*stcpu = stat_of(a, n).med;
}
