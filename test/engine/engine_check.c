// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-engine-check: the engine path of the eip93 provider in the test guest
 * (hooks build, gate open, simulated EIP93 driver loaded).
 *
 * usage: eip93-engine-check [--config FILE] [--sysfs DIR] COMMAND [ARGS]
 *
 *   corrupt        new keys while the driver corrupts every output: each key
 *                  fails its check, every output equals the default
 *                  provider's, nothing runs on the engine; a key verified
 *                  before: its next result is caught by the integrity check;
 *                  then corrupt=0 and a new key is back on the engine
 *   faults         under EIP93_TEST_FAULT=<site>:<n>: 12 keys, 24 messages,
 *                  every output correct, counters as the fault predicts
 *   lifetimes [N]  N (10000) key lifetimes: context, new key, one engine
 *                  message, free; the fd count is unchanged
 *   fork           a child of a process whose contexts are on the engine
 *                  inherits no AF_ALG socket, gets correct results on its
 *                  own sockets; the parent's keep working
 *   ahead          keystream ahead's worker thread across fork: a TLS 1.3
 *                  stream until keystream ahead is used, fork; the child
 *                  goes on with it and runs its own (its own worker; a hang
 *                  fails by alarm), every record the default provider's
 *   exec           no AF_ALG socket survives exec (posix_spawn, fork+exec,
 *                  and an exec of this very process, which ends the command)
 *   threads        8 threads with their own contexts
 *   timeout MS     socket timeouts (run with a --config that sets
 *                  timeout-ms = MS): requests delayed by the driver below
 *                  and above MS, and the raw socket-layer waits; prints
 *                  "measure:" lines
 *   stall MS       a request held by the driver's stall knob, in a child
 *                  process, released by this program after ~2 s (once
 *                  waited for, once SIGKILLed while held)
 *   fail           the driver fails every request: 8 engine errors in a
 *                  row disable the engine for the process
 *   afalg-fds EXPECT [PASSED FAILED NAME]
 *                  the number of AF_ALG sockets open in this process must be
 *                  EXPECT (run by exec; with the caller's counts it prints
 *                  the closing line for command NAME)
 *
 * Every command compares each output with the default provider's, asserts
 * outcomes and counter deltas (never durations), prints "ok - ..." or
 * "not ok - ..." lines and "<command>: N passed, M failed"; the exit status
 * is nonzero when anything failed.  Durations are printed as "measure:"
 * lines only.  The driver's knobs are restored before each command returns.
 */
#include "engine_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- main ------------------------------------------------------------------ */

static void usage(FILE *f)
{
	fprintf(f, "usage: eip93-engine-check [--config FILE] [--sysfs DIR] COMMAND [ARGS]\n"
		   "commands: corrupt faults lifetimes [N] fork ahead exec threads fail\n"
		   "          timeout TIMEOUT-MS, stall TIMEOUT-MS (with a --config setting it)\n"
		   "          afalg-fds EXPECT [PASSED FAILED NAME]\n");
}

int main(int argc, char **argv)
{
	const char *config = NULL, *cmd;
	int i = 1, rc;

	for (; i < argc && strncmp(argv[i], "--", 2) == 0; i++) {
		if (strcmp(argv[i], "--config") == 0 && i + 1 < argc) {
			config = argv[++i];
		} else if (strcmp(argv[i], "--sysfs") == 0 && i + 1 < argc) {
			sysfs_dir = argv[++i];
		} else {
			usage(stderr);
			return 2;
		}
	}
	if (i >= argc) {
		usage(stderr);
		return 2;
	}
	cmd = argv[i++];
	if (strcmp(cmd, "afalg-fds") == 0)
		return cmd_afalg_fds(argc - i, argv + i);
	if (!setup(config)) {
		teardown();
		return finish(cmd);
	}
	if (strcmp(cmd, "corrupt") == 0) {
		cmd_corrupt();
	} else if (strcmp(cmd, "faults") == 0) {
		cmd_faults();
	} else if (strcmp(cmd, "lifetimes") == 0) {
		cmd_lifetimes(i < argc ? strtol(argv[i], NULL, 10) : 10000);
	} else if (strcmp(cmd, "fork") == 0) {
		cmd_fork();
	} else if (strcmp(cmd, "ahead") == 0) {
		cmd_ahead();
	} else if (strcmp(cmd, "exec") == 0) {
		cmd_exec();
	} else if (strcmp(cmd, "threads") == 0) {
		cmd_threads();
	} else if (strcmp(cmd, "timeout") == 0 && i < argc) {
		cmd_timeout((unsigned int)strtoul(argv[i], NULL, 10));
	} else if (strcmp(cmd, "stall") == 0 && i < argc) {
		cmd_stall((unsigned int)strtoul(argv[i], NULL, 10));
	} else if (strcmp(cmd, "fail") == 0) {
		cmd_fail();
	} else {
		usage(stderr);
		teardown();
		return 2;
	}
	rc = finish(cmd);
	teardown();
	return rc;
}
