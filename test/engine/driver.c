// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-engine-check: the simulated EIP93 driver's knobs and counters, read
 * and written under /sys/module/eip93_sim/parameters (or --sysfs DIR).
 */
#include "engine_check.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* ---- the simulated driver's knobs ----------------------------------------- */

const char *sysfs_dir = "/sys/module/eip93_sim/parameters";

/* A knob's value, or -1 if it cannot be read. */
long long knob_get(const char *name)
{
	char path[256];
	long long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", sysfs_dir, name);
	f = fopen(path, "re");
	if (f == NULL)
		return -1;
	if (fscanf(f, "%lld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

int knob_set(const char *name, long long v)
{
	char path[256];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "%s/%s", sysfs_dir, name);
	f = fopen(path, "we");
	if (f == NULL) {
		note("cannot open %s: %s", path, strerror(errno));
		return 0;
	}
	ok = fprintf(f, "%lld\n", v) > 0;
	ok = fclose(f) == 0 && ok;
	if (!ok)
		note("cannot write %lld to %s", v, path);
	return ok;
}
