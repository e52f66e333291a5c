// SPDX-License-Identifier: Apache-2.0
/* `eip93-doctor calibrate`'s options and --if-needed (tools/calib_opts.c). */
#ifndef EIP93_TOOLS_CALIB_OPTS_H
#define EIP93_TOOLS_CALIB_OPTS_H

#include <stddef.h>

struct calib_opts {
	const char *output;
	const char *plot;
	unsigned int rounds;
	unsigned int time_ms;
	int dry_run;
	int if_needed;
};

/* calib_parse_opts() - the subcommand's options; -1 after printing the usage. */
int calib_parse_opts(int argc, char **argv, struct calib_opts *o);

/* calib_needed() - --if-needed: 0 when @path is current, else 1 with @why. */
int calib_needed(const char *path, char *why, size_t len);

#endif /* EIP93_TOOLS_CALIB_OPTS_H */
