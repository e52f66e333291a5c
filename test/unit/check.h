// SPDX-License-Identifier: Apache-2.0
/* Minimal assertions for host unit tests: each failure names its line. */
#ifndef EIP93_TEST_CHECK_H
#define EIP93_TEST_CHECK_H

#include <stdio.h>

static int check_failures;
static int check_count;

#define CHECK(cond)                                                                                \
	do {                                                                                       \
		check_count++;                                                                     \
		if (!(cond)) {                                                                     \
			check_failures++;                                                          \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);   \
		}                                                                                  \
	} while (0)

#define CHECK_EQ_INT(a, b)                                                                         \
	do {                                                                                       \
		long long a_ = (long long)(a), b_ = (long long)(b);                                \
		check_count++;                                                                     \
		if (a_ != b_) {                                                                    \
			check_failures++;                                                          \
			fprintf(stderr, "%s:%d: %s == %lld, expected %s == %lld\n", __FILE__,      \
				__LINE__, #a, a_, #b, b_);                                         \
		}                                                                                  \
	} while (0)

/* Print the closing line and return the exit status. */
static inline int check_done(const char *name)
{
	printf("%s: %d passed, %d failed\n", name, check_count - check_failures, check_failures);
	return check_failures == 0 ? 0 : 1;
}

#endif
