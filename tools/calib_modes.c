// SPDX-License-Identifier: Apache-2.0
/*
 * tools/calib_modes.c owns the calibration of AES-CTR and AES-CBC: their
 * contenders (the default provider, and eip93 on each engine row where it
 * offers the mode), the checked warm-up, the rounds, the TLS 1.2 CBC record
 * (AES-128-CBC + HMAC-SHA256) and each mode's window.  Every message is one
 * init with the IV, one update of whole blocks (CBC without padding, so the
 * engine takes every block) and a final, as `openssl enc` and TLS records
 * use the modes.
 */
#include "calib_modes.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#include "advice.h"
#include "calib_time.h"
#include "rows.h"

#define MAXLEN 65536
#define HDRLEN 13			      /* a TLS 1.2 record's MAC header */
#define MACLEN 32			      /* HMAC-SHA256 */
#define TLSLEN (ADV_TLS_RECORD + MACLEN + 16) /* record, MAC, a whole padding block */
#define NCONT (1 + EIP93_NENGINES)	      /* software, then each row */

static const char *const evp_names[EIP93_CALIB_NMODES][2] = {
	{ "AES-128-CTR", "AES-256-CTR" },
	{ "AES-128-CBC", "AES-256-CBC" },
};
static const char *const file_names[EIP93_CALIB_NMODES] = { "aes-ctr", "aes-cbc" };
static const char *const titles[EIP93_CALIB_NMODES] = { "AES-CTR", "AES-CBC" };
/* The SoC row's driver name of each mode (provider/soc.h). */
static const enum eip93_soc_mode soc_modes[EIP93_CALIB_NMODES] = { EIP93_MODE_CTR, EIP93_MODE_CBC };

/* One contender for one mode: AES-128 and AES-256, a context per cell, keyed once. */
struct skc {
	EVP_CIPHER *c[2];
	EVP_CIPHER_CTX *ctx[EIP93_CALIB_NCELLS];
};

/* What every contender must reproduce, and the buffers the messages use. */
struct refs {
	const unsigned char *pt;
	unsigned char key[32], iv[16], mac_key[32], hdr[HDRLEN];
	unsigned char *ct[EIP93_CALIB_NMODES][2]; /* software's ciphertext of pt, MAXLEN */
	unsigned char *out;			  /* MAXLEN */
	unsigned char *rec, *rec_ct;		  /* TLSLEN: record || MAC || padding, enciphered */
	EVP_MAC *hmac;
	EVP_MAC_CTX *mac;
};

uint64_t calib_engine_messages(OSSL_LIB_CTX *lib)
{
	OSSL_PROVIDER *p = OSSL_PROVIDER_load(lib, "eip93");
	uint64_t v = 0;
	OSSL_PARAM q[2] = { OSSL_PARAM_construct_uint64("eip93-engine-messages", &v),
			    OSSL_PARAM_construct_end() };

	if (p == NULL)
		return 0;
	if (!OSSL_PROVIDER_get_params(p, q))
		v = 0;
	OSSL_PROVIDER_unload(p);
	return v;
}

/* One message of @len bytes from @in into @dst; 1 on success. */
static int cipher(EVP_CIPHER_CTX *ctx, int enc, const struct refs *rf, const unsigned char *in,
		  unsigned char *dst, size_t len)
{
	int n = 0, f = 0;

	return EVP_CipherInit_ex2(ctx, NULL, NULL, rf->iv, enc, NULL) &&
	       EVP_CIPHER_CTX_set_padding(ctx, 0) && EVP_CipherUpdate(ctx, dst, &n, in, (int)len) &&
	       EVP_CipherFinal_ex(ctx, dst + n, &f) && (size_t)n + (size_t)f == len;
}

/* Cell @k (128 enc, 128 dec, 256 enc, 256 dec) of mode @m, @len bytes. */
static int message(const struct skc *c, int m, int k, size_t len, const struct refs *rf)
{
	int enc = k % 2 == 0;

	return cipher(c->ctx[k], enc, rf, enc ? rf->pt : rf->ct[m][k / 2], rf->out, len);
}

/* HMAC-SHA256 of the record header and @len bytes of @data into @tag. */
static int hmac(const struct refs *rf, const unsigned char *data, size_t len, unsigned char *tag)
{
	size_t tl = 0;
	OSSL_PARAM p[2] = { OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST,
							     (char *)"SHA256", 0),
			    OSSL_PARAM_construct_end() };

	return EVP_MAC_init(rf->mac, rf->mac_key, sizeof(rf->mac_key), p) &&
	       EVP_MAC_update(rf->mac, rf->hdr, HDRLEN) && EVP_MAC_update(rf->mac, data, len) &&
	       EVP_MAC_final(rf->mac, tag, &tl, MACLEN) && tl == MACLEN;
}

/*
 * A TLS 1.2 CBC record with AES-128-CBC of @c: encrypting, the MAC of the
 * record into it, then the record, MAC and padding enciphered; decrypting,
 * deciphered, then the MAC recomputed and compared.
 */
static int tls12(const struct skc *c, int enc, struct refs *rf)
{
	unsigned char tag[MACLEN];

	if (enc)
		return hmac(rf, rf->rec, ADV_TLS_RECORD, rf->rec + ADV_TLS_RECORD) &&
		       cipher(c->ctx[0], 1, rf, rf->rec, rf->out, TLSLEN);
	return cipher(c->ctx[1], 0, rf, rf->rec_ct, rf->out, TLSLEN) &&
	       hmac(rf, rf->out, ADV_TLS_RECORD, tag) &&
	       CRYPTO_memcmp(tag, rf->out + ADV_TLS_RECORD, MACLEN) == 0;
}

static void skc_free(struct skc *c)
{
	for (int k = 0; k < EIP93_CALIB_NCELLS; k++)
		EVP_CIPHER_CTX_free(c->ctx[k]);
	EVP_CIPHER_free(c->c[0]);
	EVP_CIPHER_free(c->c[1]);
	memset(c, 0, sizeof(*c));
}

/* Fetch mode @m from @lib with @props and key a context per cell: 0, -ENOENT or -ENOMEM. */
static int skc_open(struct skc *c, OSSL_LIB_CTX *lib, int m, const char *props,
		    const struct refs *rf)
{
	ERR_set_mark();
	c->c[0] = EVP_CIPHER_fetch(lib, evp_names[m][0], props);
	c->c[1] = EVP_CIPHER_fetch(lib, evp_names[m][1], props);
	ERR_pop_to_mark();
	if (c->c[0] == NULL || c->c[1] == NULL)
		return -ENOENT;
	for (int k = 0; k < EIP93_CALIB_NCELLS; k++) {
		c->ctx[k] = EVP_CIPHER_CTX_new();
		if (c->ctx[k] == NULL ||
		    !EVP_CipherInit_ex2(c->ctx[k], c->c[k / 2], rf->key, rf->iv, k % 2 == 0, NULL))
			return -ENOMEM;
	}
	return 0;
}

/* Every size and cell once, and the TLS 1.2 record (CBC): each answer software's?  0 or -EIO. */
static int warm_up(const struct skc *c, int m, struct refs *rf, const char *what)
{
	for (int s = 0; s < EIP93_CALIB_NSIZES; s++)
		for (int k = 0; k < EIP93_CALIB_NCELLS; k++) {
			size_t len = eip93_calib_sizes[s];
			const unsigned char *want = k % 2 == 0 ? rf->ct[m][k / 2] : rf->pt;

			if (!message(c, m, k, len, rf) || memcmp(rf->out, want, len) != 0) {
				fprintf(stderr,
					"eip93-doctor calibrate: %s: %s %s of %zu bytes failed or "
					"differs from software\n",
					what, evp_names[m][k / 2],
					k % 2 ? "decryption" : "encryption", len);
				return -EIO;
			}
		}
	if (m == EIP93_CALIB_CBC &&
	    (!tls12(c, 1, rf) || memcmp(rf->out, rf->rec_ct, TLSLEN) != 0 || !tls12(c, 0, rf))) {
		fprintf(stderr, "eip93-doctor calibrate: %s: the TLS 1.2 CBC record failed\n",
			what);
		return -EIO;
	}
	return 0;
}

/* Time @k's messages (@k < 0: the TLS record, -1 encrypt, -2 decrypt) like calibrate.c's. */
static int measure(const struct skc *c, int m, int k, size_t len, struct refs *rf, unsigned int ms,
		   double *mbs, double *cpu)
{
	double t0 = calib_now(CLOCK_MONOTONIC), c0 = calib_now(CLOCK_PROCESS_CPUTIME_ID), t;
	unsigned long n = 0;

	do {
		if (!(k >= 0 ? message(c, m, k, len, rf) : tls12(c, k == -1, rf)))
			return -1;
		n++;
		t = calib_now(CLOCK_MONOTONIC) - t0;
	} while (n < 2 || t * 1000.0 < ms);
	*mbs = calib_round3((double)len * (double)n / t / 1e6);
	*cpu = (calib_now(CLOCK_PROCESS_CPUTIME_ID) - c0) * 1e9 / ((double)len * (double)n);
	return 0;
}

/* The software references: ciphertexts of pt, and the TLS record enciphered.  0 or -1. */
static int references(OSSL_LIB_CTX *sw, struct refs *rf)
{
	struct skc c;
	int ok = 1;

	for (int m = 0; ok && m < EIP93_CALIB_NMODES; m++) {
		memset(&c, 0, sizeof(c));
		ok = skc_open(&c, sw, m, "provider=default", rf) == 0;
		for (int b = 0; ok && b < 2; b++)
			ok = cipher(c.ctx[b ? 2 : 0], 1, rf, rf->pt, rf->ct[m][b], MAXLEN);
		if (ok && m == EIP93_CALIB_CBC)
			ok = hmac(rf, rf->rec, ADV_TLS_RECORD, rf->rec + ADV_TLS_RECORD) &&
			     cipher(c.ctx[0], 1, rf, rf->rec, rf->rec_ct, TLSLEN);
		skc_free(&c);
	}
	return ok ? 0 : -1;
}

/* The contenders of mode @m: [0] software, [1 + r] row r's eip93 (ctx NULL: not measured). */
static void open_mode(struct calib_run *run, int m, OSSL_LIB_CTX *sw, OSSL_LIB_CTX *const *eng,
		      struct refs *rf, struct skc *cont)
{
	if (skc_open(&cont[0], sw, m, "provider=default", rf) < 0)
		skc_free(&cont[0]);
	for (int r = 0; r < EIP93_NENGINES; r++) {
		struct calib_skc *k = &run->skc[m][r];
		const char *kalg = tools_soc()->mode[soc_modes[m]];
		uint64_t before;

		memset(k, 0, sizeof(*k));
		if (eng[r] == NULL || cont[0].ctx[0] == NULL || kalg == NULL)
			continue;
		tools_comp_path(k->path, sizeof(k->path), kalg, &eip93_engine_rows[r]);
		before = calib_engine_messages(eng[r]);
		k->bound = skc_open(&cont[1 + r], eng[r], m, "provider=eip93", rf) == 0 &&
			   warm_up(&cont[1 + r], m, rf, k->path) == 0 &&
			   calib_engine_messages(eng[r]) - before >=
				   (uint64_t)EIP93_CALIB_NSIZES * EIP93_CALIB_NCELLS;
		printf("mode %s %s: %s\n", file_names[m], k->path,
		       k->bound ? "binds, measured"
				: "not offered or not on the engine; not measured");
		if (!k->bound)
			skc_free(&cont[1 + r]);
	}
}

/* The rounds' values: [mode][contender][size][cell][round], and the TLS record's [contender][dir]. */
static double v[EIP93_CALIB_NMODES][NCONT][EIP93_CALIB_NSIZES][EIP93_CALIB_NCELLS]
	       [CALIB_MAX_ROUNDS];
static double cpu[EIP93_CALIB_NMODES][NCONT][EIP93_CALIB_NSIZES][EIP93_CALIB_NCELLS]
		 [CALIB_MAX_ROUNDS];
static double tv[NCONT][2][CALIB_MAX_ROUNDS], tcpu[NCONT][2][CALIB_MAX_ROUNDS];

/* One round: every mode, size, cell and contender (reversed on odd rounds), then the TLS record. */
static int one_round(struct skc cont[][NCONT], unsigned int r, struct refs *rf,
		     const struct calib_opts *o)
{
	for (int m = 0; m < EIP93_CALIB_NMODES; m++)
		for (int s = 0; s < EIP93_CALIB_NSIZES; s++) {
			fprintf(stderr,
				isatty(2) ? "\rprogress: %s round %u/%u, %5zu bytes  "
					  : "progress: %s round %u/%u, %zu bytes\n",
				titles[m], r + 1, o->rounds, eip93_calib_sizes[s]);
			for (int k = 0; k < EIP93_CALIB_NCELLS; k++)
				for (int j = 0; j < NCONT; j++) {
					int w = r % 2 ? NCONT - 1 - j : j;

					if (cont[m][w].ctx[0] != NULL &&
					    measure(&cont[m][w], m, k, eip93_calib_sizes[s], rf,
						    o->time_ms, &v[m][w][s][k][r],
						    &cpu[m][w][s][k][r]) < 0)
						return -1;
				}
		}
	for (int j = 0; j < NCONT; j++) {
		int w = r % 2 ? NCONT - 1 - j : j;

		for (int d = 0; cont[EIP93_CALIB_CBC][w].ctx[0] != NULL && d < 2; d++)
			if (measure(&cont[EIP93_CALIB_CBC][w], EIP93_CALIB_CBC, -1 - d,
				    ADV_TLS_RECORD, rf, o->time_ms, &tv[w][d][r],
				    &tcpu[w][d][r]) < 0)
				return -1;
	}
	return 0;
}

/* The medians into @run's tables. */
static void summarise(struct calib_run *run, struct skc cont[][NCONT], unsigned int n)
{
	for (int m = 0; m < EIP93_CALIB_NMODES; m++)
		for (int r = 0; r < EIP93_NENGINES; r++) {
			struct eip93_calib_table *t = &run->skc[m][r].table;

			if (!run->skc[m][r].bound)
				continue;
			t->composition = run->skc[m][r].path;
			t->rounds = n;
			for (int s = 0; s < EIP93_CALIB_NSIZES; s++)
				for (int k = 0; k < EIP93_CALIB_NCELLS; k++) {
					struct eip93_calib_cell *c = &t->cell[s][k];

					calib_store(&c->sw, &c->sw_cpu, v[m][0][s][k],
						    cpu[m][0][s][k], n);
					calib_store(&c->eng, &c->eng_cpu, v[m][1 + r][s][k],
						    cpu[m][1 + r][s][k], n);
				}
		}
	for (int j = 0; j < NCONT; j++) {
		run->tls12.ok[j] = cont[EIP93_CALIB_CBC][j].ctx[0] != NULL;
		for (int d = 0; run->tls12.ok[j] && d < 2; d++)
			calib_store(&run->tls12.v[j][d], &run->tls12.cpu[j][d], tv[j][d],
				    tcpu[j][d], n);
	}
}

int calib_modes_run(struct calib_run *run, OSSL_LIB_CTX *sw, OSSL_LIB_CTX *const *eng,
		    const unsigned char *pt, const struct calib_opts *o)
{
	static struct skc cont[EIP93_CALIB_NMODES][NCONT];
	struct refs rf;
	int rc = -1, any = 0;

	memset(&rf, 0, sizeof(rf));
	memset(cont, 0, sizeof(cont));
	rf.pt = pt;
	memset(rf.key, 0x42, sizeof(rf.key));
	memset(rf.iv, 0x24, sizeof(rf.iv));
	memset(rf.mac_key, 0x5c, sizeof(rf.mac_key));
	memset(rf.hdr, 0x17, sizeof(rf.hdr));
	for (int m = 0; m < EIP93_CALIB_NMODES; m++)
		for (int b = 0; b < 2; b++)
			rf.ct[m][b] = malloc(MAXLEN);
	rf.out = malloc(MAXLEN);
	rf.rec = malloc(TLSLEN);
	rf.rec_ct = malloc(TLSLEN);
	rf.hmac = EVP_MAC_fetch(sw, "HMAC", "provider=default");
	rf.mac = rf.hmac != NULL ? EVP_MAC_CTX_new(rf.hmac) : NULL;
	if (rf.ct[1][1] == NULL || rf.ct[1][0] == NULL || rf.ct[0][1] == NULL ||
	    rf.ct[0][0] == NULL || rf.out == NULL || rf.rec == NULL || rf.rec_ct == NULL ||
	    rf.mac == NULL)
		goto out;
	/* The record: plaintext, room for its MAC, a whole block of padding (16 bytes of 15). */
	memcpy(rf.rec, pt, ADV_TLS_RECORD);
	memset(rf.rec + ADV_TLS_RECORD + MACLEN, 15, 16);
	if (references(sw, &rf) < 0) {
		printf("AES-CTR/CBC: the default provider's are not available; not measured\n");
		rc = 0;
		goto out;
	}
	for (int m = 0; m < EIP93_CALIB_NMODES; m++) {
		open_mode(run, m, sw, eng, &rf, cont[m]);
		for (int r = 0; r < EIP93_NENGINES; r++)
			any |= run->skc[m][r].bound;
	}
	rc = 0;
	for (unsigned int r = 0; any && rc == 0 && r < o->rounds; r++)
		rc = one_round(cont, r, &rf, o);
	if (rc < 0)
		fprintf(stderr, "eip93-doctor calibrate: an AES-CTR/CBC message failed while "
				"measuring\n");
	else if (any)
		summarise(run, cont, o->rounds);
	if (any)
		fprintf(stderr,
			isatty(2) ? "\rprogress: AES-CTR/CBC done%30s\n"
				  : "progress: AES-CTR/CBC done%s\n",
			"");
out:
	for (int m = 0; m < EIP93_CALIB_NMODES; m++)
		for (int j = 0; j < NCONT; j++)
			skc_free(&cont[m][j]);
	for (int m = 0; m < EIP93_CALIB_NMODES; m++)
		for (int b = 0; b < 2; b++)
			free(rf.ct[m][b]);
	free(rf.out);
	free(rf.rec);
	free(rf.rec_ct);
	EVP_MAC_CTX_free(rf.mac);
	EVP_MAC_free(rf.hmac);
	return rc;
}

void calib_modes_decide(const struct calib_run *run, int backend, struct eip93_calib *cal)
{
	for (int m = 0; m < EIP93_CALIB_NMODES; m++) {
		struct eip93_calib_window *w = &cal->mode[m];
		struct eip93_calib_choice ch;
		const struct calib_skc *k = NULL;
		const char *cover = NULL;

		for (int r = 0; r < EIP93_NENGINES; r++)
			if (eip93_engine_rows[r].id == backend && run->skc[m][r].bound)
				k = &run->skc[m][r];
		memset(w, 0, sizeof(*w));
		if (k == NULL) {
			printf("%s: not measured on the winner's backend (the config's window "
			       "applies)\n",
			       titles[m]);
			continue;
		}
		eip93_calib_decide(&k->table, &ch);
		w->set = 1;
		w->engine = ch.engine;
		w->min_size = ch.engine ? ch.min_size : 0;
		w->max_size = ch.engine ? adv_cover_shapes(ch.max_size, &cover) : 0;
		if (ch.engine)
			printf("%s: engine for %zu-%zu bytes via %s (%s)%s%s\n", titles[m],
			       w->min_size, w->max_size, k->path, ch.reason,
			       cover != NULL ? "; extended to cover: " : "",
			       cover != NULL ? cover : "");
		else
			printf("%s: off (software only): %s\n", titles[m], ch.reason);
	}
}
