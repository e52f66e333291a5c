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
 * overrides it (ecb: the CTR world on the engine's AES-ECB; ahead: the CTR
 * world with keystream-ahead = on named, the fake completing its ahead
 * requests at the wait or, by the input's seed, at the start, and half the
 * seal, unseal and data fault plans, by the seed, moved to its ahead
 * requests alone: site=ahead; ahead-noverify: the same world with the
 * integrity check off, EIP93_TEST_VERIFY=off, every seal, unseal and data
 * plan on the ahead requests alone and a wrong keystream made an unwritten
 * one: the ahead path's own refusal of a block the engine did not write is
 * then all that keeps the outputs right).  In each, three ciphers: AES-GCM, AES-CTR and AES-CBC (the
 * header's bit 7, then 6; EIP93_FUZZ_CIPHER=gcm|ctr|cbc|skc overrides it,
 * skc meaning CTR or CBC as bit 6 says).  For AES-CTR and AES-CBC inputs the
 * fake models the driver's bugs the header asks for (both, unless it says
 * not), with the provider's workarounds on.
 *
 * Beyond the lockstep comparison, one check of the provider's own count:
 * an input without a fault plan must count no wrong engine result
 * (eip93-engine-faults; the driver's modelled bugs are worked around, so
 * they produce none), and one with a plan no more than the fake injected.
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

static const char *const names[FZ_NCIPHERS][3] = {
	{ "AES-128-GCM", "AES-192-GCM", "AES-256-GCM" },
	{ "AES-128-CTR", "AES-192-CTR", "AES-256-CTR" },
	{ "AES-128-CBC", "AES-192-CBC", "AES-256-CBC" },
};

struct world {
	OSSL_LIB_CTX *lib;
	OSSL_PROVIDER *eip93, *dflt;
	EVP_CIPHER *test[FZ_NCIPHERS][3], *ref[FZ_NCIPHERS][3];
	struct fz_side ts, rs;
};
static struct world worlds[2]; /* FZ_CTR, FZ_KGCM */
static struct fz_totals tot;
static int forced = -1;	       /* EIP93_FUZZ_COMPOSITION */
static int ecb_world;	       /* EIP93_FUZZ_COMPOSITION=ecb: the CTR world runs ecb(aes-eip93) */
static int ahead_world;	       /* EIP93_FUZZ_COMPOSITION=ahead: the CTR world, keystream ahead */
static int noverify_world;     /* ... =ahead-noverify: and the integrity check off */
static int forced_cipher = -1; /* EIP93_FUZZ_CIPHER: FZ_GCM, _AES_CTR, _AES_CBC, 3 (either) */

/* The ECB composition's world (EIP93_FUZZ_COMPOSITION=ecb): the engine's AES-ECB forced. */
static const char ecb_conf[] =
	"openssl_conf = conf\n[conf]\nproviders = provs\n[provs]\neip93 = eip93_sect\n"
	"[eip93_sect]\nactivate = 1\nkernel-algorithm = ecb(aes-eip93)\n";

/* The keystream-ahead world (EIP93_FUZZ_COMPOSITION=ahead): the CTR-only composition, ahead on. */
static const char ahead_conf[] =
	"openssl_conf = conf\n[conf]\nproviders = provs\n[provs]\neip93 = eip93_sect\n"
	"[eip93_sect]\nactivate = 1\nkernel-algorithm = ctr(aes-eip93)\nkeystream-ahead = on\n";

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
		die("cannot write a world's configuration");
	ok = fputs(text, f) >= 0;
	ok = fclose(f) == 0 && ok;
	ok = ok && OSSL_LIB_CTX_load_config(lib, path);
	unlink(path);
	if (!ok)
		die("cannot load a world's configuration");
}

static void world_open(int comp)
{
	static const char *const want[2] = { "enabled: ctr(aes-eip93)",
					     "enabled: gcm_base(ctr(aes-eip93),ghash-generic)" };
	const char *wanted = comp == FZ_CTR && ecb_world ? "enabled: ecb(aes-eip93)" : want[comp];
	struct world *w = &worlds[comp];
	char *gate = NULL;
	OSSL_PARAM p[2] = { OSSL_PARAM_construct_utf8_ptr("eip93-gate", &gate, 0), OSSL_PARAM_END };

	w->lib = OSSL_LIB_CTX_new();
	if (w->lib == NULL || !OSSL_PROVIDER_add_builtin(w->lib, "eip93", OSSL_provider_init))
		die("cannot register eip93 as a built-in provider");
	if (comp == FZ_KGCM)
		load_conf(w->lib, kgcm_conf);
	else if (ecb_world)
		load_conf(w->lib, ecb_conf);
	else if (ahead_world)
		load_conf(w->lib, ahead_conf);
	w->eip93 = OSSL_PROVIDER_load(w->lib, "eip93");
	w->dflt = OSSL_PROVIDER_load(w->lib, "default");
	if (w->eip93 == NULL || w->dflt == NULL)
		die("cannot load the eip93 and default providers");
	if (!OSSL_PROVIDER_get_params(w->eip93, p) || gate == NULL ||
	    strncmp(gate, wanted, strlen(wanted)) != 0) {
		fprintf(stderr, "eip93-fuzz: eip93 gate: %s\n", gate != NULL ? gate : "(none)");
		die("the eip93 gate is not open on the composition wanted (EIP93_TEST_* "
		    "environment?)");
	}
	for (int c = 0; c < FZ_NCIPHERS; c++) {
		for (int k = 0; k < 3; k++) {
			w->test[c][k] = EVP_CIPHER_fetch(w->lib, names[c][k], "provider=eip93");
			w->ref[c][k] = EVP_CIPHER_fetch(w->lib, names[c][k], "provider=default");
			if (w->test[c][k] == NULL || w->ref[c][k] == NULL) {
				fprintf(stderr, "eip93-fuzz: %s\n", names[c][k]);
				die("cannot fetch this cipher from both providers");
			}
		}
	}
	for (int c = 0; c < 2; c++) {
		for (int k = 0; k < 3; k++) {
			w->ts.skc[c][k] = w->test[FZ_AES_CTR + c][k];
			w->rs.skc[c][k] = w->ref[FZ_AES_CTR + c][k];
			w->ts.skc_ref[c][k] = w->rs.skc_ref[c][k] = w->ref[FZ_AES_CTR + c][k];
		}
	}
	w->ts.label = "eip93";
	w->rs.label = "default";
}

static void world_close(int comp)
{
	struct world *w = &worlds[comp];

	for (int c = 0; c < FZ_NCIPHERS; c++) {
		for (int k = 0; k < 3; k++) {
			EVP_CIPHER_free(w->test[c][k]);
			EVP_CIPHER_free(w->ref[c][k]);
			w->test[c][k] = w->ref[c][k] = NULL;
		}
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
	unsetenv("EIP93_TEST_VERIFY");
	unsetenv("EIP93_TEST_FAKE_AHEAD");
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
		else if (c != NULL && strcmp(c, "ecb") == 0)
			forced = FZ_CTR, ecb_world = 1; /* every input in the ECB composition */
		else if (c != NULL && strcmp(c, "ahead") == 0)
			forced = FZ_CTR, ahead_world = 1; /* every input in the CTR one, ahead */
		else if (c != NULL && strcmp(c, "ahead-noverify") == 0)
			forced = FZ_CTR, ahead_world = noverify_world = 1;
		else if (c != NULL && *c != '\0' && strcmp(c, "input") != 0)
			die("EIP93_FUZZ_COMPOSITION: ctr, kgcm, ecb, ahead, ahead-noverify or "
			    "input");
		if (noverify_world) /* read as the provider initialises */
			setenv("EIP93_TEST_VERIFY", "off", 1);
	}
	{
		static const char *const cn[4] = { "gcm", "ctr", "cbc", "skc" };
		const char *c = getenv("EIP93_FUZZ_CIPHER");

		for (int i = 0; c != NULL && i < 4; i++)
			if (strcmp(c, cn[i]) == 0)
				forced_cipher = i;
		if (c != NULL && *c != '\0' && strcmp(c, "input") != 0 && forced_cipher < 0)
			die("EIP93_FUZZ_CIPHER: gcm, ctr, cbc, skc (either of the two) or input");
	}
	world_open(FZ_CTR);
	world_open(FZ_KGCM);
}

static void set_plan(const struct fz_plan *fp, uint64_t seed)
{
	static const enum eip93_fake_site sites[] = { EIP93_FAKE_NONE, EIP93_FAKE_OPEN,
						      EIP93_FAKE_SEAL, EIP93_FAKE_UNSEAL,
						      EIP93_FAKE_DATA };
	static const enum eip93_fake_kind kinds[] = { EIP93_FAKE_ERRNO,	  EIP93_FAKE_SHORT,
						      EIP93_FAKE_BADMSG,  EIP93_FAKE_KEYSTREAM,
						      EIP93_FAKE_NOWRITE, EIP93_FAKE_TAGMASK,
						      EIP93_FAKE_SKIP,	  EIP93_FAKE_TAIL,
						      EIP93_FAKE_PAGE };
	static const enum eip93_fake_buf bufs[] = { EIP93_FAKE_BUF_OUT, EIP93_FAKE_BUF_IN,
						    EIP93_FAKE_BUF_TX };
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
	p.byte = fp->byte;
	p.at = fp->at;
	p.buf = bufs[fp->buf % 3];
	p.page = fp->page;
	/* The ahead world: the input's seed moves a data plan to the ahead requests alone. */
	if (ahead_world && fp->site >= 2 && ((seed & 1) != 0 || noverify_world))
		p.site = EIP93_FAKE_AHEAD;
	/* Unchecked, a wrong keystream is a wrong output; an unwritten one must be refused. */
	if (noverify_world && (p.kind == EIP93_FAKE_KEYSTREAM || p.kind == EIP93_FAKE_TAIL ||
			       p.kind == EIP93_FAKE_PAGE || p.kind == EIP93_FAKE_TAGMASK))
		p.kind = EIP93_FAKE_SKIP;
	eip93_fake_set_plan(fp->site == 0 ? NULL : &p);
}

/* The input as EIP93_FUZZ_CIPHER makes it (header bit 7, and 6 but for "skc"); @buf: room. */
static const uint8_t *force_cipher(const uint8_t *data, size_t *size, uint8_t *buf, size_t room)
{
	size_t n = *size < room ? *size : room;

	if (forced_cipher < 0)
		return data;
	memset(buf, 0, room);
	memcpy(buf, data, n);
	if (forced_cipher == FZ_GCM)
		buf[0] &= 0x7f;
	else if (forced_cipher == FZ_AES_CTR)
		buf[0] = (uint8_t)((buf[0] & 0x3f) | 0x80);
	else if (forced_cipher == FZ_AES_CBC)
		buf[0] |= 0xc0;
	else
		buf[0] |= 0x80;
	*size = n != 0 ? n : 1;
	return buf;
}

/*
 * The provider's count of wrong engine results against the plan: none
 * without one, no more than the fake injected with one.  0, or -1 (told).
 * Not under the user-space /dev/crypto's own fault plan
 * (EIP93_TEST_CDEV_FAULT, test/cryptodev: the shim injects what the fake
 * never counts; the lockstep comparison still holds there).
 */
static int check_faults(const struct fz_script *s, uint64_t faults, unsigned long injected)
{
	static int cdev_plan = -1;

	if (cdev_plan < 0) {
		const char *v = getenv("EIP93_TEST_CDEV_FAULT");

		cdev_plan = v != NULL && v[0] != '\0';
	}
	if (cdev_plan || (s->plan.site == 0 && faults == 0) ||
	    (s->plan.site != 0 && faults <= injected))
		return 0;
	fprintf(stderr,
		"DIVERGENCE in the provider's count: %llu wrong engine results counted "
		"(eip93-engine-faults), the fake injected %lu faults%s\n",
		(unsigned long long)faults, injected,
		s->cipher != FZ_GCM && s->bugs != 0
			? " (it models the driver's bugs: are the workarounds on?)"
			: "");
	fz_print(stderr, s, -1);
	return -1;
}

int fz_harness_one(const uint8_t *data, size_t size, int print)
{
	uint8_t buf[FZ_HEADER + FZ_OPSIZE * FZ_MAX_OPS];
	struct fz_script s;
	struct world *w;
	struct eip93_fake_stats st;
	uint64_t msgs0, msgs1, faults0, faults1, used0, dropped0;
	int r;

	data = force_cipher(data, &size, buf, sizeof(buf));
	fz_decode(data, size, &s);
	if (forced >= 0)
		s.composition = forced;
	w = &worlds[s.composition];
	for (int k = 0; k < 3; k++) {
		w->ts.c[k] = w->test[s.cipher][k];
		w->rs.c[k] = w->ref[s.cipher][k];
		w->ts.ref[k] = w->rs.ref[k] = w->ref[s.cipher][k];
	}
	if (print)
		fz_print(stdout, &s, -1);
	set_plan(&s.plan, s.seed);
	if (ahead_world && (s.seed & 2) != 0) /* the fake computes ahead requests at the start */
		setenv("EIP93_TEST_FAKE_AHEAD", "eager", 1);
	else if (ahead_world)
		unsetenv("EIP93_TEST_FAKE_AHEAD");
	if (s.cipher != FZ_GCM)
		eip93_fake_set_bugs((s.bugs & FZ_BUG_DIRECTION ? EIP93_FAKE_BUG_DIRECTION : 0u) |
				    (s.bugs & FZ_BUG_CTR32 ? EIP93_FAKE_BUG_CTR32 : 0u));
	msgs0 = counter(w, "eip93-engine-messages");
	faults0 = counter(w, "eip93-engine-faults");
	used0 = counter(w, "eip93-keystream-ahead-used");
	dropped0 = counter(w, "eip93-keystream-ahead-dropped");
	r = fz_compare_run(&s, &w->ts, &w->rs);
	msgs1 = counter(w, "eip93-engine-messages");
	faults1 = counter(w, "eip93-engine-faults");
	tot.ahead_used += counter(w, "eip93-keystream-ahead-used") - used0;
	tot.ahead_dropped += counter(w, "eip93-keystream-ahead-dropped") - dropped0;
	eip93_fake_get_stats(&st);
	if (r == 0)
		r = check_faults(&s, faults1 - faults0, st.faults);
	tot.execs++;
	tot.by_composition[s.composition]++;
	tot.by_cipher[s.cipher]++;
	tot.engine_by_cipher[s.cipher] += msgs1 != msgs0;
	tot.engine_messages += msgs1 - msgs0;
	tot.engine_execs += msgs1 != msgs0;
	tot.fault_execs += s.plan.site != 0;
	tot.faults += st.faults;
	tot.ahead_requests += st.aheads;
	tot.divergences += r != 0;
	if (print)
		printf("result: %s; engine messages %llu, fake calls: %lu opens, %lu seals, %lu "
		       "unseals, %lu skcipher requests (%lu keystream ahead), %lu faults\n",
		       r == 0 ? "same on both sides" : "DIVERGENCE",
		       (unsigned long long)(msgs1 - msgs0), st.opens, st.seals, st.unseals, st.ctrs,
		       st.aheads, st.faults);
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
		"(compositions: %s %lu, gcm_base %lu; ciphers, of which reaching the "
		"engine: AES-GCM %lu/%lu, AES-CTR %lu/%lu, AES-CBC %lu/%lu); keystream ahead: "
		"requests %lu, used %lu, dropped %lu\n",
		prefix, t->execs, t->engine_execs,
		t->execs != 0 ? 100.0 * (double)t->engine_execs / (double)t->execs : 0.0,
		t->engine_messages, t->fault_execs, t->faults, t->reloads, t->divergences,
		ecb_world	 ? "ecb(aes-eip93)"
		: noverify_world ? "ctr(aes-eip93) ahead, unchecked"
		: ahead_world	 ? "ctr(aes-eip93) ahead"
				 : "ctr(aes-eip93)",
		t->by_composition[FZ_CTR], t->by_composition[FZ_KGCM], t->by_cipher[FZ_GCM],
		t->engine_by_cipher[FZ_GCM], t->by_cipher[FZ_AES_CTR],
		t->engine_by_cipher[FZ_AES_CTR], t->by_cipher[FZ_AES_CBC],
		t->engine_by_cipher[FZ_AES_CBC], t->ahead_requests, t->ahead_used,
		t->ahead_dropped);
}

void fz_harness_done(void)
{
	for (int c = 0; c < 2; c++) {
		fz_tr_free(&worlds[c].ts.tr);
		fz_tr_free(&worlds[c].rs.tr);
		world_close(c);
	}
}
