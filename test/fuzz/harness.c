// SPDX-License-Identifier: Apache-2.0
/*
 * The world a fuzz input runs in: one library context holding eip93
 * (linked in, registered as a built-in, with the engine fake) and the
 * default provider; the fake's fault plan per input; counters that say how
 * often the engine path ran.  Two worlds, one per composition: the
 * CTR-only one (the gate's default, ctr(aes-eip93)) and the kernel AES-GCM
 * one (kernel-algorithm = gcm_base(ctr(aes-eip93),ghash-generic), every tag
 * recomputed: tag-check = 1, so a tag-mask fault is always caught); the
 * input's header picks one (script.h), EIP93_FUZZ_COMPOSITION=ctr|kgcm
 * overrides it.
 *
 * A fault can leave state in the provider instance that outlives the input
 * (its consecutive-error count, or the engine switched off for the process),
 * which would make the next input's outcome depend on this one.  After an
 * input that counted an engine error, the count of consecutive errors is
 * cleared (the provider context begins with struct eip93_alg_env, alg/env.h),
 * and if the engine was switched off the world is rebuilt (about 5 ms), so
 * every input's result depends on that input alone and a saved crash replays.
 * The key checks' verdicts the instance keeps (alg/verdict.c) are forgotten
 * after every input, so each input's keys are checked as in a fresh process.
 */
#include "compare.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/core.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#include "fake.h"
#include "env.h"

#ifndef FZ_DT_PATH
#error "FZ_DT_PATH (the AN7581 device tree blob) must be defined by the build"
#endif

static const char *const names[3] = { "AES-128-GCM", "AES-192-GCM", "AES-256-GCM" };

struct world {
	OSSL_LIB_CTX *lib;
	OSSL_PROVIDER *eip93, *dflt;
	EVP_CIPHER *test[3], *ref[3];
	struct fz_side ts, rs;
};
static struct world worlds[2]; /* FZ_CTR, FZ_KGCM */
static struct fz_totals tot;
static int forced = -1; /* EIP93_FUZZ_COMPOSITION */

/* The kernel AES-GCM world's provider configuration. */
static const char kgcm_conf[] =
	"openssl_conf = conf\n[conf]\nproviders = provs\n[provs]\neip93 = eip93_sect\n"
	"[eip93_sect]\nactivate = 1\nkernel-algorithm = gcm_base(ctr(aes-eip93),ghash-generic)\n"
	"tag-check = 1\n";

static void die(const char *what)
{
	fprintf(stderr, "eip93-fuzz: %s\n", what);
	ERR_print_errors_fp(stderr);
	exit(2);
}

static uint64_t counter(struct world *w, const char *name)
{
	uint64_t v = 0;
	OSSL_PARAM p[2] = { OSSL_PARAM_construct_uint64(name, &v), OSSL_PARAM_END };

	if (!OSSL_PROVIDER_get_params(w->eip93, p))
		die("cannot read the eip93 counters");
	return v;
}

/* A configuration file for a library context (OSSL_LIB_CTX_load_config() reads files only). */
static void load_conf(OSSL_LIB_CTX *lib, const char *text)
{
	char path[] = "/tmp/eip93-fuzz-conf.XXXXXX";
	int fd = mkstemp(path), ok;
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	if (f == NULL)
		die("cannot write the kernel AES-GCM world's configuration");
	ok = fputs(text, f) >= 0;
	ok = fclose(f) == 0 && ok;
	ok = ok && OSSL_LIB_CTX_load_config(lib, path);
	unlink(path);
	if (!ok)
		die("cannot load the kernel AES-GCM world's configuration");
}

static void world_open(int comp)
{
	static const char *const want[2] = { "enabled: ctr(aes-eip93)",
					     "enabled: gcm_base(ctr(aes-eip93),ghash-generic)" };
	struct world *w = &worlds[comp];
	char *gate = NULL;
	OSSL_PARAM p[2] = { OSSL_PARAM_construct_utf8_ptr("eip93-gate", &gate, 0), OSSL_PARAM_END };

	w->lib = OSSL_LIB_CTX_new();
	if (w->lib == NULL || !OSSL_PROVIDER_add_builtin(w->lib, "eip93", OSSL_provider_init))
		die("cannot register eip93 as a built-in provider");
	if (comp == FZ_KGCM)
		load_conf(w->lib, kgcm_conf);
	w->eip93 = OSSL_PROVIDER_load(w->lib, "eip93");
	w->dflt = OSSL_PROVIDER_load(w->lib, "default");
	if (w->eip93 == NULL || w->dflt == NULL)
		die("cannot load the eip93 and default providers");
	if (!OSSL_PROVIDER_get_params(w->eip93, p) || gate == NULL ||
	    strncmp(gate, want[comp], strlen(want[comp])) != 0) {
		fprintf(stderr, "eip93-fuzz: eip93 gate: %s\n", gate != NULL ? gate : "(none)");
		die("the eip93 gate is not open on the composition wanted (EIP93_TEST_* "
		    "environment?)");
	}
	for (int k = 0; k < 3; k++) {
		w->test[k] = EVP_CIPHER_fetch(w->lib, names[k], "provider=eip93");
		w->ref[k] = EVP_CIPHER_fetch(w->lib, names[k], "provider=default");
		if (w->test[k] == NULL || w->ref[k] == NULL)
			die("cannot fetch AES-GCM from both providers");
		w->ts.c[k] = w->test[k];
		w->rs.c[k] = w->ref[k];
		w->ts.ref[k] = w->rs.ref[k] = w->ref[k];
	}
	w->ts.label = "eip93";
	w->rs.label = "default";
}

static void world_close(int comp)
{
	struct world *w = &worlds[comp];

	for (int k = 0; k < 3; k++) {
		EVP_CIPHER_free(w->test[k]);
		EVP_CIPHER_free(w->ref[k]);
		w->test[k] = w->ref[k] = NULL;
	}
	OSSL_PROVIDER_unload(w->eip93);
	OSSL_PROVIDER_unload(w->dflt);
	OSSL_LIB_CTX_free(w->lib);
	w->lib = NULL;
}

void fz_harness_init(void)
{
	/* Before the provider initialises: the fake engine, an AN7581 device tree, no hwcaps. */
	setenv("EIP93_TEST_ENGINE", "fake", 1);
	setenv("EIP93_TEST_DT_PATH", FZ_DT_PATH, 0);
	setenv("EIP93_TEST_HWCAP", "0", 1);
	unsetenv("EIP93_TEST_FAKE");
	unsetenv("EIP93_PROVIDER");
	if (!fz_rand_install())
		die("cannot install the deterministic RAND_METHOD");
	eip93_fake_set_plan(NULL);
	{
		const char *c = getenv("EIP93_FUZZ_COMPOSITION");

		if (c != NULL && strcmp(c, "ctr") == 0)
			forced = FZ_CTR;
		else if (c != NULL && strcmp(c, "kgcm") == 0)
			forced = FZ_KGCM;
		else if (c != NULL && *c != '\0' && strcmp(c, "input") != 0)
			die("EIP93_FUZZ_COMPOSITION: ctr, kgcm or input");
	}
	world_open(FZ_CTR);
	world_open(FZ_KGCM);
}

static void set_plan(const struct fz_plan *fp)
{
	static const enum eip93_fake_site sites[] = { EIP93_FAKE_NONE, EIP93_FAKE_OPEN,
						      EIP93_FAKE_SEAL, EIP93_FAKE_UNSEAL,
						      EIP93_FAKE_DATA };
	static const enum eip93_fake_kind kinds[] = { EIP93_FAKE_ERRNO,	  EIP93_FAKE_SHORT,
						      EIP93_FAKE_BADMSG,  EIP93_FAKE_KEYSTREAM,
						      EIP93_FAKE_NOWRITE, EIP93_FAKE_TAGMASK,
						      EIP93_FAKE_SKIP };
	struct eip93_fake_plan p;

	memset(&p, 0, sizeof(p));
	p.site = sites[fp->site];
	p.kind = kinds[fp->kind];
	p.err = fp->err;
	p.nth = fp->nth;
	p.every = fp->every;
	p.block = fp->block;
	p.count = fp->count;
	p.mask = fp->mask;
	eip93_fake_set_plan(fp->site == 0 ? NULL : &p);
}

int fz_harness_one(const uint8_t *data, size_t size, int print)
{
	struct fz_script s;
	struct world *w;
	struct eip93_fake_stats st;
	uint64_t msgs0, msgs1;
	int r;

	fz_decode(data, size, &s);
	if (forced >= 0)
		s.composition = forced;
	w = &worlds[s.composition];
	if (print)
		fz_print(stdout, &s, -1);
	set_plan(&s.plan);
	msgs0 = counter(w, "eip93-engine-messages");
	r = fz_compare_run(&s, &w->ts, &w->rs);
	msgs1 = counter(w, "eip93-engine-messages");
	eip93_fake_get_stats(&st);
	tot.execs++;
	tot.by_composition[s.composition]++;
	tot.engine_messages += msgs1 - msgs0;
	tot.engine_execs += msgs1 != msgs0;
	tot.fault_execs += s.plan.site != 0;
	tot.faults += st.faults;
	tot.divergences += r != 0;
	if (print)
		printf("result: %s; engine messages %llu, fake calls: %lu opens, %lu seals, %lu "
		       "unseals, "
		       "%lu faults\n",
		       r == 0 ? "same on both sides" : "DIVERGENCE",
		       (unsigned long long)(msgs1 - msgs0), st.opens, st.seals, st.unseals,
		       st.faults);
	eip93_fake_set_plan(NULL);
	{
		/* Every input starts with the engine on and a fresh error and fault budget. */
		struct eip93_alg_env *env = OSSL_PROVIDER_get0_provider_ctx(w->eip93);

		if (atomic_load(&env->engine_disabled)) {
			world_close(s.composition);
			world_open(s.composition);
			tot.reloads++;
		} else {
			atomic_store(&env->consecutive_errors, 0);
			atomic_store(&env->faults, 0);
			eip93_verdict_free(env); /* the next input's keys are checked again */
		}
	}
	return r;
}

const struct fz_totals *fz_harness_totals(void)
{
	return &tot;
}

void fz_harness_summary(const char *prefix)
{
	const struct fz_totals *t = &tot;

	fprintf(stderr,
		"%sexecutions %lu, reaching the engine %lu (%.1f%%), engine messages %lu, with a "
		"fault "
		"plan %lu, faults injected %lu, provider reloads %lu, divergences %lu "
		"(compositions: ctr(aes-eip93) %lu, gcm_base %lu)\n",
		prefix, t->execs, t->engine_execs,
		t->execs != 0 ? 100.0 * (double)t->engine_execs / (double)t->execs : 0.0,
		t->engine_messages, t->fault_execs, t->faults, t->reloads, t->divergences,
		t->by_composition[FZ_CTR], t->by_composition[FZ_KGCM]);
}

void fz_harness_done(void)
{
	for (int c = 0; c < 2; c++) {
		fz_tr_free(&worlds[c].ts.tr);
		fz_tr_free(&worlds[c].rs.tr);
		world_close(c);
	}
}
