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

	snprintf(path, sizeof(path), "%s/%s", sysfs_dir, name);
	return sim_read(path);
}

int knob_set(const char *name, long long v)
{
	char path[256];
	int r;

	snprintf(path, sizeof(path), "%s/%s", sysfs_dir, name);
	r = sim_write(path, v);
	if (r != 0)
		note("cannot write %lld to %s: %s", v, path, strerror(-r));
	return r == 0;
}
