// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-skc-diff: AES-CTR and AES-CBC through eip93 against the default
 * provider, call by call.  Each case is a random script on two contexts,
 * one fetched from each provider in one library context: inits (direction,
 * key, IV, padding, num; key-only, IV-only and bare re-inits), updates and
 * EVP_Cipher calls of every shape (whole blocks in the engine's window,
 * small, partial, empty; in place or not; CTR counters that wrap their last
 * 32 bits), finals, parameter reads and writes (iv, updated-iv, num,
 * padding) and context copies.  Every answer must be the same: return
 * code, output length and bytes, parameters, the error's reason.
 *
 * Usage: eip93-skc-diff [--cases N] [--seed S] [--min-engine N]
 *                       [--max-faults N] [--min-faults N] [--tls-only 1]
 *                       [--mode ctr|cbc] [--config FILE]
 *        eip93-skc-diff --script NAME|all|list [--cases N] [--seed S]
 * The provider's counters are printed at the end; --min-engine asks for at
 * least N engine messages (so a run that never reached the engine fails),
 * --max-faults / --min-faults bound the wrong engine results counted.
 * --mode runs the cases of one mode only (default: each case picks), so
 * that a run's counters are that mode's; --config loads FILE into the
 * test's library context (the provider's section: engine-backend, window).
 * --script runs a named regression script (named.c) instead, --cases times
 * (default 20).
 * Environment: as the other host tests (OPENSSL_MODULES, EIP93_TEST_*).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#include "named.h"

#define BUF (64 * 1024 + 64)
#define MAX_OPS 24

static uint64_t rs;
static int tls_only;	/* --tls-only 1: TLS 1.2 sessions only */
static char info[160];	/* the operation under way, for a divergence */
static char hist[4096]; /* the case's operations so far */

static void note(const char *what)
{
	size_t n = strlen(hist);

	if (n + strlen(what) + 3 < sizeof(hist))
		snprintf(hist + n, sizeof(hist) - n, "%s; ", what);
}
static unsigned long divergences, cases;
static int only_mode = -1; /* --mode: 0 CTR, 1 CBC; -1 either */

static uint64_t rnd(void)
{
	rs ^= rs << 13;
	rs ^= rs >> 7;
	rs ^= rs << 17;
	return rs;
}

static size_t below(size_t n)
{
	return n == 0 ? 0 : (size_t)(rnd() % n);
}

static void fill(unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)rnd();
}

struct side {
	EVP_CIPHER_CTX *c;
	unsigned char *buf; /* input copy, output */
};

static void diverge(unsigned long n, int op, const char *what)
{
	divergences++;
	if (divergences <= 20)
		printf("DIVERGENCE case %lu op %d: %s (%s)\n  after: %s\n", n, op, what, info,
		       hist);
}

/* The last error's reason (0: none), and the queue cleared. */
static unsigned long reason(void)
{
	unsigned long e = ERR_peek_last_error();

	ERR_clear_error();
	return ERR_GET_REASON(e);
}

/* A message length: the window's whole blocks, small, partial, empty. */
static size_t pick_len(void)
{
	switch (below(8)) {
	case 0:
	case 1:
	case 2:
		return 16 * (256 + below(1024)); /* 4-20 KiB, whole blocks */
	case 3:
		return 16 * (1 + below(64)); /* small whole blocks */
	case 4:
		return 1 + below(100); /* partial */
	case 5:
		return 16 * (256 + below(256)) + below(16); /* large, maybe partial */
	case 6:
		return 0;
	default:
		return 16 * (4096 - below(4)); /* up to 64 KiB */
	}
}

/* An IV: random, or CTR's last 32 bits close to a wrap. */
static void pick_iv(unsigned char iv[16])
{
	fill(iv, 16);
	if (below(4) == 0) {
		iv[12] = iv[13] = iv[14] = 0xff;
		iv[15] = (unsigned char)(0xff - below(300) % 256);
	}
}

static int cmp_param(unsigned long n, int op, struct side *s, const char *key, size_t len)
{
	unsigned char a[16] = { 0 }, b[16] = { 0 };
	unsigned int na = 99, nb = 99;
	OSSL_PARAM pa[2], pb[2];
	int ra, rb;

	pa[1] = pb[1] = OSSL_PARAM_construct_end();
	if (len == 0) {
		pa[0] = OSSL_PARAM_construct_uint(key, &na);
		pb[0] = OSSL_PARAM_construct_uint(key, &nb);
	} else {
		pa[0] = OSSL_PARAM_construct_octet_string(key, a, len);
		pb[0] = OSSL_PARAM_construct_octet_string(key, b, len);
	}
	ra = EVP_CIPHER_CTX_get_params(s[0].c, pa);
	rb = EVP_CIPHER_CTX_get_params(s[1].c, pb);
	ERR_clear_error();
	if (ra != rb || memcmp(a, b, sizeof(a)) != 0 || na != nb) {
		diverge(n, op, key);
		return 0;
	}
	return 1;
}

/* One operation on both sides; 0 when they diverged. */
static int step(unsigned long n, int op, struct side *s, const EVP_CIPHER *const ciph[2], int cbc,
		unsigned char *key, size_t keylen, int *enc)
{
	unsigned char iv[16], *in[2], *out[2];
	int r[2], l[2] = { -1, -1 }, kind = (int)below(20), inplace = (int)below(2);
	unsigned long e[2];
	size_t len;

	if (kind < 3) { /* init */
		OSSL_PARAM p[3], *pp = p;
		unsigned int pad = (unsigned int)below(2), num = (unsigned int)below(16);
		int what = (int)below(5); /* 0 full, 1 IV only, 2 key only, 3 bare, 4 new key */

		if (below(3) == 0)
			*enc = (int)below(2);
		if (what == 4)
			fill(key, keylen);
		pick_iv(iv);
		if (cbc && below(4) == 0)
			*pp++ = OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_PADDING, &pad);
		if (!cbc && below(6) == 0)
			*pp++ = OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_NUM, &num);
		*pp = OSSL_PARAM_construct_end();
		snprintf(info, sizeof(info), "init%d what %d pad %s num %s", *enc, what,
			 p[0].key != NULL && strcmp(p[0].key, "padding") == 0 ? (pad ? "1" : "0")
									      : "-",
			 p[0].key != NULL && strcmp(p[0].key, "num") == 0 ? "set" : "-");
		note(info);
		for (int i = 0; i < 2; i++) {
			r[i] = EVP_CipherInit_ex2(s[i].c, ciph[i],
						  what == 1 || what == 3 ? NULL : key,
						  what == 2 || what == 3 ? NULL : iv, *enc, p);
			e[i] = reason();
		}
		if (r[0] != r[1] || e[0] != e[1]) {
			diverge(n, op, "init");
			return 0;
		}
		return 1;
	}
	if (kind < 5) { /* parameters */
		return cmp_param(n, op, s, OSSL_CIPHER_PARAM_IV, 16) &&
		       cmp_param(n, op, s, OSSL_CIPHER_PARAM_UPDATED_IV, 16) &&
		       cmp_param(n, op, s, OSSL_CIPHER_PARAM_NUM, 0) &&
		       (!cbc || cmp_param(n, op, s, OSSL_CIPHER_PARAM_PADDING, 0));
	}
	if (kind == 5) { /* copies: continue on them */
		note("copy");
		for (int i = 0; i < 2; i++) {
			EVP_CIPHER_CTX *d = EVP_CIPHER_CTX_new();

			r[i] = d != NULL && EVP_CIPHER_CTX_copy(d, s[i].c);
			EVP_CIPHER_CTX_free(r[i] ? s[i].c : d);
			if (r[i])
				s[i].c = d;
		}
		if (r[0] != r[1])
			diverge(n, op, "copy");
		return r[0] == r[1];
	}
	len = pick_len();
	for (int i = 0; i < 2; i++) {
		in[i] = s[i].buf;
		out[i] = inplace ? in[i] : s[i].buf + BUF / 2 + 8;
	}
	fill(in[0], len > BUF / 2 ? BUF / 2 : len);
	len = len > BUF / 2 ? BUF / 2 : len;
	/* CBC's EVP_Cipher of a partial block reads the whole block: the same bytes past @len. */
	memcpy(in[1], in[0], len + 16);
	/*
	 * An output both providers leave partly unwritten (CBC's EVP_Cipher of a
	 * partial last block) must hold the same bytes before, on both sides.
	 */
	if (!inplace)
		for (int i = 0; i < 2; i++)
			memset(out[i], 0xa5, len + 32);
	snprintf(info, sizeof(info), "%s %s len %zu enc %d %s", cbc ? "cbc" : "ctr",
		 kind == 6   ? "final"
		 : kind == 7 ? "cipher"
			     : "update",
		 len, *enc, inplace ? "in place" : "out of place");
	note(info);
	for (int i = 0; i < 2; i++) {
		if (kind == 6) {
			r[i] = EVP_CipherFinal_ex(s[i].c, out[i], &l[i]);
		} else if (kind == 7) {
			r[i] = EVP_Cipher(s[i].c, out[i], in[i], (unsigned int)len);
		} else {
			r[i] = EVP_CipherUpdate(s[i].c, out[i], &l[i], in[i], (int)len);
		}
		e[i] = reason();
	}
	if (r[0] != r[1] || l[0] != l[1] || e[0] != e[1]) {
		diverge(n, op, kind == 6 ? "final" : kind == 7 ? "EVP_Cipher" : "update");
		return 0;
	}
	if (r[0] > 0 && memcmp(out[0], out[1],
			       kind == 7  ? len
			       : l[0] > 0 ? (size_t)l[0]
					  : 0) != 0) {
		diverge(n, op, "output bytes");
		return 0;
	}
	return 1;
}

/* The MAC libssl reads after a record (tls-mac), into @mac; its length, or -1 on failure. */
static long tls_mac(EVP_CIPHER_CTX *c, unsigned char *mac)
{
	void *ptr = NULL;
	OSSL_PARAM q[2] = { OSSL_PARAM_construct_octet_ptr(OSSL_CIPHER_PARAM_TLS_MAC, &ptr, 0),
			    OSSL_PARAM_construct_end() };

	if (!EVP_CIPHER_CTX_get_params(c, q))
		return -1;
	if (ptr != NULL && q[0].return_size <= 64)
		memcpy(mac, ptr, q[0].return_size);
	return ptr == NULL ? 0 : (long)q[0].return_size;
}

/*
 * A TLS 1.2 session on one side pair: tls-version and tls-mac-size (0:
 * encrypt-then-MAC) at the init, then records in place as libssl sends them
 * (explicit IV || data || MAC, padded by the cipher) or receives them (valid
 * ones made with the chain both sides hold, or random blocks: bad padding).
 */
static int tls_case(unsigned long n, OSSL_LIB_CTX *lib, const EVP_CIPHER *const ciph[2],
		    const char *name, unsigned char *key)
{
	static const size_t macs[] = { 0, 20, 32, 48 };
	unsigned int ver = 0x0303;
	size_t macsize = macs[below(4)];
	int enc = (int)below(2), ok = 1;
	OSSL_PARAM p[3] = { OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_TLS_VERSION, &ver),
			    OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_TLS_MAC_SIZE, &macsize),
			    OSSL_PARAM_construct_end() };
	EVP_CIPHER *plain = EVP_CIPHER_fetch(lib, name, "provider=default");
	EVP_CIPHER_CTX *c[2], *mk = EVP_CIPHER_CTX_new();
	unsigned char iv[16], *b[2], mac[2][64];

	fill(iv, sizeof(iv));
	snprintf(hist, sizeof(hist), "%s TLS 1.2 %s mac %zu; ", name, enc ? "send" : "receive",
		 macsize);
	for (int i = 0; i < 2; i++) {
		c[i] = EVP_CIPHER_CTX_new();
		b[i] = malloc(BUF);
		if (c[i] == NULL || b[i] == NULL ||
		    !EVP_CipherInit_ex2(c[i], ciph[i], key, iv, enc, p)) {
			printf("FAIL: TLS setup\n");
			exit(1);
		}
	}
	for (int rec = 0; ok && rec < 8; rec++) {
		size_t dlen = below(3) == 0 ? below(300) : 4000 + below(12400);
		size_t len = 16 + dlen + macsize, pad = 16 - len % 16;
		int r[2], l[2] = { -1, -1 }, valid = enc || below(3) != 0, got;
		unsigned long e[2];
		long ml[2];

		fill(b[0], len + pad);
		if (!enc) {
			if (valid) { /* padded, then encrypted from the chain both sides hold */
				unsigned char chain[16];
				OSSL_PARAM q[2] = { OSSL_PARAM_construct_octet_string(
							    OSSL_CIPHER_PARAM_UPDATED_IV, chain,
							    16),
						    OSSL_PARAM_construct_end() };

				memset(b[0] + len, (int)(pad - 1), pad);
				if (!EVP_CIPHER_CTX_get_params(c[1], q) ||
				    !EVP_CipherInit_ex2(mk, plain, key, chain, 1, NULL) ||
				    !EVP_CIPHER_CTX_set_padding(mk, 0) ||
				    !EVP_CipherUpdate(mk, b[0], &got, b[0], (int)(len + pad))) {
					printf("FAIL: making a record\n");
					exit(1);
				}
				/*
				 * 3.5's default provider tries the updated IV as an octet
				 * pointer first and leaves that error queued: not the call's.
				 */
				ERR_clear_error();
			}
			len += pad;
		}
		memcpy(b[1], b[0], len + 16);
		snprintf(info, sizeof(info), "record %d len %zu %s", rec, len,
			 valid ? "valid" : "random");
		note(info);
		for (int i = 0; i < 2; i++) {
			r[i] = EVP_CipherUpdate(c[i], b[i], &l[i], b[i], (int)len);
			e[i] = reason();
			ml[i] = tls_mac(c[i], mac[i]);
		}
		if (r[0] != r[1] || e[0] != e[1] || (r[0] && l[0] != l[1])) {
			diverge(n, rec, "record");
			ok = 0;
		} else if (r[0] && memcmp(b[0], b[1], enc ? (size_t)l[0] : len) != 0) {
			diverge(n, rec, "record bytes");
			ok = 0;
		} else if (!enc && r[0] &&
			   (ml[0] != ml[1] ||
			    (valid && ml[0] > 0 && memcmp(mac[0], mac[1], (size_t)ml[0]) != 0))) {
			diverge(n, rec, "tls-mac");
			ok = 0;
		}
	}
	for (int i = 0; i < 2; i++) {
		EVP_CIPHER_CTX_free(c[i]);
		free(b[i]);
	}
	EVP_CIPHER_CTX_free(mk);
	EVP_CIPHER_free(plain);
	return ok;
}

static int one_case(unsigned long n, OSSL_LIB_CTX *lib)
{
	static const char *const names[2][3] = { { "AES-128-CTR", "AES-192-CTR", "AES-256-CTR" },
						 { "AES-128-CBC", "AES-192-CBC", "AES-256-CBC" } };
	/* (--mode leaves the draw: a seed's other choices stay as they were) */
	int pick = tls_only || (int)below(2), cbc = only_mode >= 0 && !tls_only ? only_mode : pick;
	int ks = (int)below(3), enc = (int)below(2), ok = 1;
	size_t keylen = 16 + 8 * (size_t)ks;
	unsigned char key[32], iv[16];
	EVP_CIPHER *ciph[2];
	struct side s[2];

	ciph[0] = EVP_CIPHER_fetch(lib, names[cbc][ks], "provider=eip93");
	ciph[1] = EVP_CIPHER_fetch(lib, names[cbc][ks], "provider=default");
	if (ciph[0] == NULL || ciph[1] == NULL) {
		printf("FAIL: %s not offered by both providers\n", names[cbc][ks]);
		exit(1);
	}
	fill(key, sizeof(key));
	pick_iv(iv);
	if (cbc && (tls_only || below(4) == 0)) {
		ok = tls_case(n, lib, (const EVP_CIPHER *const *)ciph, names[cbc][ks], key);
		EVP_CIPHER_free(ciph[0]);
		EVP_CIPHER_free(ciph[1]);
		return ok;
	}
	snprintf(hist, sizeof(hist), "%s enc %d; ", names[cbc][ks], enc);
	for (int i = 0; i < 2; i++) {
		s[i].c = EVP_CIPHER_CTX_new();
		/* (room: the output at BUF / 2 + 8 takes up to BUF / 2 + 32 bytes) */
		s[i].buf = malloc(BUF + 64);
		if (s[i].c == NULL || s[i].buf == NULL ||
		    !EVP_CipherInit_ex2(s[i].c, ciph[i], key, iv, enc, NULL)) {
			printf("FAIL: setup\n");
			exit(1);
		}
	}
	for (int op = 0; ok && op < MAX_OPS; op++)
		ok = step(n, op, s, (const EVP_CIPHER *const *)ciph, cbc, key, keylen, &enc);
	for (int i = 0; i < 2; i++) {
		EVP_CIPHER_CTX_free(s[i].c);
		free(s[i].buf);
		EVP_CIPHER_free(ciph[i]);
	}
	return ok;
}

static unsigned long long counter(OSSL_PROVIDER *p, const char *name)
{
	uint64_t v = 0;
	OSSL_PARAM q[2] = { OSSL_PARAM_construct_uint64(name, &v), OSSL_PARAM_construct_end() };

	return OSSL_PROVIDER_get_params(p, q) ? (unsigned long long)v : 0;
}

int main(int argc, char **argv)
{
	unsigned long n = 3000, seed = 1, min_engine = 0, max_faults = 0, min_faults = 0;
	unsigned long long engine, faults;
	int cases_given = 0;
	const char *gate = "", *backend = "", *config = NULL, *script = NULL;
	OSSL_PARAM q[3] = { OSSL_PARAM_construct_utf8_ptr("eip93-gate", (char **)&gate, 0),
			    OSSL_PARAM_construct_utf8_ptr("eip93-backend", (char **)&backend, 0),
			    OSSL_PARAM_construct_end() };
	OSSL_LIB_CTX *lib = OSSL_LIB_CTX_new();
	OSSL_PROVIDER *e, *d;

	for (int i = 1; i + 1 < argc; i += 2) {
		unsigned long v = strtoul(argv[i + 1], NULL, 0);

		if (strcmp(argv[i], "--cases") == 0) {
			n = v;
			cases_given = 1;
		} else if (strcmp(argv[i], "--seed") == 0)
			seed = v;
		else if (strcmp(argv[i], "--min-engine") == 0)
			min_engine = v;
		else if (strcmp(argv[i], "--max-faults") == 0)
			max_faults = v;
		else if (strcmp(argv[i], "--min-faults") == 0)
			min_faults = v;
		else if (strcmp(argv[i], "--tls-only") == 0)
			tls_only = v != 0;
		else if (strcmp(argv[i], "--config") == 0)
			config = argv[i + 1];
		else if (strcmp(argv[i], "--script") == 0)
			script = argv[i + 1];
		else if (strcmp(argv[i], "--mode") == 0 && strcmp(argv[i + 1], "ctr") == 0)
			only_mode = 0;
		else if (strcmp(argv[i], "--mode") == 0 && strcmp(argv[i + 1], "cbc") == 0)
			only_mode = 1;
		else {
			printf("FAIL: unknown option %s %s\n", argv[i], argv[i + 1]);
			return 2;
		}
	}
	if (script != NULL && strcmp(script, "list") == 0) {
		skc_named_list();
		return 0;
	}
	if (script != NULL && !skc_named_known(script)) {
		printf("FAIL: no script '%s' (--script list)\n", script);
		return 2;
	}
	if (script != NULL && !cases_given)
		n = 20;
	rs = seed * 0x9e3779b97f4a7c15ULL | 1;
	if (lib == NULL || (config != NULL && !OSSL_LIB_CTX_load_config(lib, config))) {
		printf("FAIL: cannot load the configuration %s\n", config != NULL ? config : "-");
		return 1;
	}
	e = OSSL_PROVIDER_load(lib, "eip93");
	d = OSSL_PROVIDER_load(lib, "default");
	if (e == NULL || d == NULL) {
		printf("FAIL: cannot load the providers\n");
		return 1;
	}
	(void)OSSL_PROVIDER_get_params(e, q);
	printf("gate: %s\nbackend: %s\nmode: %s\n", gate, backend,
	       only_mode < 0 ? "ctr and cbc"
	       : only_mode   ? "cbc"
			     : "ctr");
	if (script != NULL) {
		printf("script: %s\n", script);
		divergences = skc_named_run(lib, script, n, seed);
		cases = n;
	} else {
		for (cases = 0; cases < n; cases++)
			(void)one_case(cases, lib);
	}
	engine = counter(e, "eip93-engine-messages");
	faults = counter(e, "eip93-engine-faults");
	printf("cases=%lu divergences=%lu engine-messages=%llu software-messages=%llu "
	       "engine-faults=%llu engine-errors=%llu\n",
	       cases, divergences, engine, counter(e, "eip93-software-messages"), faults,
	       counter(e, "eip93-engine-errors"));
	OSSL_PROVIDER_unload(e);
	OSSL_PROVIDER_unload(d);
	OSSL_LIB_CTX_free(lib);
	if (divergences != 0 || engine < min_engine || faults > max_faults || faults < min_faults) {
		printf("FAIL%s%s%s\n", divergences ? ": divergences" : "",
		       engine < min_engine ? ": too few engine messages" : "",
		       faults > max_faults   ? ": engine faults counted"
		       : faults < min_faults ? ": too few engine faults"
					     : "");
		return 1;
	}
	printf("PASS\n");
	return 0;
}
