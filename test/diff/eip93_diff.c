// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-diff: differential test of the eip93 provider's AES-GCM.
 *
 * The provider must be indistinguishable from the default provider's AES-GCM
 * for every input shape, and must agree with the kernel's own gcm(aes)
 * (through libkcapi: an implementation independent of OpenSSL) for the shapes
 * the kernel supports.
 *
 * How it compares: each implementation runs the same script of EVP calls,
 * and every call's return value, output length and output bytes go into a
 * transcript; the two transcripts must be identical.  Expected results are
 * not hard-coded: whatever the default provider does is the contract.  The
 * only fixed expectations are harness sanity checks on the reference itself
 * (a valid ciphertext must decrypt) and the comparisons with the kernel.
 *
 * Every case is generated from the seed and its case number alone, so one
 * case can be replayed with `--seed S --case N`.
 */
#include "diff.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/params.h>
#include <openssl/provider.h>

static const char *const counter_names[] = {
	"eip93-engine-messages",      "eip93-engine-bytes",
	"eip93-software-messages",    "eip93-key-checks-passed",
	"eip93-key-checks-failed",    "eip93-engine-errors",
	"eip93-keystream-ahead-used", "eip93-keystream-ahead-dropped",
	"eip93-engine-faults"
};
#define C_FAULTS 8 /* counter_names[]: eip93-engine-faults */
#define N_COUNTERS (sizeof(counter_names) / sizeof(counter_names[0]))

/* Relative weights of randomly drawn case types (CT_STATIC is forced only). */
static const unsigned int ctype_weight[CT_N] = { 0, 72, 7, 7, 3, 7, 4, 0 };

/* ------------------------------------------------------------------ */
/* Case dispatch                                                        */
/* ------------------------------------------------------------------ */

/* Cases 0..N_FORCED-1 are fixed so every run covers the same ground. */
#define N_FORCED (3 + 2 * N_BOUND + 2 + 2)

static void run_case(struct harness *h, unsigned long no)
{
	struct rng r;
	enum ctype type;
	unsigned long long bytes0;
	double t0;

	rng_seed(&r, h->seed, no);
	h->caseno = no;
	h->shape[0] = '\0';
	h->shape_len = 0;
	h->case_failed = 0;
	h->case_msgs = 0;
	if (h->script != -1) {
		/* --script: every case runs a named script (all of them in turn for "all") */
		type = CT_NAMED;
		h->ctype = type;
		h->st.per_type[type]++;
		case_named(h, h->script >= 0 ? h->script : (int)(no % N_SCRIPTS), &r);
		ERR_clear_error();
		if (h->case_failed)
			h->failed++;
		else
			h->passed++;
		if (h->verbose)
			printf("case %lu named %s: %s\n", no, h->case_failed ? "FAIL" : "ok",
			       h->shape);
		return;
	}
	if (no < 3) {
		type = CT_STATIC;
	} else if (no < 3 + 2 * N_BOUND) {
		type = CT_GENERIC;
	} else if (no < 3 + 2 * N_BOUND + 2) {
		type = CT_TLS12;
	} else if (no < N_FORCED) {
		type = CT_TLS13;
	} else {
		size_t total = 0, pick;

		for (int i = 0; i < CT_N; i++)
			total += ctype_weight[i];
		pick = rng_below(&r, total);
		type = CT_GENERIC;
		for (int i = 0; i < CT_N; i++) {
			if (pick < ctype_weight[i]) {
				type = (enum ctype)i;
				break;
			}
			pick -= ctype_weight[i];
		}
	}
	h->ctype = type;
	h->st.per_type[type]++;
	t0 = now_seconds();
	bytes0 = h->st.bytes;
	switch (type) {
	case CT_STATIC:
		case_static(h, (int)no);
		break;
	case CT_GENERIC:
		if (no < 3 + 2 * N_BOUND) {
			struct gforce f;

			f.len = boundaries[(no - 3) / 2];
			f.engine = (no - 3) % 2 == 0;
			case_generic(h, &r, &f);
		} else {
			case_generic(h, &r, NULL);
		}
		break;
	case CT_REINIT:
		case_reinit(h, &r);
		break;
	case CT_ERRORS:
		case_errors(h, &r);
		break;
	case CT_IVGEN:
		case_ivgen(h, &r);
		break;
	case CT_TLS12:
		case_tls12(h, &r, no < N_FORCED ? (int)(no - 3 - 2 * N_BOUND) : -1);
		break;
	case CT_TLS13:
	default:
		case_tls13(h, &r, no < N_FORCED ? (int)(no - 3 - 2 * N_BOUND - 2) : -1);
		break;
	}
	ERR_clear_error();
	h->st.secs_by_type[type] += now_seconds() - t0;
	h->st.bytes_by_type[type] += h->st.bytes - bytes0;
	if (h->case_failed)
		h->failed++;
	else
		h->passed++;
	if (h->verbose)
		printf("case %lu %s %s: %s\n", no, ctype_names[type],
		       h->case_failed ? "FAIL" : "ok", h->shape);
}

/* ------------------------------------------------------------------ */
/* Provider status                                                      */
/* ------------------------------------------------------------------ */

struct counters {
	int ok[N_COUNTERS];
	uint64_t v[N_COUNTERS];
};

static void read_counters(OSSL_PROVIDER *p, struct counters *c)
{
	for (size_t i = 0; i < N_COUNTERS; i++) {
		OSSL_PARAM q[2];

		c->v[i] = 0;
		q[0] = OSSL_PARAM_construct_uint64(counter_names[i], &c->v[i]);
		q[1] = OSSL_PARAM_construct_end();
		c->ok[i] = OSSL_PROVIDER_get_params(p, q) && OSSL_PARAM_modified(&q[0]);
		ERR_clear_error();
	}
}

static void print_counters(const char *when, const struct counters *c,
			   const struct counters *before)
{
	printf("eip93 counters %s:", when);
	for (size_t i = 0; i < N_COUNTERS; i++) {
		if (!c->ok[i])
			printf(" %s=n/a", counter_names[i]);
		else if (before != NULL && before->ok[i])
			printf(" %s=%" PRIu64 " (+%" PRIu64 ")", counter_names[i], c->v[i],
			       c->v[i] - before->v[i]);
		else
			printf(" %s=%" PRIu64, counter_names[i], c->v[i]);
	}
	printf("\n");
}

/* ------------------------------------------------------------------ */
/* Main                                                                 */
/* ------------------------------------------------------------------ */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: eip93-diff [--self-check] [--seed N] [--cases N] "
		"[--case N]\n"
		"                  [--config FILE] [--kernel-alg NAME] "
		"[--require-engine]\n"
		"                  [--require-no-faults] [--no-kernel]"
		"                  [--verbose]\n"
		"\n"
		"  Compares the eip93 provider's AES-GCM (provider=eip93, found "
		"through\n"
		"  OPENSSL_MODULES) with the default provider's, and with the "
		"kernel's\n"
		"  gcm(aes) through libkcapi, over random shapes.\n"
		"\n"
		"  --self-check      default vs default (no eip93 needed); kernel\n"
		"                    comparisons are skipped only where "
		"socket(AF_ALG)\n"
		"                    fails with EAFNOSUPPORT\n"
		"  --seed N          PRNG seed (default: from the clock; always "
		"printed)\n"
		"  --cases N         number of cases (default %lu; the first %lu "
		"are fixed)\n"
		"  --case N          run only case N (replay a failure with its "
		"seed)\n"
		"  --config FILE     load FILE into the test's library context\n"
		"  --kernel-alg NAME kernel AEAD to compare with (default "
		"gcm(aes); e.g.\n"
		"                    gcm_base(ctr(aes-generic),ghash-generic) to "
		"avoid the\n"
		"                    driver under test)\n"
		"  --require-engine  fail if the engine counter did not move\n"
		"  --require-no-faults fail if eip93-engine-faults moved (no fault\n"
		"                    was injected: every engine result was right)\n"
		"  --no-kernel       no comparisons with the kernel (host runs "
		"with the\n"
		"                    fake engine: EIP93_TEST_ENGINE=fake)\n"
		"  --alias-check P   with --config: provider P is eip93 loaded under\n"
		"                    another name whose fallback-properties names\n"
		"                    eip93; pass if P refuses to be its own delegate\n"
		"  --script NAME     run only the named regression script (named.c),\n"
		"                    --cases times (default 20 per script); 'all' runs\n"
		"                    each in turn, 'list' prints the names\n"
		"  --verbose         one line per case\n",
		DEFAULT_CASES, (unsigned long)N_FORCED);
}

static int parse_u64(const char *s, uint64_t *out)
{
	char *end = NULL;
	unsigned long long v;

	if (s == NULL || *s == '\0' || *s == '-')
		return 0;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno != 0 || end == NULL || *end != '\0')
		return 0;
	*out = (uint64_t)v;
	return 1;
}

static int setup_fail(struct harness *h, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* A failure before any case could run: say why, close like a test run. */
static int setup_fail(struct harness *h, const char *fmt, ...)
{
	va_list ap;

	(void)h;
	printf("FAIL: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	ERR_print_errors_fp(stdout);
	printf("0 passed, 1 failed\n");
	fflush(stdout);
	return 1;
}

static void print_summary(const struct harness *h, double secs)
{
	const struct stats *st = &h->st;
	unsigned long covered = 0;

	printf("case mix (cases, payload KiB through the tested side, seconds):");
	for (int i = 0; i < CT_N; i++)
		printf(" %s=%lu/%llu/%.2f", ctype_names[i], st->per_type[i],
		       st->bytes_by_type[i] / 1024, st->secs_by_type[i]);
	printf("\n");
	printf("messages through %s: %lu (%llu payload bytes), %lu in the "
	       "engine window (12-byte IV, 16-byte tag, %d..%d bytes, AAD <= %d);"
	       " TLS 1.2 records %lu, TLS 1.3 records %lu; corrupted %lu; "
	       "context copies %lu\n",
	       h->test.label, st->messages, st->bytes, st->engine_shaped, ENGINE_MIN, ENGINE_MAX,
	       ENGINE_AAD_MAX, st->tls12_records, st->tls13_records, st->corrupted, st->copies);
	if (h->kernel)
		printf("kernel comparisons: %lu encryptions, %lu decryptions, %lu "
		       "shapes the kernel does not take\n",
		       st->kc_enc, st->kc_dec, st->kc_skipped);
	printf("boundary sizes (generic messages):");
	for (size_t i = 0; i < N_BOUND; i++) {
		printf(" %zu:%lu", boundaries[i], st->bound_hits[i]);
		covered += st->bound_hits[i] != 0;
	}
	printf(" (%lu of %zu covered)\n", covered, (size_t)N_BOUND);
	printf("elapsed: %.2f s\n", secs);
}

int main(int argc, char **argv)
{
	struct harness *h = calloc(1, sizeof(*h));
	const char *config = NULL, *alias = NULL;
	uint64_t ncases = DEFAULT_CASES, only = 0, v;
	int have_only = 0, have_seed = 0, have_cases = 0, rc = 1;
	unsigned long expected, ran;
	struct counters before = { 0 }, after = { 0 };
	char gate[512], info[256];
	double t0;

	if (h == NULL)
		return 2;
	h->kernel_alg = "gcm(aes)";
	h->script = -1;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (strcmp(a, "--self-check") == 0) {
			h->self_check = 1;
		} else if (strcmp(a, "--verbose") == 0) {
			h->verbose = 1;
		} else if (strcmp(a, "--script") == 0 && i + 1 < argc) {
			const char *nm = argv[++i];

			if (strcmp(nm, "list") == 0) {
				for (size_t k = 0; k < N_SCRIPTS; k++)
					printf("%s\n", n_scripts[k].name);
				free(h);
				return 0;
			}
			h->script = strcmp(nm, "all") == 0 ? -2 : n_find(nm);
			if (h->script == -1) {
				fprintf(stderr, "eip93-diff: no script '%s' (--script list)\n", nm);
				free(h);
				return 2;
			}
			if (!have_cases)
				ncases = 20 * (h->script == -2 ? N_SCRIPTS : 1);
		} else if (strcmp(a, "--alias-check") == 0 && i + 1 < argc) {
			alias = argv[++i];
		} else if (strcmp(a, "--no-kernel") == 0) {
			h->no_kernel = 1;
		} else if (strcmp(a, "--require-engine") == 0) {
			h->require_engine = 1;
		} else if (strcmp(a, "--require-no-faults") == 0) {
			h->require_no_faults = 1;
		} else if (strcmp(a, "--seed") == 0 && i + 1 < argc && parse_u64(argv[i + 1], &v)) {
			h->seed = v;
			have_seed = 1;
			i++;
		} else if (strcmp(a, "--cases") == 0 && i + 1 < argc &&
			   parse_u64(argv[i + 1], &v) && v > 0) {
			ncases = v;
			have_cases = 1;
			i++;
		} else if (strcmp(a, "--case") == 0 && i + 1 < argc && parse_u64(argv[i + 1], &v)) {
			only = v;
			have_only = 1;
			i++;
		} else if (strcmp(a, "--config") == 0 && i + 1 < argc) {
			config = argv[++i];
		} else if (strcmp(a, "--kernel-alg") == 0 && i + 1 < argc) {
			h->kernel_alg = argv[++i];
		} else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			usage(stdout);
			free(h);
			return 0;
		} else {
			fprintf(stderr, "eip93-diff: bad argument '%s'\n", a);
			usage(stderr);
			free(h);
			return 2;
		}
	}
	if (!have_seed) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		h->seed = ((uint64_t)ts.tv_sec << 20) ^ (uint64_t)ts.tv_nsec ^
			  ((uint64_t)getpid() << 40);
	}
	printf("eip93-diff: seed %" PRIu64 "%s\n", h->seed,
	       h->self_check ? " (self-check: default vs default)" : "");
	printf("libcrypto: %s\n", OpenSSL_version(OPENSSL_VERSION));
	fflush(stdout);

	h->test.label = h->self_check ? "default(test)" : "eip93";
	h->test.props = h->self_check ? "provider=default" : "provider=eip93";
	h->ref.label = "default";
	h->ref.props = "provider=default";
	h->lib = OSSL_LIB_CTX_new();
	if (h->lib == NULL) {
		rc = setup_fail(h, "OSSL_LIB_CTX_new");
		goto out;
	}
	if (config != NULL && !OSSL_LIB_CTX_load_config(h->lib, config)) {
		rc = setup_fail(h, "cannot load config %s", config);
		goto out;
	}
	if (alias != NULL) {
		rc = alias_check(h->lib, alias);
		goto out;
	}
	if (!h->self_check) {
		const char *mods = getenv("OPENSSL_MODULES");

		h->prov_test = OSSL_PROVIDER_load(h->lib, "eip93");
		if (h->prov_test == NULL) {
			rc = setup_fail(h, "cannot load provider eip93 (OPENSSL_MODULES=%s)",
					mods != NULL ? mods : "(unset)");
			goto out;
		}
	}
	h->prov_default = OSSL_PROVIDER_load(h->lib, "default");
	if (h->prov_default == NULL) {
		rc = setup_fail(h, "cannot load the default provider");
		goto out;
	}
	if (!h->self_check) {
		static const char *const std_params[] = { OSSL_PROV_PARAM_NAME,
							  OSSL_PROV_PARAM_VERSION,
							  OSSL_PROV_PARAM_BUILDINFO };

		for (size_t i = 0; i < sizeof(std_params) / sizeof(std_params[0]); i++)
			if (read_utf8_param(h->prov_test, std_params[i], info, sizeof(info)))
				printf("eip93 %s: %s\n", std_params[i], info);
		if (!read_utf8_param(h->prov_test, "eip93-gate", gate, sizeof(gate))) {
			rc = setup_fail(h, "provider eip93 does not report eip93-gate");
			goto out;
		}
		printf("eip93 gate: %s\n", gate);
		if (strncmp(gate, "enabled:", 8) != 0) {
			rc = setup_fail(h, "eip93 gate is not open: '%s'", gate);
			goto out;
		}
	}
	for (int k = 0; k < 3; k++) {
		h->test.c[k] = EVP_CIPHER_fetch(h->lib, cipher_names[k], h->test.props);
		h->ref.c[k] = EVP_CIPHER_fetch(h->lib, cipher_names[k], h->ref.props);
		if (h->test.c[k] == NULL) {
			rc = setup_fail(h, "cannot fetch %s with %s", cipher_names[k],
					h->test.props);
			goto out;
		}
		if (h->ref.c[k] == NULL) {
			rc = setup_fail(h, "cannot fetch %s with %s", cipher_names[k],
					h->ref.props);
			goto out;
		}
		if (!h->self_check &&
		    strcmp(OSSL_PROVIDER_get0_name(EVP_CIPHER_get0_provider(h->test.c[k])),
			   "eip93") != 0) {
			rc = setup_fail(
				h, "%s fetched with %s comes from provider %s", cipher_names[k],
				h->test.props,
				OSSL_PROVIDER_get0_name(EVP_CIPHER_get0_provider(h->test.c[k])));
			goto out;
		}
	}
	switch (probe_kernel(h)) {
	case 1:
		h->kernel = 1;
		break;
	case 0:
		h->kernel = 0;
		break;
	default:
		printf("0 passed, 1 failed\n");
		rc = 1;
		goto out;
	}
	if (!h->self_check) {
		read_counters(h->prov_test, &before);
		print_counters("before", &before, NULL);
	}
	fflush(stdout);

	t0 = now_seconds();
	if (have_only) {
		expected = 1;
		run_case(h, (unsigned long)only);
	} else {
		expected = (unsigned long)ncases;
		for (unsigned long i = 0; i < expected; i++)
			run_case(h, i);
	}
	ran = h->passed + h->failed;

	print_summary(h, now_seconds() - t0);
	if (!h->self_check) {
		read_counters(h->prov_test, &after);
		print_counters("after", &after, &before);
		if (after.ok[0] && before.ok[0] && after.v[0] == before.v[0] && !have_only) {
			if (h->require_engine) {
				printf("FAIL: eip93-engine-messages did not move: the engine "
				       "path was not exercised\n");
				h->failed++;
			} else {
				printf("WARNING: eip93-engine-messages did not move: the "
				       "engine path was not exercised\n");
			}
		}
		/* Nothing injected: a wrong result counted is the provider's own error. */
		if (h->require_no_faults &&
		    (!after.ok[C_FAULTS] || after.v[C_FAULTS] != before.v[C_FAULTS])) {
			printf("FAIL: eip93-engine-faults moved (or is missing) with no fault "
			       "injected: the provider counted a right engine result as wrong\n");
			h->failed++;
		}
	}
	if (ran < expected) {
		printf("FAIL: only %lu of %lu cases ran\n", ran, expected);
		h->failed++;
	}
	printf("%lu passed, %lu failed\n", h->passed, h->failed);
	rc = h->failed != 0 || ran < expected;

out:
	fflush(stdout);
	for (int k = 0; k < 3; k++) {
		EVP_CIPHER_free(h->test.c[k]);
		EVP_CIPHER_free(h->ref.c[k]);
	}
	OSSL_PROVIDER_unload(h->prov_test);
	OSSL_PROVIDER_unload(h->prov_default);
	OSSL_LIB_CTX_free(h->lib);
	tr_free(&h->ta);
	tr_free(&h->tb);
	tr_free(&h->tc);
	free(h);
	return rc;
}
