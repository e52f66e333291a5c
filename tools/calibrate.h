// SPDX-License-Identifier: Apache-2.0
/*
 * `eip93-doctor calibrate`: measure the engine path against the default
 * provider on this box and write the calibration the provider reads
 * (docs/performance.md).  calibrate.c measures, calib_report.c prints the
 * table, writes the file and draws the plot.
 */
#ifndef EIP93_TOOLS_CALIBRATE_H
#define EIP93_TOOLS_CALIBRATE_H

#include <stdio.h>

#include "../provider/calib.h"
#include "../provider/calib_decide.h"
#include "../provider/config.h"

/* One composition as the calibration met it. */
struct calib_comp {
	const char *name;		/* eip93_kalg_names[i] */
	int bound;			/* the provider's gate opened on it */
	char gate[512];			/* the provider's eip93-gate text */
	struct eip93_calib_table table; /* bound: the measurements */
};

struct calib_run {
	struct calib_comp comp[EIP93_NKALG];
	struct eip93_calib_stat sw[EIP93_CALIB_NSIZES][EIP93_CALIB_NCELLS]; /* shared software */
	unsigned int rounds;
	char provider_version[64];
};

/* eip93_calibrate_main() - the subcommand; argv[0] is "calibrate". */
int eip93_calibrate_main(int argc, char **argv);

/* calib_print_table() - the measured table of every bound composition, and its verdicts. */
void calib_print_table(FILE *f, const struct calib_run *run, const char *prefix);

/**
 * calib_write_file() - write @c (with the table as comments) to @path: a
 * temporary file in the same directory, fsync, rename (readers see the old
 * or the new file, never a part).  Return: 0 or -errno.
 */
int calib_write_file(const char *path, const struct eip93_calib *c, const struct calib_run *run);

/* calib_check_writable() - can @path be replaced?  0, or -errno (message printed). */
int calib_check_writable(const char *path);

/* calib_plot() - MB/s against payload size, software and each composition, as PNG. */
int calib_plot(const char *png, const struct calib_run *run, const char *title);

#endif /* EIP93_TOOLS_CALIBRATE_H */
