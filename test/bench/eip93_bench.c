// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-bench: throughput ratios and memory of the eip93 provider, measured in
 * one process (docs/performance.md).  Run in the test guest with the
 * gate open (test/guest/bench.sh; host entry point scripts/bench.sh).
 *
 *   eip93-bench [--smoke] [--rounds N] [--batch-ms MS] [--key-bits 128|192|256]
 *
 * 1. Engine path vs a raw AF_ALG loop on the kernel algorithm the provider
 *    bound (one socket bound, keyed and accepted once; per message one
 *    sendmsg carrying the op/IV/assoclen cmsgs and one read), for the TLS 1.3
 *    and TLS 1.2 record shapes through EVP, encrypt and decrypt, 4/16/32 KiB.
 * 2. Delegated (software) path vs the default provider alone, TLS 1.3 shape,
 *    16 B / 256 B / 1 KiB.
 * 3. Live heap bytes an eip93 AES-GCM EVP_CIPHER_CTX adds over a default
 *    provider one, and whether anything stays allocated across a message.
 * 5. What the integrity check of every engine result costs: the engine path
 *    checked vs unchecked (a second provider instance, test builds only:
 *    EIP93_TEST_VERIFY=off), and the check's own work (AES of three counter
 *    blocks and the comparison) timed alone, as a share of a message.
 * 6. Key setup: a 16 KiB record with a new key vs one on an open key, in
 *    default-provider records with a new key (keysetup.c).
 * 7. Only when asked (--sections 7) and linked in (test/cryptodev/bench.cmake):
 *    raw /dev/crypto loops (sync, and async when the module has it) and the
 *    provider on the /dev/crypto backend beside the raw AF_ALG loop and the
 *    provider on AF_ALG, with syscalls per message (cdev.c).
 * 8. Only when asked (--sections 8): one TLS 1.3 stream, serial vs
 *    overlapped: records back to back with keystream-ahead off and on (two
 *    provider instances), MB/s and CPU time per byte, 4/16/32 KiB
 *    (overlap.c; scripts/overlap-bench.sh sets the simulated engine's time).
 *
 * Ratios are throughput(provider) / throughput(baseline).  The contenders of
 * one row alternate message by message (for small messages: every few
 * messages), so they share the noise of a busy machine; each round takes the
 * median time per message of each (which drops messages hit by preemption),
 * and a row's ratio is the median of its per-round ratios.  Targets are
 * printed next to the ratios, never asserted: only functional problems (a
 * wrong answer, an engine row not taking the engine) make the exit status
 * non-zero.
 *
 * In-place decryption destroys its input, so every decryption loop (the raw
 * loop too) copies the pristine record back before each message, outside
 * the timed region.
 *
 * Where the time goes (perf is not available in the guest): this program
 * defines sendmsg() and readv() itself and exports them, so the provider's
 * AF_ALG calls land here too.  In a separate pass after the ratio rounds
 * they time the kernel's share of a message, and in a "hot" pass they return
 * success without entering the kernel, which leaves the provider's own
 * user-space work per message alone (on the unchecked instance: the engine's
 * "answer" is then whatever the buffer held, which the check would refuse).  A third loop sends the raw messages
 * with the provider's iovec layout (separate AAD, tag and AAD-echo buffers)
 * to price that layout in the kernel.  The ratio rounds run with the
 * wrappers passing straight through.
 */
#include "bench.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/params.h>

/* ---- setup ---------------------------------------------------------- */

struct bench B;

void fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("eip93-bench: error: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	ERR_print_errors_fp(stderr);
	B.failures++;
}

void fill(unsigned char *p, size_t n, unsigned int seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)((i * 131u + (size_t)seed * 7u + (i >> 8)) & 0xff);
}

uint64_t prov_counter(const char *name)
{
	uint64_t v = 0;
	OSSL_PARAM p[2];

	p[0] = OSSL_PARAM_construct_uint64(name, &v);
	p[1] = OSSL_PARAM_construct_end();
	if (!OSSL_PROVIDER_get_params(B.eip93, p))
		return UINT64_MAX;
	return v;
}

/* The kernel algorithm from the gate verdict "enabled: <name>[ via <backend>]"; 0 or -1. */
static int gate_open(void)
{
	const char *gate = NULL;
	OSSL_PARAM p[2];

	p[0] = OSSL_PARAM_construct_utf8_ptr("eip93-gate", (char **)&gate, 0);
	p[1] = OSSL_PARAM_construct_end();
	if (!OSSL_PROVIDER_get_params(B.eip93, p) || gate == NULL) {
		fail("cannot read the eip93-gate parameter");
		return -1;
	}
	if (strncmp(gate, "enabled: ", 9) != 0 || strcspn(gate + 9, " ") >= sizeof(B.kalg)) {
		fail("the gate is not open: %s", gate);
		return -1;
	}
	memcpy(B.kalg, gate + 9, strcspn(gate + 9, " "));
	B.kalg[strcspn(gate + 9, " ")] = '\0';
	return 0;
}

/* ---- main ---------------------------------------------------------------- */

static void usage(const char *argv0)
{
	fprintf(stderr,
		"usage: %s [--smoke] [--rounds N] [--batch-ms MS] [--key-bits 128|192|256]\n"
		"  --smoke       2 messages per batch, 1 round, no calibration (checks it runs)\n"
		"  --rounds N    rounds per row (odd, 1..%d; default 15)\n"
		"  --batch-ms MS target time of one contender's batch (default 100)\n"
		"  --sections L  only these sections, e.g. 1,6 (default: 1-6; 7, 8 when named)\n",
		argv0, MAX_ROUNDS - 1);
}

/* Is section @n to run (--sections)? */
static int wanted(char n)
{
	if (n == '7' || n == '8') /* /dev/crypto, keystream-ahead: only when asked for */
		return B.sections != NULL && strchr(B.sections, n) != NULL;
	return B.sections == NULL || strchr(B.sections, n) != NULL;
}

static int parse_args(int argc, char **argv)
{
	long bits = 128;

	B.rounds = 15;
	B.batch_s = 0.1;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		char *end;
		long v;

		if (strcmp(a, "--smoke") == 0) {
			B.fixed_iters = 2;
			B.rounds = 1;
			continue;
		}
		if (strcmp(a, "--sections") == 0 && i + 1 < argc &&
		    strspn(argv[i + 1], "12345678,") == strlen(argv[i + 1])) {
			B.sections = argv[++i];
			continue;
		}
		if (i + 1 >= argc) {
			usage(argv[0]);
			return -1;
		}
		v = strtol(argv[++i], &end, 10);
		if (end == argv[i] || *end != '\0' || v <= 0) {
			usage(argv[0]);
			return -1;
		}
		if (strcmp(a, "--rounds") == 0 && v < MAX_ROUNDS)
			B.rounds = (int)v;
		else if (strcmp(a, "--batch-ms") == 0 && v <= 60000)
			B.batch_s = (double)v / 1000;
		else if (strcmp(a, "--key-bits") == 0 && (v == 128 || v == 192 || v == 256))
			bits = v;
		else {
			usage(argv[0]);
			return -1;
		}
	}
	B.keylen = (size_t)bits / 8;
	return 0;
}

int main(int argc, char **argv)
{
	char alg[16];
	double t0;

	/* First of all: every OpenSSL allocation from here on is counted. */
	if (!CRYPTO_set_mem_functions(count_malloc, count_realloc, count_free)) {
		fprintf(stderr, "eip93-bench: CRYPTO_set_mem_functions refused\n");
		return 2;
	}
	if (parse_args(argc, argv) != 0)
		return 2;
	t0 = now_s();
	fill(B.key, sizeof(B.key), 5);
	B.dflt = OSSL_PROVIDER_load(NULL, "default");
	B.eip93 = OSSL_PROVIDER_load(NULL, "eip93");
	if (B.dflt == NULL || B.eip93 == NULL) {
		fail("cannot load the default and eip93 providers (OPENSSL_MODULES?)");
		return 2;
	}
	snprintf(alg, sizeof(alg), "AES-%zu-GCM", B.keylen * 8);
	B.c_eip93 = EVP_CIPHER_fetch(NULL, alg, "provider=eip93");
	B.c_dflt = EVP_CIPHER_fetch(NULL, alg, "provider=default");
	if (B.c_eip93 == NULL || B.c_dflt == NULL || gate_open() != 0) {
		if (B.c_eip93 == NULL || B.c_dflt == NULL)
			fail("cannot fetch %s from both providers", alg);
		return 2;
	}
	/* The unchecked instance reads EIP93_TEST_VERIFY when it initialises. */
	setenv("EIP93_TEST_VERIFY", "off", 1);
	B.lib_nv = OSSL_LIB_CTX_new();
	/* The same provider configuration as the checked instance's (e.g. keystream-ahead). */
	if (B.lib_nv != NULL && getenv("OPENSSL_CONF") != NULL &&
	    !OSSL_LIB_CTX_load_config(B.lib_nv, getenv("OPENSSL_CONF"))) {
		fail("cannot load %s into the unchecked instance", getenv("OPENSSL_CONF"));
		return 2;
	}
	B.dflt_nv = B.lib_nv != NULL ? OSSL_PROVIDER_load(B.lib_nv, "default") : NULL;
	B.eip93_nv = B.lib_nv != NULL ? OSSL_PROVIDER_load(B.lib_nv, "eip93") : NULL;
	unsetenv("EIP93_TEST_VERIFY");
	B.c_eip93_nv =
		B.eip93_nv != NULL ? EVP_CIPHER_fetch(B.lib_nv, alg, "provider=eip93") : NULL;
	if (B.c_eip93_nv == NULL) {
		fail("cannot load the unchecked eip93 instance (a test-hooks build is needed)");
		return 2;
	}

	printf("eip93-bench: %s, kernel algorithm %s\n", alg, B.kalg);
	if (B.fixed_iters > 0)
		printf("smoke run: %ld messages per batch, %d round; the numbers mean nothing\n",
		       B.fixed_iters, B.rounds);
	else
		printf("%d rounds per row, each contender ~%.0f ms per round; contenders "
		       "interleaved message by message\n",
		       B.rounds, B.batch_s * 1000);

	if (wanted('1'))
		section_engine();
	if (wanted('2'))
		section_delegated();
	if (wanted('3'))
		section_memory();
	if (wanted('4'))
		section_calls();
	if (wanted('5'))
		section_verify();
	if (wanted('6'))
		section_keysetup();
#ifdef EIP93_BENCH_CDEV
	if (wanted('7'))
		section_cdev();
#else
	if (wanted('7'))
		fail("section 7 is not linked in (test/cryptodev/bench.cmake adds it)");
#endif
	if (wanted('8'))
		section_overlap();

	printf("\neip93-bench: done in %.1f s, %d problem(s)\n", now_s() - t0, B.failures);
	EVP_CIPHER_free(B.c_eip93);
	EVP_CIPHER_free(B.c_dflt);
	EVP_CIPHER_free(B.c_eip93_nv);
	OSSL_PROVIDER_unload(B.eip93_nv);
	OSSL_PROVIDER_unload(B.dflt_nv);
	OSSL_LIB_CTX_free(B.lib_nv);
	OSSL_PROVIDER_unload(B.eip93);
	OSSL_PROVIDER_unload(B.dflt);
	return B.failures == 0 ? 0 : 1;
}
