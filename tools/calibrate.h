// SPDX-License-Identifier: Apache-2.0
/*
 * `eip93-doctor calibrate`: measure the engine path against the default
 * provider on this box and write the calibration the provider reads
 * (docs/performance.md).  calibrate.c measures, calib_opts.c reads the
 * options (calib_opts.h), calib_report.c prints the table, writes the file
 * and draws the plot (calib_report.h).
 */
#ifndef EIP93_TOOLS_CALIBRATE_H
#define EIP93_TOOLS_CALIBRATE_H

/* eip93_calibrate_main() - the subcommand; argv[0] is "calibrate". */
int eip93_calibrate_main(int argc, char **argv);

#endif /* EIP93_TOOLS_CALIBRATE_H */
