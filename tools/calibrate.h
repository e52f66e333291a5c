// SPDX-License-Identifier: Apache-2.0
/*
 * `eip93-doctor calibrate`: measure the engine path against the default
 * provider on this box and write the calibration the provider reads
 * (docs/performance.md).  calibrate.c measures, calib_report.c prints the
 * table, writes the file and draws the plot.
 */
#ifndef EIP93_TOOLS_CALIBRATE_H
#define EIP93_TOOLS_CALIBRATE_H

#include <stddef.h>
#include <stdio.h>

#include "../provider/calib.h"
#include "../provider/calib_decide.h"
#include "../provider/config.h"

/* Every backend x composition: AF_ALG's four, then /dev/crypto's. */
#define CALIB_NCOMP (2 * EIP93_NKALG)

/* One composition on one backend as the calibration met it. */
struct calib_comp {
	const char *name;		/* eip93_kalg_names[i] */
	int backend;			/* EIP93_BACKEND_AFALG or EIP93_BACKEND_CRYPTODEV */
	char path[96];			/* name, "name@cryptodev" on /dev/crypto: speed lines */
	int bound;			/* the provider's gate opened on it */
	char gate[512];			/* the provider's eip93-gate text */
	struct eip93_calib_table table; /* bound: the measurements */
};

/*
 * The reference rows, measured in the same rounds as the compositions but
 * never routed: software AES-GCM (the default provider) in every cell, and
 * ChaCha20-Poly1305 of the same libcrypto (one key size: cells 2 and 3,
 * encrypt and decrypt, stored at index 0 and 1).  CPU: ns of user + system
 * time of this process per byte (medians).
 */
struct calib_run {
	struct calib_comp comp[CALIB_NCOMP];
	struct eip93_calib_stat sw[EIP93_CALIB_NSIZES][EIP93_CALIB_NCELLS]; /* shared software */
	double sw_cpu[EIP93_CALIB_NSIZES][EIP93_CALIB_NCELLS];
	int chacha_ok; /* measured (the libcrypto has ChaCha20-Poly1305) */
	struct eip93_calib_stat chacha[EIP93_CALIB_NSIZES][2];
	double chacha_cpu[EIP93_CALIB_NSIZES][2];
	unsigned int rounds;
	char provider_version[64];
};

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

/*
 * calib_print_speeds() - one "speed BYTES PATH MB/s CPU-ns/B" line per size
 * and path (software AES-128/256-GCM, ChaCha20-Poly1305, each measured
 * composition's AES-128/256-GCM; MB/s the mean of the encrypt and decrypt
 * medians): the part of the file the doctor's recommendation reads.
 */
void calib_print_speeds(FILE *f, const struct calib_run *run, const char *prefix);

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
