// SPDX-License-Identifier: Apache-2.0
/*
 * `eip93-doctor calibrate`: does the engine beat software on this box, and
 * for which payload sizes?
 *
 * For each composition on each backend (AF_ALG, then /dev/crypto), a
 * private library context loads eip93 with its window forced open
 * (min-size 16, max-size 65536), that composition as kernel-algorithm, that
 * backend as engine-backend and no calibration file; where its gate opens, AES-GCM
 * fetched with provider=eip93 is the engine path exactly as applications
 * get it.  The default provider of the same libcrypto is the software
 * contender.  Payloads 1..64 KiB, AES-128/256, encrypt/decrypt, every
 * contender once per round (their order alternating), for --rounds rounds:
 * medians with the slowest and fastest round.  The decision is
 * provider/calib_decide.c's, the file provider/calib.c's; the winner's
 * backend is written with it.
 */
#include "calibrate.h"

#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#include "../detect/detect.h"
#include "../engine/engine.h"
#include "../provider/soc.h"
#include "advice.h"
#include "calib_modes.h"
#include "calib_opts.h"
#include "calib_report.h"
#include "calib_time.h"
#include "rows.h"

#ifndef EIP93_VERSION
#define EIP93_VERSION "unknown"
#endif

#define AADLEN 13
#define MAXLEN 65536

/* The reference ciphertexts: AES-128-GCM, AES-256-GCM, ChaCha20-Poly1305. */
#define SLOT_CHACHA 2
#define NSLOTS 3

/* One contender for one (key size, direction): a context keyed once. */
struct contender {
	OSSL_LIB_CTX *lib;
	EVP_CIPHER *c[2]; /* AES-128-GCM, AES-256-GCM (ChaCha20-Poly1305 twice) */
	EVP_CIPHER_CTX *ctx[EIP93_CALIB_NCELLS];
	int chacha; /* the ChaCha20-Poly1305 reference: its own ciphertexts */
};

static unsigned char key[32], iv[12], aad[AADLEN];
static unsigned char *pt, *ct, *out, tags[EIP93_CALIB_NSIZES][NSLOTS][16], last_tag[16];

/* One message of @len bytes; 1 on success (decryption authenticated). */
static int message(EVP_CIPHER_CTX *ctx, int cell, int s, size_t len, int chacha)
{
	int enc = cell % 2 == 0, bits = chacha ? SLOT_CHACHA : cell < 2 ? 0 : 1, n = 0, f = 0;

	if (!EVP_CipherInit_ex2(ctx, NULL, NULL, iv, enc, NULL))
		return 0;
	if (!enc && !EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 16, tags[s][bits]))
		return 0;
	if (!EVP_CipherUpdate(ctx, NULL, &n, aad, AADLEN) ||
	    !EVP_CipherUpdate(ctx, out, &n, enc ? pt : ct + (size_t)bits * MAXLEN, (int)len) ||
	    !EVP_CipherFinal_ex(ctx, out + n, &f))
		return 0;
	if (enc && !EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, last_tag))
		return 0;
	return 1;
}

/*
 * Time messages for at least @ms ms and 2 messages: MB/s, and CPU ns per
 * byte (CLOCK_PROCESS_CPUTIME_ID: user + system time of every thread of this
 * process, so the engine rows show what the CPU still spends on them).
 */
static int measure(const struct contender *c, int cell, int s, unsigned int ms, double *mbs,
		   double *cpu)
{
	EVP_CIPHER_CTX *ctx = c->ctx[cell];
	size_t len = eip93_calib_sizes[s];
	double t0 = calib_now(CLOCK_MONOTONIC), c0 = calib_now(CLOCK_PROCESS_CPUTIME_ID), t;
	unsigned long n = 0;

	do {
		if (!message(ctx, cell, s, len, c->chacha))
			return -1;
		n++;
		t = calib_now(CLOCK_MONOTONIC) - t0;
	} while (n < 2 || t * 1000.0 < ms);
	*mbs = (double)len * (double)n / t / 1e6;
	*cpu = (calib_now(CLOCK_PROCESS_CPUTIME_ID) - c0) * 1e9 / ((double)len * (double)n);
	*mbs = calib_round3(*mbs); /* decided on what is printed */
	return 0;
}

static const char *gate_text(OSSL_LIB_CTX *lib, char *buf, size_t len, char *version, size_t vlen)
{
	OSSL_PROVIDER *p = OSSL_PROVIDER_load(lib, "eip93");
	const char *g = NULL, *v = NULL;
	OSSL_PARAM q[3];

	snprintf(buf, len, "eip93 not loadable");
	if (p == NULL)
		return buf;
	q[0] = OSSL_PARAM_construct_utf8_ptr("eip93-status", (char **)&g, 0);
	q[1] = OSSL_PARAM_construct_utf8_ptr("version", (char **)&v, 0);
	q[2] = OSSL_PARAM_construct_end();
	if (OSSL_PROVIDER_get_params(p, q) && g != NULL)
		snprintf(buf, len, "%s", g);
	if (v != NULL && version != NULL)
		snprintf(version, vlen, "%s", v);
	OSSL_PROVIDER_unload(p);
	return buf;
}

/*
 * A library context with eip93 forced onto @kalg on engine row @row and its
 * window open; NULL @kalg: the default provider alone.
 */
static OSSL_LIB_CTX *lib_for(const char *kalg, const struct eip93_engine_row *row)
{
	char path[] = "/tmp/eip93-calibrate-XXXXXX";
	OSSL_LIB_CTX *lib;
	FILE *f;
	int fd = mkstemp(path), ok;

	if (fd < 0 || (f = fdopen(fd, "w")) == NULL) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	fprintf(f,
		"openssl_conf = openssl_init\n[openssl_init]\nproviders = provider_sect\n"
		"[provider_sect]\ndefault = default_sect\n%s[default_sect]\nactivate = 1\n",
		kalg != NULL ? "eip93 = eip93_sect\n" : "");
	if (kalg != NULL)
		fprintf(f,
			"[eip93_sect]\nactivate = 1\nnotice = no\ncalibration-file = none\n"
			/* one message at a time: the serial path decides the window */
			"keystream-ahead = no\n"
			"min-size = 16\nmax-size = 65536\nkernel-algorithm = %s\n"
			"engine-backend = %s\n",
			kalg, row->name);
	fclose(f);
	lib = OSSL_LIB_CTX_new();
	ok = lib != NULL && OSSL_LIB_CTX_load_config(lib, path);
	unlink(path);
	if (!ok) {
		OSSL_LIB_CTX_free(lib);
		ERR_clear_error();
		return NULL;
	}
	return lib;
}

static void contender_free(struct contender *c)
{
	for (int k = 0; k < EIP93_CALIB_NCELLS; k++)
		EVP_CIPHER_CTX_free(c->ctx[k]);
	EVP_CIPHER_free(c->c[0]);
	EVP_CIPHER_free(c->c[1]);
	OSSL_LIB_CTX_free(c->lib);
	memset(c, 0, sizeof(*c));
}

/* Fetch with @props, key each context, warm up (the key check), check the answers. */
static int contender_open(struct contender *c, const char *props, const char *what)
{
	ERR_set_mark();
	c->c[0] = EVP_CIPHER_fetch(c->lib, c->chacha ? "ChaCha20-Poly1305" : "AES-128-GCM", props);
	c->c[1] = EVP_CIPHER_fetch(c->lib, c->chacha ? "ChaCha20-Poly1305" : "AES-256-GCM", props);
	ERR_pop_to_mark();
	if (c->c[0] == NULL || c->c[1] == NULL)
		return -ENOENT;
	for (int k = 0; k < EIP93_CALIB_NCELLS; k++) {
		c->ctx[k] = EVP_CIPHER_CTX_new();
		if (c->ctx[k] == NULL ||
		    !EVP_CipherInit_ex2(c->ctx[k], c->c[k / 2], key, iv, k % 2 == 0, NULL))
			return -ENOMEM;
		for (int s = 0; s < EIP93_CALIB_NSIZES; s++) {
			int slot = c->chacha ? SLOT_CHACHA : k / 2;

			if (!message(c->ctx[k], k, s, eip93_calib_sizes[s], c->chacha)) {
				fprintf(stderr,
					"eip93-doctor calibrate: %s: %s of %zu bytes failed\n",
					what, eip93_calib_cell_names[k], eip93_calib_sizes[s]);
				return -EIO;
			}
			if (k % 2 == 0 &&
			    (memcmp(out, ct + (size_t)slot * MAXLEN, eip93_calib_sizes[s]) != 0 ||
			     memcmp(last_tag, tags[s][slot], 16) != 0)) {
				fprintf(stderr, "eip93-doctor calibrate: %s: wrong ciphertext\n",
					what);
				return -EIO;
			}
		}
	}
	return 0;
}

/*
 * The software reference: ciphertexts and tags every contender must
 * reproduce.  Return: 0, -1 when AES-GCM is missing, 1 when only
 * ChaCha20-Poly1305 is (a libcrypto built without it: no reference row).
 */
static int reference(OSSL_LIB_CTX *lib)
{
	static const char *const names[NSLOTS] = { "AES-128-GCM", "AES-256-GCM",
						   "ChaCha20-Poly1305" };

	for (int b = 0; b < NSLOTS; b++) {
		EVP_CIPHER *c;
		EVP_CIPHER_CTX *x;
		int ok, n, f;

		ERR_set_mark();
		c = EVP_CIPHER_fetch(lib, names[b], "provider=default");
		ERR_pop_to_mark();
		if (c == NULL && b == SLOT_CHACHA)
			return 1;
		x = EVP_CIPHER_CTX_new();
		ok = c != NULL && x != NULL;
		for (int s = 0; ok && s < EIP93_CALIB_NSIZES; s++)
			ok = EVP_EncryptInit_ex2(x, c, key, iv, NULL) &&
			     EVP_EncryptUpdate(x, NULL, &n, aad, AADLEN) &&
			     EVP_EncryptUpdate(x, ct + (size_t)b * MAXLEN, &n, pt,
					       (int)eip93_calib_sizes[s]) &&
			     EVP_EncryptFinal_ex(x, ct + (size_t)b * MAXLEN + n, &f) &&
			     EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_GET_TAG, 16, tags[s][b]);
		/* The buffer holds the longest message's ciphertext: a prefix of each. */
		EVP_CIPHER_CTX_free(x);
		EVP_CIPHER_free(c);
		if (!ok)
			return b == SLOT_CHACHA ? 1 : -1;
	}
	return 0;
}

/*
 * Every round: every size and row, software, each composition and the
 * ChaCha20-Poly1305 reference (@cha, NULL when absent; only cells 2 and 3,
 * its one key size), reversed on odd rounds.
 */
static int run_rounds(struct calib_run *run, struct contender *sw, struct contender *eng,
		      struct contender *cha, const struct calib_opts *o)
{
	static double v[CALIB_NCOMP + 2][EIP93_CALIB_NSIZES][EIP93_CALIB_NCELLS][CALIB_MAX_ROUNDS];
	static double cpu[CALIB_NCOMP + 2][EIP93_CALIB_NSIZES][EIP93_CALIB_NCELLS]
			 [CALIB_MAX_ROUNDS];
	int nb = 0, idx[CALIB_NCOMP + 2];
	unsigned int steps, step = 0;

	idx[nb++] = -1;
	for (int i = 0; i < CALIB_NCOMP; i++)
		if (run->comp[i].bound)
			idx[nb++] = i;
	if (cha != NULL)
		idx[nb++] = -2;
	steps = o->rounds * EIP93_CALIB_NSIZES;
	for (unsigned int r = 0; r < o->rounds; r++) {
		for (int s = 0; s < EIP93_CALIB_NSIZES; s++) {
			fprintf(stderr,
				isatty(2) ? "\rprogress: %3u%% round %u/%u, %5zu bytes  "
					  : "progress: %3u%% round %u/%u, %zu bytes\n",
				100 * step++ / steps, r + 1, o->rounds, eip93_calib_sizes[s]);
			for (int k = 0; k < EIP93_CALIB_NCELLS; k++)
				for (int j = 0; j < nb; j++) {
					int w = r % 2 ? nb - 1 - j : j;
					struct contender *c = idx[w] == -1   ? sw
							      : idx[w] == -2 ? cha
									     : &eng[idx[w]];

					if (c == cha && k < 2)
						continue;
					if (measure(c, k, s, o->time_ms, &v[w][s][k][r],
						    &cpu[w][s][k][r]) < 0) {
						fprintf(stderr,
							"eip93-doctor calibrate: a message failed "
							"while measuring\n");
						return -1;
					}
				}
		}
	}
	fprintf(stderr, isatty(2) ? "\rprogress: 100%%%30s\n" : "progress: 100%%%s\n", "");
	for (int s = 0; s < EIP93_CALIB_NSIZES; s++)
		for (int k = 0; k < EIP93_CALIB_NCELLS; k++)
			calib_store(&run->sw[s][k], &run->sw_cpu[s][k], v[0][s][k], cpu[0][s][k],
				    o->rounds);
	run->chacha_ok = cha != NULL;
	for (int s = 0; cha != NULL && s < EIP93_CALIB_NSIZES; s++)
		for (int k = 2; k < EIP93_CALIB_NCELLS; k++)
			calib_store(&run->chacha[s][k - 2], &run->chacha_cpu[s][k - 2],
				    v[nb - 1][s][k], cpu[nb - 1][s][k], o->rounds);
	for (int j = 1; j < nb; j++) {
		struct eip93_calib_table *t;

		if (idx[j] < 0)
			continue;
		t = &run->comp[idx[j]].table;
		t->composition = run->comp[idx[j]].name;
		t->rounds = o->rounds;
		for (int s = 0; s < EIP93_CALIB_NSIZES; s++)
			for (int k = 0; k < EIP93_CALIB_NCELLS; k++) {
				t->cell[s][k].sw = run->sw[s][k];
				t->cell[s][k].sw_cpu = run->sw_cpu[s][k];
				calib_store(&t->cell[s][k].eng, &t->cell[s][k].eng_cpu, v[j][s][k],
					    cpu[j][s][k], o->rounds);
			}
	}
	return 0;
}

/* Per engine row, the library context of its first measured composition (AES-CTR/CBC's). */
static OSSL_LIB_CTX *const *mode_libs(const struct calib_run *run, const struct contender *eng,
				      OSSL_LIB_CTX **libs)
{
	for (int r = 0; r < EIP93_NENGINES; r++) {
		libs[r] = NULL;
		for (int j = EIP93_SOC_MAX_COMPS - 1; j >= 0; j--)
			if (run->comp[r * EIP93_SOC_MAX_COMPS + j].bound)
				libs[r] = eng[r * EIP93_SOC_MAX_COMPS + j].lib;
	}
	return libs;
}

static void utc_now(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* Decide, print the verdict and write the file.  Return: the exit status. */
static int conclude(struct calib_run *run, const struct calib_opts *o)
{
	struct eip93_calib_table tables[CALIB_NCOMP];
	struct eip93_calib_choice ch;
	struct eip93_calib cal;
	const struct calib_comp *comps[CALIB_NCOMP] = { NULL };
	const char *cover = NULL;
	char on[64];
	int n = 0, best, r;

	/*
	 * A composition the gate tries only when kernel-algorithm names it (the
	 * AN7581's ECB one) is measured and printed, but chosen only when no
	 * other bound: the file's composition must be one the gate binds.
	 */
	for (int pass = 0; pass < 2 && n == 0; pass++)
		for (int i = 0; i < CALIB_NCOMP; i++)
			if (run->comp[i].bound && (pass == 1 || !run->comp[i].forced)) {
				comps[n] = &run->comp[i];
				tables[n++] = run->comp[i].table;
			}
	calib_print_table(stdout, run, "");
	best = eip93_calib_choose(tables, (size_t)n, &ch);
	memset(&cal, 0, sizeof(cal));
	utc_now(cal.date, sizeof(cal.date));
	if (eip93_kernel_release(cal.kernel, sizeof(cal.kernel)) < 0)
		snprintf(cal.kernel, sizeof(cal.kernel), "unknown");
	snprintf(cal.openssl, sizeof(cal.openssl), "%s", OpenSSL_version(OPENSSL_VERSION_STRING));
	snprintf(cal.provider, sizeof(cal.provider), "%s", run->provider_version);
	/* n >= 1: the caller measured at least one composition. */
	snprintf(cal.composition, sizeof(cal.composition), "%s",
		 comps[best < 0 ? 0 : best] != NULL ? comps[best < 0 ? 0 : best]->name : "?");
	/* The winner's backend: the gate tries it first under engine-backend = auto. */
	cal.backend = comps[best < 0 ? 0 : best] != NULL ? comps[best < 0 ? 0 : best]->backend
							 : eip93_engine_rows[0].id;
	cal.engine = ch.engine;
	cal.min_size = ch.min_size;
	cal.max_size = ch.engine ? adv_cover_shapes(ch.max_size, &cover) : ch.max_size;
	snprintf(cal.reason, sizeof(cal.reason), "%s", ch.reason);
	calib_modes_decide(run, cal.backend, &cal); /* AES-CTR, AES-CBC on the same backend */
	if (cover != NULL)
		printf("window %zu-%zu extended to %zu: %s (%d bytes past a winning size)\n",
		       ch.min_size, ch.max_size, cal.max_size, cover, ADV_COVER);
	if (ch.engine)
		printf("verdict: engine for %zu-%zu bytes via %s%s\nreason: %s\n", cal.min_size,
		       cal.max_size, cal.composition,
		       tools_row_on(tools_row(cal.backend), on, sizeof(on)), ch.reason);
	else
		printf("verdict: off (software only)\nreason: %s\n", ch.reason);
	if (o->plot != NULL) {
		r = calib_plot(o->plot, run, "eip93 calibration: MB/s by payload size");
		if (r < 0)
			fprintf(stderr,
				"eip93-doctor calibrate: no plot %s (%s; is gnuplot "
				"installed?)\n",
				o->plot, strerror(-r));
		else
			printf("plot: %s\n", o->plot);
	}
	if (o->dry_run) {
		printf("dry run: nothing written\n");
		return 0;
	}
	r = calib_write_file(o->output, &cal, run);
	if (r < 0) {
		fprintf(stderr, "eip93-doctor calibrate: cannot write %s: %s\n", o->output,
			strerror(-r));
		return 1;
	}
	printf("written: %s (processes that load eip93 from now on use it)\n", o->output);
	return 0;
}

int eip93_calibrate_main(int argc, char **argv)
{
	static struct calib_run run;
	const struct eip93_soc *soc = tools_soc();
	struct contender sw, eng[CALIB_NCOMP], cha;
	OSSL_LIB_CTX *libs[EIP93_NENGINES];
	struct calib_opts o;
	int nbound = 0, rc = 1, ref;

	memset(&o, 0, sizeof(o));
	memset(&sw, 0, sizeof(sw));
	memset(&cha, 0, sizeof(cha));
	memset(eng, 0, sizeof(eng));
	if (calib_parse_opts(argc, argv, &o) < 0)
		return 2;
	if (o.if_needed) {
		char why[600];

		if (!calib_needed(o.output, why, sizeof(why))) {
			printf("eip93-doctor calibrate: %s is current; nothing to do\n", o.output);
			return 0;
		}
		printf("eip93-doctor calibrate: %s; calibrating\n", why);
	}
	pt = calloc(1, MAXLEN);
	ct = calloc(NSLOTS, MAXLEN);
	out = calloc(1, MAXLEN + 16);
	sw.lib = lib_for(NULL, NULL);
	if (pt == NULL || ct == NULL || out == NULL || sw.lib == NULL) {
		fprintf(stderr,
			"eip93-doctor calibrate: cannot load the providers (OPENSSL_MODULES "
			"must name the directory of eip93.so if it is not installed)\n");
		goto out;
	}
	for (size_t i = 0; i < MAXLEN; i++)
		pt[i] = (unsigned char)(i * 131 + 7);
	memset(key, 0x42, sizeof(key));
	memset(iv, 0x24, sizeof(iv));
	memset(aad, 0x17, sizeof(aad));
	ref = reference(sw.lib);
	if (ref < 0 || contender_open(&sw, "provider=default", "software") < 0) {
		fprintf(stderr, "eip93-doctor calibrate: the default provider's AES-GCM is not "
				"available\n");
		goto out;
	}
	printf("eip93-doctor calibrate: %s, %u rounds of %u ms per measurement\n",
	       OpenSSL_version(OPENSSL_VERSION), o.rounds, o.time_ms);
	/* The reference row: what a peer offering ChaCha20-Poly1305 costs here (never routed). */
	cha.chacha = 1;
	cha.lib = ref == 0 ? lib_for(NULL, NULL) : NULL;
	if (cha.lib == NULL || contender_open(&cha, "provider=default", "ChaCha20-Poly1305") < 0) {
		printf("reference ChaCha20-Poly1305: not available in this libcrypto\n");
		contender_free(&cha);
	} else {
		printf("reference ChaCha20-Poly1305: measured (never routed)\n");
	}
	for (int i = 0; i < CALIB_NCOMP; i++) {
		/* Each engine row, each of the SoC row's compositions on it, in order. */
		const struct eip93_engine_row *row = &eip93_engine_rows[i / EIP93_SOC_MAX_COMPS];
		size_t j = (size_t)i % EIP93_SOC_MAX_COMPS;
		struct calib_comp *cc = &run.comp[i];
		char want[96];

		if (j >= soc->ncomps)
			continue; /* an unused slot: @name stays NULL, never bound */
		cc->name = soc->comps[j].kalg;
		cc->forced = soc->comps[j].forced;
		cc->backend = row->id;
		tools_comp_path(cc->path, sizeof(cc->path), cc->name, row);
		eng[i].lib = lib_for(cc->name, row);
		if (eng[i].lib == NULL) {
			snprintf(cc->gate, sizeof(cc->gate), "cannot load eip93");
		} else {
			gate_text(eng[i].lib, cc->gate, sizeof(cc->gate), run.provider_version,
				  sizeof(run.provider_version));
			snprintf(want, sizeof(want), "enabled: %s", cc->name);
			cc->bound = strncmp(cc->gate, want, strlen(want)) == 0 &&
				    contender_open(&eng[i], "provider=eip93", cc->name) == 0;
			/* Every warm-up message must have been the engine's (key checks passed). */
			if (cc->bound &&
			    calib_engine_messages(eng[i].lib) <
				    (uint64_t)EIP93_CALIB_NSIZES * EIP93_CALIB_NCELLS) {
				cc->bound = 0;
				snprintf(cc->gate, sizeof(cc->gate),
					 "binds, but its messages did "
					 "not go to the engine (a key check failed? see "
					 "eip93-doctor)");
			}
		}
		printf("composition %s: %s\n", cc->path, cc->bound ? "binds, measured" : cc->gate);
		nbound += cc->bound;
	}
	if (nbound == 0) {
		printf("the engine is not available here: no composition binds; nothing measured, "
		       "nothing written\n");
		rc = 3;
		goto out;
	}
	/* Before minutes of measuring, and only where there is something to measure. */
	if (!o.dry_run && calib_check_writable(o.output) < 0)
		goto out;
	run.rounds = o.rounds;
	if (run_rounds(&run, &sw, eng, cha.lib != NULL ? &cha : NULL, &o) == 0 &&
	    calib_modes_run(&run, sw.lib, mode_libs(&run, eng, libs), pt, &o) == 0)
		rc = conclude(&run, &o);
out:
	contender_free(&sw);
	contender_free(&cha);
	for (int i = 0; i < CALIB_NCOMP; i++)
		contender_free(&eng[i]);
	free(pt);
	free(ct);
	free(out);
	return rc;
}
