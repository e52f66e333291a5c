// SPDX-License-Identifier: Apache-2.0
/*
 * detect/sandbox.c: the "Seccomp:" line of /proc/self/status, wherever it lies
 * and in whatever pieces read() returns it (with many
 * supplementary groups it lies past the first 4 KiB).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "../../detect/sandbox.h"

/* The verdict on @text fed in pieces of @piece bytes. */
static int verdict(const char *text, size_t piece)
{
	struct eip93_status_scan s;
	size_t len = strlen(text);

	eip93_status_init(&s);
	for (size_t off = 0; off < len; off += piece)
		if (eip93_status_feed(&s, text + off, len - off < piece ? len - off : piece))
			break;
	return eip93_status_verdict(&s);
}

/* The same for every piece size from 1 to @max: all must give @want. */
static void every_piece(const char *text, size_t max, int want)
{
	int bad = 0;

	for (size_t piece = 1; piece <= max; piece++)
		bad |= verdict(text, piece) != want;
	CHECK(!bad);
	if (bad)
		fprintf(stderr, "  on: %.60s...\n", text);
}

/* A status with a Groups line of @ngroups groups before its Seccomp line. */
static char *status_with_groups(unsigned int ngroups, const char *seccomp)
{
	size_t cap = 512 + (size_t)ngroups * 8 + strlen(seccomp);
	char *t = malloc(cap);
	size_t n;

	if (t == NULL)
		abort();
	n = (size_t)snprintf(t, cap, "Name:\ttest\nUmask:\t0022\nState:\tR (running)\nGroups:\t");
	for (unsigned int i = 0; i < ngroups; i++)
		n += (size_t)snprintf(t + n, cap - n, "%u ", 100000 + i);
	snprintf(t + n, cap - n,
		 "\nNoNewPrivs:\t0\n%sSeccomp_filters:\t0\nSpeculation_Store_Bypass:\tthread "
		 "vulnerable\n",
		 seccomp);
	return t;
}

int main(void)
{
	char *big;

	every_piece("Name:\tx\nSeccomp:\t0\nSeccomp_filters:\t0\n", 40, 0);
	every_piece("Name:\tx\nSeccomp:\t2\nSeccomp_filters:\t1\n", 40, 1);
	every_piece("Name:\tx\nSeccomp:\t1\n", 20, 1);
	every_piece("Seccomp:   0\n", 13, 0);	     /* the first line; blanks */
	every_piece("Name:\tx\nSeccomp:\t0", 20, 0); /* the last line, no newline */
	every_piece("Name:\tx\nSeccomp:\t02\n", 20, 1);
	every_piece("Name:\tx\nSeccomp:\t0 \n", 20, 1);
	every_piece("Name:\tx\nSeccomp:\t\n", 20, 1);
	every_piece("Name:\tx\nSeccomp_filters:\t0\n", 30, 1); /* no Seccomp line */
	every_piece("Name:\tSeccomp:\t0\n", 20, 1);	       /* not at a line start */
	every_piece("Name:\tx\nXSeccomp:\t0\nSeccomp:\t2\n", 30, 1);
	every_piece("Name:\tx\nSeccomp:\t2\nSeccomp:\t0\n", 30, 1); /* the first one counts */
	every_piece("", 1, 1);

	/* 700 supplementary groups: the line lies past 4 KiB. */
	big = status_with_groups(700, "Seccomp:\t0\n");
	CHECK(strstr(big, "\nSeccomp:") - big > 4096);
	every_piece(big, 64, 0);
	CHECK_EQ_INT(verdict(big, 1024), 0);
	CHECK_EQ_INT(verdict(big, 4096), 0);
	free(big);
	big = status_with_groups(700, "Seccomp:\t2\n");
	CHECK_EQ_INT(verdict(big, 1024), 1);
	free(big);
	return check_done("test_sandbox");
}
