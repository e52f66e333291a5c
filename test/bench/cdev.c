// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-bench, section 7 (only with --sections 7; linked in by
 * test/cryptodev/bench.cmake): /dev/crypto beside AF_ALG on the same kernel
 * algorithm, TLS 1.3 record shape, encrypt and decrypt, 4/16/32 KiB, from
 * one run.  Five contenders alternate message by message (measure.c):
 *
 *   prov cdev   the provider with the /dev/crypto backend (a second eip93
 *               instance loaded with EIP93_TEST_ENGINE=cryptodev, the same
 *               configuration file)
 *   raw cdev    the least a /dev/crypto program does (cdev_raw.c): one
 *               CIOCCRYPT with GCM128 in libcrypto, or one CIOCAUTHCRYPT
 *   raw AF_ALG  raw.c's loop
 *   prov AF_ALG the provider with the AF_ALG backend (the main instance)
 *   raw async   ctr(aes-eip93) only, and only when the module was built with
 *               ENABLE_ASYNC: CIOCASYNCCRYPT, poll, CIOCASYNCFETCH (cdev_raw.c)
 *
 * Ratios are throughputs, per round, the median over rounds; printed, never
 * asserted.  Syscalls per message are counted by the program's own ioctl(),
 * sendmsg(), readv() and read() (syscalls.c, exported so the provider's calls
 * land there too) in a separate pass after the timed rounds; the async loop's
 * poll() is counted where it makes it.
 */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/params.h>

#define K_PCD 0	  /* provider, /dev/crypto backend */
#define K_RCD 1	  /* raw /dev/crypto, synchronous (the baseline) */
#define K_RAF 2	  /* raw AF_ALG */
#define K_PAF 3	  /* provider, AF_ALG backend */
#define K_ASYNC 4 /* raw /dev/crypto, asynchronous */
#define COUNT_MSGS 8

static const char *const names[NCONT] = { "prov cdev", "raw cdev", "raw AF_ALG", "prov AF_ALG",
					  "raw async" };

/* ---- the section ------------------------------------------------------------ */

static OSSL_LIB_CTX *lib_cd;
static OSSL_PROVIDER *prov_cd, *dflt_cd;
static EVP_CIPHER *c_cd;

static uint64_t counter(OSSL_PROVIDER *p, const char *name)
{
	uint64_t v = 0;
	OSSL_PARAM q[2];

	q[0] = OSSL_PARAM_construct_uint64(name, &v);
	q[1] = OSSL_PARAM_construct_end();
	return OSSL_PROVIDER_get_params(p, q) ? v : UINT64_MAX;
}

/* The eip93 instance on /dev/crypto, configured as the main one; its gate on B.kalg. */
static int cd_instance(void)
{
	const char *conf = getenv("OPENSSL_CONF"), *gate = NULL;
	char alg[16];
	OSSL_PARAM p[2];

	setenv("EIP93_TEST_ENGINE", "cryptodev", 1);
	lib_cd = OSSL_LIB_CTX_new();
	if (lib_cd != NULL && conf != NULL && !OSSL_LIB_CTX_load_config(lib_cd, conf))
		fail("the /dev/crypto instance cannot load %s", conf);
	dflt_cd = lib_cd != NULL ? OSSL_PROVIDER_load(lib_cd, "default") : NULL;
	prov_cd = lib_cd != NULL ? OSSL_PROVIDER_load(lib_cd, "eip93") : NULL;
	unsetenv("EIP93_TEST_ENGINE");
	snprintf(alg, sizeof(alg), "AES-%zu-GCM", B.keylen * 8);
	c_cd = prov_cd != NULL ? EVP_CIPHER_fetch(lib_cd, alg, "provider=eip93") : NULL;
	if (c_cd == NULL) {
		fail("cannot load the eip93 instance on /dev/crypto (a test-hooks build is "
		     "needed)");
		return -1;
	}
	p[0] = OSSL_PARAM_construct_utf8_ptr("eip93-gate", (char **)&gate, 0);
	p[1] = OSSL_PARAM_construct_end();
	if (!OSSL_PROVIDER_get_params(prov_cd, p) || gate == NULL ||
	    strncmp(gate, "enabled: ", 9) != 0 || strncmp(gate + 9, B.kalg, strlen(B.kalg)) != 0 ||
	    strcmp(gate + 9 + strlen(B.kalg), " via /dev/crypto") != 0) {
		fail("the /dev/crypto instance's gate is not open on %s: %s", B.kalg,
		     gate != NULL ? gate : "(unreadable)");
		return -1;
	}
	return 0;
}

static void cd_instance_free(void)
{
	EVP_CIPHER_free(c_cd);
	OSSL_PROVIDER_unload(prov_cd);
	OSSL_PROVIDER_unload(dflt_cd);
	OSSL_LIB_CTX_free(lib_cd);
	c_cd = NULL;
	prov_cd = dflt_cd = NULL;
	lib_cd = NULL;
}

struct cd_row {
	size_t len;
	double calls[NCONT];
	struct result res;
	int enc;
	int k; /* contenders measured (K_ASYNC + 1 with the async loop) */
	int engine_ok;
	int async_err; /* the async loop failed here with this errno; measured without it */
};

/* Throughput of contender @a over contender @b: the median over rounds. */
static double thr(const struct result *res, int a, int b)
{
	double v[MAX_ROUNDS];

	for (int r = 0; r < res->rounds; r++)
		v[r] = res->t[b][r] / res->t[a][r];
	return median(v, res->rounds);
}

/* What contender @a adds over @b per message, us: the median over rounds. */
static double gap(const struct result *res, int a, int b)
{
	double v[MAX_ROUNDS];

	for (int r = 0; r < res->rounds; r++)
		v[r] = res->t[a][r] - res->t[b][r];
	return median(v, res->rounds);
}

/* The first encryption (sequence number 1) against the default provider's. */
static int check_enc(const unsigned char *out, const char *who, size_t len)
{
	static unsigned char ref1[MAX_PAYLOAD + TAGLEN];
	unsigned char n1[IVLEN];

	nonce_for(n1, base_nonce, 1);
	if (reference13(len, n1, ref1) != 0 || memcmp(out, ref1, len + TAGLEN) != 0) {
		fail("%s encryption differs from the default provider (%zu bytes)", who, len);
		return -1;
	}
	return 0;
}

static int cd_row(struct cd_row *row, int enc, size_t len, int async)
{
	static unsigned char ref[MAX_PAYLOAD + TAGLEN];
	struct contender c[NCONT] = { { 0 } };
	struct evp13 pcd = { 0 }, paf = { 0 };
	struct cdraw rcd, rasync;
	struct raw raf;
	uint64_t em0, sm0, em1, sm1;
	int rc = -1;

	row->enc = enc;
	row->len = len;
	row->k = async ? K_ASYNC + 1 : K_ASYNC;
	row->engine_ok = 0;
	row->async_err = 0;
	memset(&rasync, 0, sizeof(rasync));
	rasync.fd = -1;
	if (reference13(len, base_nonce, ref) != 0) {
		fail("TLS 1.3 reference record");
		return -1;
	}
	if (evp13_open(&pcd, c_cd, enc, len, base_nonce, tls13_aad, ref) != 0)
		return -1;
	if (evp13_open(&paf, B.c_eip93, enc, len, base_nonce, tls13_aad, ref) != 0)
		goto out_pcd;
	if (cdraw_open(&rcd, enc, 0, len, ref) != 0)
		goto out_paf;
	if (raw_open(&raf, enc, tls13_aad, TLS13_AAD, len, base_nonce, ref) != 0)
		goto out_rcd;
	if (async && cdraw_open(&rasync, enc, 1, len, ref) != 0)
		goto out_raf;
	c[K_PCD] = (struct contender){ evp13_prep, evp13_op, &pcd, 0 };
	c[K_RCD] = (struct contender){ cdraw_prep, cdraw_op, &rcd, 0 };
	c[K_RAF] = (struct contender){ raw_prep, raw_op, &raf, 0 };
	c[K_PAF] = (struct contender){ evp13_prep, evp13_op, &paf, 0 };
	c[K_ASYNC] = (struct contender){ cdraw_prep, cdraw_op, &rasync, 0 };

	/* Every raw loop's first answer is the default provider's (decrypt: it accepts). */
	for (int j = K_RCD; j < row->k; j++) {
		if (j == K_PAF)
			continue;
		if (run_n(&c[j], 1) != 0)
			goto out;
	}
	if (enc && (check_enc(rcd.out, "raw /dev/crypto", len) != 0 ||
		    check_enc(raf.out + TLS13_AAD, "raw AF_ALG", len) != 0 ||
		    (async && check_enc(rasync.out, "raw /dev/crypto async", len) != 0)))
		goto out;
	em0 = counter(prov_cd, "eip93-engine-messages");
	sm0 = counter(prov_cd, "eip93-software-messages");
	if (check13(&pcd, ref) != 0 || check13(&paf, ref) != 0) {
		fail("TLS1.3 %s %zu: a provider's answer differs from the reference",
		     enc ? "enc" : "dec", len);
		goto out;
	}
	if (measure(c, row->k, B.rounds, B.batch_s, &row->res) != 0)
		goto out;
	em1 = counter(prov_cd, "eip93-engine-messages");
	sm1 = counter(prov_cd, "eip93-software-messages");
	row->engine_ok = em1 - em0 == (uint64_t)row->res.msgs0 + 1 && sm1 == sm0;
	if (!row->engine_ok)
		fail("TLS1.3 %s %zu on /dev/crypto: %llu of %llu messages took the engine, %llu "
		     "software",
		     enc ? "enc" : "dec", len, (unsigned long long)(em1 - em0),
		     (unsigned long long)row->res.msgs0 + 1, (unsigned long long)(sm1 - sm0));

	/* Syscalls per message, counted by the wrappers in a pass of its own. */
	sys_count = 1;
	for (int j = 0; j < row->k; j++) {
		long n0 = sys_calls;

		if (run_n(&c[j], COUNT_MSGS) != 0) {
			sys_count = 0;
			goto out;
		}
		row->calls[j] = (double)(sys_calls - n0) / COUNT_MSGS;
	}
	sys_count = 0;
	rc = 0;
out:
	if (rc != 0 && async && rasync.async_err != 0) {
		row->async_err = rasync.async_err;
		rc = -2;
	}
	cdraw_close(&rasync);
out_raf:
	raw_close(&raf);
out_rcd:
	cdraw_close(&rcd);
out_paf:
	evp13_close(&paf);
out_pcd:
	evp13_close(&pcd);
	return rc;
}

/* Is the async loop possible here: ctr(aes-eip93) and a module with ENABLE_ASYNC? */
static int async_available(void)
{
	static unsigned char ref[16 + TAGLEN];
	struct cdraw r;
	int e;

	if (strncmp(B.kalg, "ctr(", 4) != 0) {
		printf("   raw async: not measured (the module's asynchronous requests are cipher "
		       "requests; %s is an AEAD)\n",
		       B.kalg);
		return 0;
	}
	if (cdraw_open(&r, 1, 1, 16, ref) != 0)
		return 0;
	e = cdraw_async_works(&r);
	cdraw_close(&r);
	if (e != 0)
		printf("   raw async: not measured (CIOCASYNCCRYPT: %s; the module needs "
		       "CRYPTODEV_CFLAGS=-DENABLE_ASYNC)\n",
		       strerror(-e));
	return e == 0;
}

static void print_rows(const struct cd_row *rows, int n)
{
	char sz[32];

	printf("\n   us per message (median over rounds of each round's median)\n\n");
	printf("   %-3s %7s | %10s %10s | %10s %10s | %10s | %s\n", "dir", "size", "raw AF_ALG",
	       "prov AF_ALG", "raw cdev", "prov cdev", "raw async", "engine (cdev)");
	for (int i = 0; i < n; i++) {
		const struct cd_row *w = &rows[i];
		const struct result *r = &w->res;
		char as[16] = "n/a";

		if (w->k > K_ASYNC)
			snprintf(as, sizeof(as), "%.1f", r->us[K_ASYNC]);
		else if (w->async_err != 0)
			snprintf(as, sizeof(as), "failed");
		printf("   %-3s %7s | %10.1f %10.1f | %10.1f %10.1f | %10s | %s\n",
		       w->enc ? "enc" : "dec", size_str(w->len, sz, sizeof(sz)), r->us[K_RAF],
		       r->us[K_PAF], r->us[K_RCD], r->us[K_PCD], as, w->engine_ok ? "100%" : "NO");
	}
	printf("\n   throughput ratios (per round, median over rounds; min..max for the target "
	       "row);\n   +us: what each provider adds over its raw loop per message\n\n");
	printf("   %-3s %7s | %-22s %6s | %12s | %12s %12s | %11s | %9s %9s | %s\n", "dir", "size",
	       "prov cdev / raw cdev", "target", "prov/raw AF", "raw cd/AF", "prov cd/AF",
	       "async/sync", "+us cdev", "+us AF", "faster provider");
	for (int i = 0; i < n; i++) {
		const struct cd_row *w = &rows[i];
		const struct result *r = &w->res;
		double pc = thr(r, K_PCD, K_PAF);
		char as[16] = "n/a", tgt[32];

		if (w->k > K_ASYNC)
			snprintf(as, sizeof(as), "%.3f", thr(r, K_ASYNC, K_RCD));
		snprintf(tgt, sizeof(tgt), "%.3f (%.3f..%.3f)", r->ratio, r->rmin, r->rmax);
		printf("   %-3s %7s | %-22s %6s | %12.3f | %12.3f %12.3f | %11s | %9.1f %9.1f | "
		       "%s\n",
		       w->enc ? "enc" : "dec", size_str(w->len, sz, sizeof(sz)), tgt,
		       r->ratio >= 0.95 ? ">=0.95" : "<0.95 !", thr(r, K_PAF, K_RAF),
		       thr(r, K_RCD, K_RAF), pc, as, gap(r, K_PCD, K_RCD), gap(r, K_PAF, K_RAF),
		       pc > 1.0 ? "/dev/crypto" : "AF_ALG");
	}
	for (int i = 0; i < n; i++)
		if (rows[i].async_err != 0)
			printf("   raw async %s %s: a request failed (%s), the row measured "
			       "without "
			       "it\n",
			       rows[i].enc ? "enc" : "dec", size_str(rows[i].len, sz, sizeof(sz)),
			       strerror(rows[i].async_err));
	printf("\n   syscalls per message (counted by the program's wrappers, %d messages "
	       "each)\n\n",
	       COUNT_MSGS);
	printf("   %-3s %7s |", "dir", "size");
	for (int j = 0; j < NCONT; j++)
		printf(" %11s", names[j]);
	printf("\n");
	for (int i = 0; i < n; i++) {
		const struct cd_row *w = &rows[i];

		printf("   %-3s %7s |", w->enc ? "enc" : "dec", size_str(w->len, sz, sizeof(sz)));
		for (int j = 0; j < NCONT; j++) {
			if (j < w->k)
				printf(" %11.1f", w->calls[j]);
			else
				printf(" %11s", "n/a");
		}
		printf("\n");
	}
}

void section_cdev(void)
{
	static const size_t sizes[] = { 4096, 16384, 32768 };
	static struct cd_row rows[6];
	int n = 0, async;
	char sz[32];

	printf("\n7. /dev/crypto beside AF_ALG (kernel algorithm %s, TLS 1.3 record shape, same "
	       "key, one run)\n",
	       B.kalg);
	if (cd_instance() != 0) {
		cd_instance_free();
		return;
	}
	async = async_available();
	for (int enc = 1; enc >= 0; enc--)
		for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
			int r = cd_row(&rows[n], enc, sizes[i], async), err = rows[n].async_err;

			if (r == -2) { /* the async loop failed: the row again without it */
				r = cd_row(&rows[n], enc, sizes[i], 0);
				rows[n].async_err = err;
			}
			if (r != 0) {
				printf("   %-3s %7s | (failed, see stderr)\n", enc ? "enc" : "dec",
				       size_str(sizes[i], sz, sizeof(sz)));
				continue;
			}
			n++;
		}
	print_rows(rows, n);
	cd_instance_free();
}
