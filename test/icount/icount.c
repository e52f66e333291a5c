// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-icount: the provider's own cost per message, in instructions.
 *
 * Run under callgrind (test/icount/icount.sh does, with --collect-atstart=no):
 * each case runs a few warm-up messages (the key's engine open and its
 * known-answer check belong to key set-up, not to a message), then N
 * messages with collection switched on around the calls a caller makes and
 * off around the test's own preparation (restoring a ciphertext, deriving a
 * nonce), and dumps the counters under the case's name.  Instructions per
 * message = the dump's total / N.
 *
 * Contenders of a case, same calls, same bytes:
 *   default  the default provider alone (fetched with provider=default)
 *   eip93    the eip93 provider (hooks build, gate opened by the test hooks,
 *            EIP93_TEST_ENGINE=fake: engine messages computed in user space)
 *   raw      engine cases only: the same engine operations the provider
 *            makes, called directly on the engine backend: the fake engine
 *            (engine/fake.c linked in, its own library context with only the
 *            default provider: the host's stand-in for a raw AF_ALG loop
 *            doing the same syscalls), or with --raw afalg the AF_ALG
 *            backend itself (engine/afalg.c linked in) on the kernel algorithm
 *            the provider's gate bound (the guest, guest_icount).
 *
 *   eip93-icount [--messages N] [--contenders LIST] [--path engine|delegated|all]
 *                [--label NAME] [--only SUBSTRING] [--raw fake|afalg]
 *
 * AES-CTR and AES-CBC's shapes (one update per message on a running
 * context) are in skc.c, run after AES-GCM's on the fake engine only.
 *
 * Prints one line per case ("case <name> ok"), and fails (exit 1) when a
 * contender's output differs from the default provider's, or an engine case
 * did not reach the engine (or a delegated one did).
 */
#include "icount.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>
#include <valgrind/callgrind.h>

struct opts opt = { .messages = 32,
		    .path = "all",
		    .contenders = "default,eip93,raw",
		    .label = "eip93",
		    .raw = "fake" };

static const size_t delegated_sizes[] = { 16, 256, 1024 };
static const size_t engine_sizes[] = { 4096, 16384, 32768 };
static const char *const shapes[] = { "generic", "tls13", "tls12", "ssh" };

static int wanted(const char *list, const char *item)
{
	size_t n = strlen(item);

	for (const char *p = list; (p = strstr(p, item)) != NULL; p += n)
		if ((p == list || p[-1] == ',') && (p[n] == '\0' || p[n] == ','))
			return 1;
	return 0;
}

/*
 * One contender over one case: warm-up, then N counted messages, dumped as
 * "<path> <shape> <dir> <size> <who>".  The default provider's last output
 * goes to @ref (its length to *@reflen); any other contender's must equal it.
 */
static int run_contender(const struct icase *c, const char *who, unsigned char *ref, size_t *reflen)
{
	static unsigned char got[MAX_OUT];
	int is_default = strcmp(who, "default") == 0, is_raw = strcmp(who, "raw") == 0;
	char name[128];
	struct runner r;
	uint64_t eng0, eng1;
	size_t n;
	int rc = -1;

	snprintf(name, sizeof(name), "%s %s %s %zu", c->path, c->shape, c->enc ? "enc" : "dec",
		 c->len);
	if (opt.only != NULL && strstr(name, opt.only) == NULL)
		return 0;
	snprintf(name + strlen(name), sizeof(name) - strlen(name), " %s", who);
	if (runner_open(&r, c, is_default ? WHO_DEFAULT : is_raw ? WHO_RAW : WHO_EIP93) != 0) {
		fprintf(stderr, "icount: %s: set-up failed\n", name);
		runner_close(&r);
		return -1;
	}
	for (int i = 0; i < WARMUP; i++)
		if (runner_prep(&r, i) != 0 || runner_op(&r) != 0)
			goto out;
	eng0 = engine_messages();
	for (int i = 0; i < opt.messages; i++) {
		if (runner_prep(&r, WARMUP + i) != 0)
			goto out;
		CALLGRIND_TOGGLE_COLLECT;
		rc = runner_op(&r);
		CALLGRIND_TOGGLE_COLLECT;
		if (rc != 0)
			goto out;
		rc = -1;
	}
	CALLGRIND_DUMP_STATS_AT(name);
	eng1 = engine_messages();
	if (!is_default && !is_raw) {
		uint64_t want = strcmp(c->path, "engine") == 0 ? (uint64_t)opt.messages : 0;

		if (eng1 - eng0 != want) {
			fprintf(stderr, "icount: %s: %llu engine messages, expected %llu\n", name,
				(unsigned long long)(eng1 - eng0), (unsigned long long)want);
			goto out;
		}
	}
	n = runner_output(&r, is_default ? ref : got);
	if (n == 0) {
		fprintf(stderr, "icount: %s: no output to compare\n", name);
		goto out;
	}
	if (is_default) {
		*reflen = n;
	} else if (n != *reflen || memcmp(got, ref, n) != 0) {
		fprintf(stderr, "icount: %s: output differs from the default provider's\n", name);
		goto out;
	}
	printf("case %s ok\n", name);
	rc = 0;
out:
	if (rc != 0)
		fprintf(stderr, "icount: %s: failed\n", name);
	runner_close(&r);
	return rc;
}

static int run_case(const struct icase *c)
{
	static unsigned char ref[MAX_OUT];
	size_t reflen = 0;

	/* The default provider's output first: every other contender must match it. */
	if (run_contender(c, "default", ref, &reflen) != 0)
		return -1;
	if (reflen == 0)
		return 0; /* filtered out by --only */
	if (wanted(opt.contenders, "eip93") && run_contender(c, opt.label, ref, &reflen) != 0)
		return -1;
	if (strcmp(c->path, "engine") == 0 && wanted(opt.contenders, "raw") &&
	    run_contender(c, "raw", ref, &reflen) != 0)
		return -1;
	return 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: eip93-icount [--messages N] [--contenders default,eip93,raw] "
			"[--path engine|delegated|all] [--label NAME] [--only SUBSTRING] "
			"[--raw fake|afalg]\n");
	return 2;
}

int main(int argc, char **argv)
{
	int fails = 0, skc;

	for (int i = 1; i < argc; i += 2) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (v == NULL)
			return usage();
		if (strcmp(a, "--messages") == 0)
			opt.messages = atoi(v);
		else if (strcmp(a, "--contenders") == 0)
			opt.contenders = v;
		else if (strcmp(a, "--path") == 0)
			opt.path = v;
		else if (strcmp(a, "--label") == 0)
			opt.label = v;
		else if (strcmp(a, "--only") == 0)
			opt.only = v;
		else if (strcmp(a, "--raw") == 0 &&
			 (strcmp(v, "fake") == 0 || strcmp(v, "afalg") == 0))
			opt.raw = v;
		else
			return usage();
	}
	if (opt.messages < 1 || opt.messages > MAX_MESSAGES)
		return usage();
	printf("icount: %s\n", OpenSSL_version(OPENSSL_VERSION));
	if (setup_providers() != 0)
		return 1;
	/* AES-CTR/CBC: the raw loop is the fake's (not on AF_ALG: the guest runs AES-GCM). */
	skc = strcmp(opt.raw, "fake") == 0;
	if (skc && skc_setup() != 0)
		return 1;
	for (int p = 0; p < 2; p++) {
		const char *path = p == 0 ? "delegated" : "engine";
		const size_t *sizes = p == 0 ? delegated_sizes : engine_sizes;

		if (strcmp(opt.path, "all") != 0 && strcmp(opt.path, path) != 0)
			continue;
		for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++)
			for (int enc = 1; enc >= 0; enc--)
				for (size_t z = 0; z < 3; z++) {
					struct icase c = { path, shapes[s], enc, sizes[z] };

					if (run_case(&c) != 0)
						fails++;
				}
	}
	if (skc) {
		fails += skc_cases(run_case);
		skc_teardown();
	}
	teardown_providers();
	printf("icount: %s\n", fails == 0 ? "all cases ok" : "FAILED");
	return fails == 0 ? 0 : 1;
}
