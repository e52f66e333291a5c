// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-engine-check: its "ok - ..." / "not ok - ..." / "# ..." and
 * "measure: ..." lines, the closing "<command>: N passed, M failed" line,
 * and the clock.
 */
#include "engine_check.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <time.h>

/* ---- reporting ------------------------------------------------------------ */

int n_pass, n_fail;
const char *line_prefix = "";

int check(int cond, const char *fmt, ...)
{
	va_list ap;

	printf("%s%s - ", line_prefix, cond ? "ok" : "not ok");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	if (cond)
		n_pass++;
	else
		n_fail++;
	return cond;
}

void note(const char *fmt, ...)
{
	va_list ap;

	printf("%s# ", line_prefix);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

void measure(const char *fmt, ...)
{
	va_list ap;

	printf("measure: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

int finish(const char *cmd)
{
	printf("%s: %d passed, %d failed\n", cmd, n_pass, n_fail);
	fflush(stdout);
	return n_fail == 0 ? 0 : 1;
}

double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

void sleep_ms(unsigned int ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}
