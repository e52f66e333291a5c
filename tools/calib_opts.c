// SPDX-License-Identifier: Apache-2.0
/* `eip93-doctor calibrate`: its options, and whether a calibration is needed (--if-needed). */
#include "calib_opts.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>

#include "../detect/detect.h"
#include "../engine/engine.h"
#include "../provider/calib.h"
#include "../provider/config.h"
#include "../provider/soc.h"
#include "rows.h"

#ifndef EIP93_VERSION
#define EIP93_VERSION "unknown"
#endif

/* What --rounds and --time-ms accept. */
#define ROUNDS_MIN 3
#define ROUNDS_MAX 99
#define TIME_MS_MIN 1
#define TIME_MS_MAX 10000

/* Does @kalg bind on engine row @row?  0 or -errno. */
static int probe(const struct eip93_engine_row *row, const char *kalg)
{
	char driver[128] = "";

	return row->probe(kalg, driver, sizeof(driver));
}

/* Did the calibration at @path measure @kalg (a "# speed ... cipher:KALG ..." line; KALG
 * with "@cryptodev" on /dev/crypto)? */
static int measured(const char *path, const char *kalg)
{
	static char text[65536];
	char want[112];
	FILE *fp = fopen(path, "re");
	size_t n;

	if (fp == NULL)
		return 0;
	n = fread(text, 1, sizeof(text) - 1, fp);
	fclose(fp);
	text[n] = '\0';
	snprintf(want, sizeof(want), "-gcm:%s ", kalg);
	return strstr(text, want) != NULL;
}

/*
 * --if-needed: 0 when @path holds a current calibration (same kernel, OpenSSL
 * and provider version, its composition binds on its backend, and every
 * backend x composition that binds now was measured), else 1 with @why.
 */
int calib_needed(const char *path, char *why, size_t len)
{
	static struct eip93_calib_load l;
	struct eip93_calib_facts f;
	const struct eip93_soc *soc = tools_soc();
	const struct eip93_engine_row *cd;
	char kernel[128], s[400], on[64], bon[64];

	eip93_calib_load(path, &l);
	if (l.state == EIP93_CALIB_ABSENT) {
		snprintf(why, len, "uncalibrated (no %s)", path);
		return 1;
	}
	if (l.state != EIP93_CALIB_LOADED) {
		snprintf(why, len, "%s is invalid (%s)", path, l.error);
		return 1;
	}
	f.kernel = eip93_kernel_release(kernel, sizeof(kernel)) == 0 ? kernel : "unknown";
	f.openssl = OpenSSL_version(OPENSSL_VERSION_STRING);
	f.provider = EIP93_VERSION;
	if (eip93_calib_stale(&l.cal, &f, s, sizeof(s))) {
		snprintf(why, len, "stale: %s", s);
		return 1;
	}
	cd = tools_row(l.cal.backend);
	tools_row_on(cd, on, sizeof(on));
	if (probe(cd, l.cal.composition) != 0) {
		snprintf(why, len, "stale: %s%s no longer binds", l.cal.composition, on);
		return 1;
	}
	/*
	 * A composition on a backend that binds now but was not measured then
	 * (a file from before /dev/crypto was measured has AF_ALG's lines only).
	 */
	for (int b = 0; b < EIP93_NENGINES; b++)
		for (size_t i = 0; i < soc->ncomps; i++) {
			const struct eip93_engine_row *row = &eip93_engine_rows[b];
			const char *kalg = soc->comps[i].kalg;
			char p[96];

			tools_comp_path(p, sizeof(p), kalg, row);
			if (!measured(path, p) && probe(row, kalg) == 0) {
				snprintf(why, len, "%s%s binds now (measured: %s%s)", kalg,
					 tools_row_on(row, bon, sizeof(bon)), l.cal.composition,
					 on);
				return 1;
			}
		}
	/* A mode the winner's backend offers without a window in the file (an older doctor's). */
	for (int m = 0; m < EIP93_CALIB_NMODES; m++) {
		const char *kalg =
			soc->mode[m == EIP93_CALIB_CTR ? EIP93_MODE_CTR : EIP93_MODE_CBC];

		if (!l.cal.mode[m].set && kalg != NULL && probe(cd, kalg) == 0) {
			snprintf(why, len,
				 "%s%s binds but has no window in %s (an older eip93-doctor "
				 "wrote it)",
				 kalg, on, path);
			return 1;
		}
	}
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: eip93-doctor calibrate [--output PATH] [--rounds N] [--time-ms MS] "
		"[--plot FILE.png] [--dry-run] [--quick]\n"
		"Measures the eip93 engine path against OpenSSL's default provider (payloads "
		"1-64 KiB,\nAES-128/256, encrypt/decrypt) for every kernel composition that binds, "
		"prints the table\nand writes the calibration the provider reads (default %s).\n"
		"ChaCha20-Poly1305 of the same libcrypto is measured beside them as a reference "
		"(never routed):\nthe doctor's recommendation is made from it.\n"
		"  --rounds N     rounds (medians; 3 to 99, default 5)\n"
		"  --time-ms MS   milliseconds per measurement (1 to 10000, default 200)\n"
		"  --quick        --rounds 3 --time-ms 30 (tests)\n"
		"  --dry-run      print the table and the verdict, write nothing\n"
		"  --if-needed    only when the calibration is absent, invalid or stale "
		"(packages)\n"
		"Exit status: 0 written, 1 error, 2 usage, 3 the engine is not available here "
		"(nothing written).\n",
		EIP93_CALIBRATION_FILE);
}

/* @arg of option @opt as plain decimal in [@lo, @hi]; else -1 after naming both and the usage. */
static int number(const char *opt, const char *arg, unsigned int lo, unsigned int hi,
		  unsigned int *out)
{
	unsigned long long n;

	if (eip93_config_parse_dec(arg, lo, hi, &n) < 0) {
		fprintf(stderr,
			"eip93-doctor calibrate: invalid %s \"%s\" (expected a decimal number from "
			"%u to %u)\n",
			opt, arg, lo, hi);
		usage(stderr);
		return -1;
	}
	*out = (unsigned int)n;
	return 0;
}

int calib_parse_opts(int argc, char **argv, struct calib_opts *o)
{
	static const struct option lo[] = { { "output", required_argument, NULL, 'o' },
					    { "plot", required_argument, NULL, 'p' },
					    { "rounds", required_argument, NULL, 'r' },
					    { "time-ms", required_argument, NULL, 't' },
					    { "dry-run", no_argument, NULL, 'n' },
					    { "quick", no_argument, NULL, 'q' },
					    { "if-needed", no_argument, NULL, 'i' },
					    { "help", no_argument, NULL, 'h' },
					    { NULL, 0, NULL, 0 } };
	int ch;

	o->output = EIP93_CALIBRATION_FILE;
	o->rounds = 5;
	o->time_ms = 200;
	while ((ch = getopt_long(argc, argv, "o:p:r:t:nqh", lo, NULL)) != -1) {
		switch (ch) {
		case 'o':
			o->output = optarg;
			break;
		case 'p':
			o->plot = optarg;
			break;
		case 'r':
			if (number("--rounds", optarg, ROUNDS_MIN, ROUNDS_MAX, &o->rounds) < 0)
				return -1;
			break;
		case 't':
			if (number("--time-ms", optarg, TIME_MS_MIN, TIME_MS_MAX, &o->time_ms) < 0)
				return -1;
			break;
		case 'n':
			o->dry_run = 1;
			break;
		case 'q':
			o->rounds = 3;
			o->time_ms = 30;
			break;
		case 'i':
			o->if_needed = 1;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			return -1;
		}
	}
	if (optind != argc || o->rounds < ROUNDS_MIN || o->rounds > ROUNDS_MAX ||
	    o->time_ms < TIME_MS_MIN || o->time_ms > TIME_MS_MAX || o->output[0] != '/') {
		usage(stderr);
		return -1;
	}
	return 0;
}
