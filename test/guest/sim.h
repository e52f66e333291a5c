// SPDX-License-Identifier: Apache-2.0
/*
 * What the guest test programs share: the AF_ALG constants older libc
 * headers lack, the AES-GCM sizes, and reading and writing a number in a
 * file (the simulated driver's knobs and counters under
 * /sys/module/eip93_sim/parameters).
 */
#ifndef EIP93_TEST_SIM_H
#define EIP93_TEST_SIM_H

#include <errno.h>
#include <stdio.h>

#ifndef AF_ALG
#define AF_ALG 38
#endif
#ifndef SOL_ALG
#define SOL_ALG 279
#endif

#define IVLEN 12
#define TAGLEN 16

/* The number in the file at path, or -1 if it cannot be read. */
static inline long long sim_read(const char *path)
{
	long long v = -1;
	FILE *f = fopen(path, "re");

	if (f == NULL)
		return -1;
	if (fscanf(f, "%lld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

/* Write v and a newline to the file at path: 0, or a negative errno. */
static inline int sim_write(const char *path, long long v)
{
	FILE *f = fopen(path, "we");
	int r;

	if (f == NULL)
		return -errno;
	r = fprintf(f, "%lld\n", v) > 0 ? 0 : -EIO;
	if (fclose(f) != 0)
		r = -EIO;
	return r;
}

#endif
