// SPDX-License-Identifier: Apache-2.0
/*
 * Running one script on both sides in lockstep and comparing (compare.c),
 * and the provider world the sides live in (harness.c).
 */
#ifndef EIP93_FUZZ_COMPARE_H
#define EIP93_FUZZ_COMPARE_H

#include <stddef.h>
#include <stdint.h>

#include "run.h"

/* fz_rand_install() - deterministic randomness for every library context; 1 on success. */
int fz_rand_install(void);

/* fz_compare_run() - 0 when both sides agree on every step, -1 (described on stderr) if not. */
int fz_compare_run(const struct fz_script *s, struct fz_side *test, struct fz_side *ref);

struct fz_totals {
	unsigned long execs;	       /* scripts run */
	unsigned long engine_execs;    /* of which at least one engine message */
	unsigned long engine_messages; /* eip93-engine-messages, summed */
	unsigned long fault_execs;     /* scripts with a fault plan */
	unsigned long faults;	       /* faults the fake injected */
	unsigned long divergences;
	unsigned long reloads;		 /* provider reloaded after faults */
	unsigned long by_composition[2]; /* scripts run in each world (FZ_CTR, FZ_KGCM) */
	unsigned long
		by_cipher[FZ_NCIPHERS]; /* ... with each cipher (FZ_GCM, _AES_CTR, _AES_CBC) */
	unsigned long engine_by_cipher[FZ_NCIPHERS]; /* ... of which reaching the engine */
	unsigned long ahead_requests;		 /* keystream-ahead requests the fake was asked */
	unsigned long ahead_used, ahead_dropped; /* eip93-keystream-ahead-used, -dropped */
};

/* fz_harness_init() - environment, providers, ciphers; exits with a message if impossible. */
void fz_harness_init(void);
/* fz_harness_one() - decode and run one input; 0 or -1 (a divergence). */
int fz_harness_one(const uint8_t *data, size_t size, int print);
/* fz_harness_totals() - what ran so far. */
const struct fz_totals *fz_harness_totals(void);
/* fz_harness_summary() - one line of totals on stderr. */
void fz_harness_summary(const char *prefix);
/* fz_harness_done() - free everything. */
void fz_harness_done(void);

#endif /* EIP93_FUZZ_COMPARE_H */
