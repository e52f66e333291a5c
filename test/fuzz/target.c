// SPDX-License-Identifier: Apache-2.0
/*
 * The libFuzzer entry points.  A divergence aborts, so libFuzzer saves the
 * input (crash-*); replay it with eip93-fuzz-replay --print FILE, or with
 * this binary given the file.  EIP93_FUZZ_PRINT=1 prints every decoded
 * input as it runs.  At exit, one line says how many executions reached
 * the engine path (eip93-engine-messages moved).
 */
#include <stdint.h>
#include <stdlib.h>

#include "compare.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int print_inputs;

static void summary(void)
{
	fz_harness_summary("eip93-fuzz: ");
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *p = getenv("EIP93_FUZZ_PRINT");

	(void)argc;
	(void)argv;
	print_inputs = p != NULL && *p == '1';
	fz_harness_init();
	atexit(summary);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (fz_harness_one(data, size, print_inputs) != 0) {
		summary();
		abort();
	}
	return 0;
}
