// SPDX-License-Identifier: Apache-2.0
/*
 * What `eip93-doctor calibrate` measured (struct calib_run, filled by
 * tools/calibrate.c) and how it is reported (tools/calib_report.c): the
 * table, the speed lines, the file and the plot.
 */
#ifndef EIP93_TOOLS_CALIB_REPORT_H
#define EIP93_TOOLS_CALIB_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "../engine/engine.h"
#include "../provider/calib.h"
#include "../provider/calib_decide.h"
#include "../provider/soc.h"

/* Every engine row x composition slot: the first row's, then the next row's. */
#define CALIB_NCOMP (EIP93_NENGINES * EIP93_SOC_MAX_COMPS)

/* One composition on one engine row as the calibration met it (@name NULL: an unused slot). */
struct calib_comp {
	const char *name; /* the SoC row's composition (its kalg) */
	int backend;	  /* the engine row's id (EIP93_BACKEND_*) */
	char path[96];	  /* name, "name@<row>" on the rows after the first */
	int bound;	  /* the provider's gate opened on it */
	int forced;	  /* the gate tries it only when named (measured, chosen last) */
	char gate[512];	  /* the provider's eip93-gate text */
	struct eip93_calib_table table; /* bound: the measurements */
};

/* AES-CTR or AES-CBC (enum eip93_calib_mode) on one engine row (tools/calib_modes.c). */
struct calib_skc {
	int bound;     /* eip93 offers the mode there and its warm-up was the engine's */
	char path[96]; /* the mode's kernel algorithm, "@<row>" after the first row */
	struct eip93_calib_table table; /* software and this row's engine: 128/256, enc/dec */
};

/*
 * A TLS 1.2 CBC suite's two passes over a full record (ADV_TLS_RECORD bytes):
 * the default provider's HMAC-SHA256 and AES-128-CBC of the record, its MAC
 * and a padding block, the CBC in software ([0]) or on row r's engine
 * ([1 + r]); encrypt (MAC, then CBC) and decrypt (CBC, then MAC checked).
 */
struct calib_tls12 {
	int ok[1 + EIP93_NENGINES];
	struct eip93_calib_stat v[1 + EIP93_NENGINES][2];
	double cpu[1 + EIP93_NENGINES][2];
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
	struct calib_skc skc[EIP93_CALIB_NMODES][EIP93_NENGINES]; /* AES-CTR, AES-CBC per row */
	struct calib_tls12 tls12;
};

/*
 * calib_print_speeds() - one "speed BYTES PATH MB/s CPU-ns/B" line per size
 * and path (software AES-128/256-GCM, ChaCha20-Poly1305, each measured
 * composition's AES-128/256-GCM, software and each row's AES-128/256-CTR
 * and -CBC, and at ADV_TLS_RECORD AES-128-CBC + HMAC-SHA256 (calib_tls12);
 * MB/s the mean of the encrypt and decrypt medians): the part of the file
 * the doctor's recommendation reads.
 */
void calib_print_speeds(FILE *f, const struct calib_run *run, const char *prefix);

/*
 * calib_print_table() - the measured table of every bound composition, then
 * of AES-CTR and AES-CBC on each row ("mode aes-cbc cbc(aes-eip93): ..."),
 * and their verdicts.
 */
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

#endif /* EIP93_TOOLS_CALIB_REPORT_H */
