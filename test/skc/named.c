// SPDX-License-Identifier: Apache-2.0
/*
 * Named AES-CTR and AES-CBC regression scripts: eip93-skc-diff --script
 * NAME.  Every file of test/fuzz/regress that is an AES-CTR or AES-CBC
 * input (header bit 7) has a script of its name here, the same EVP call
 * sequence written out by hand (scripts/check-regress.sh; test/fuzz/
 * README.md "Adding a regression case").  A script runs on a context of
 * each provider with the same random key, IVs and data, its sizes in the
 * engine's window (so eip93's side takes the engine path where it may),
 * every answer logged into a transcript: return codes, output lengths, the
 * output bytes (a hash), parameters, the last error's reason.  The two
 * transcripts must be the same line for line.
 */
#include "named.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#define BLK ((size_t)16)

/* A transcript: one line per answer. */
struct tr {
	char *b;
	size_t n, cap;
};

/* One side's ciphers (its provider's AES-CTR and AES-CBC of the case's key size). */
struct nside {
	const EVP_CIPHER *ctr, *cbc;
	const EVP_CIPHER *ref_cbc; /* the default provider's, to make valid records */
};

/* A case's shape: the same on both sides. */
struct nshape {
	unsigned char key[32], iv[BLK], iv2[BLK];
	size_t len;	    /* whole blocks in the engine's window */
	unsigned char *pt;  /* len + 4 blocks of random bytes */
	unsigned char *buf; /* scratch: len + 8 blocks */
};

static uint64_t rs;

static uint64_t rnd(void)
{
	rs ^= rs << 13;
	rs ^= rs >> 7;
	rs ^= rs << 17;
	return rs;
}

static void fill(unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)rnd();
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n);

	if (p == NULL) {
		printf("FAIL: out of memory\n");
		exit(1);
	}
	return p;
}

static void tr_add(struct tr *t, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (t->cap - t->n < 256) {
		t->cap = t->cap * 2 + 4096;
		t->b = realloc(t->b, t->cap);
		if (t->b == NULL) {
			printf("FAIL: out of memory\n");
			exit(1);
		}
	}
	va_start(ap, fmt);
	k = vsnprintf(t->b + t->n, t->cap - t->n - 1, fmt, ap);
	va_end(ap);
	if (k > 0)
		t->n += (size_t)k < t->cap - t->n - 2 ? (size_t)k : t->cap - t->n - 2;
	t->b[t->n++] = '\n';
	t->b[t->n] = '\0';
}

/* FNV-1a of the bytes: equal outputs, equal lines. */
static unsigned long long hash(const unsigned char *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3ULL;
	return (unsigned long long)h;
}

/* The reason of the last error queued (0: none); the queue emptied. */
static unsigned long reason(void)
{
	unsigned long e = ERR_peek_last_error();

	ERR_clear_error();
	return ERR_GET_REASON(e);
}

/* An init of any kind (@params may be NULL), logged. */
static void L_init(struct tr *t, const char *what, EVP_CIPHER_CTX *x, const EVP_CIPHER *c,
		   const unsigned char *key, const unsigned char *iv, int enc, const OSSL_PARAM *p)
{
	int r = p == NULL ? EVP_CipherInit_ex(x, c, NULL, key, iv, enc)
			  : EVP_CipherInit_ex2(x, c, key, iv, enc, p);

	tr_add(t, "%s: r=%d reason=%lu", what, r, reason());
}

static void L_update(struct tr *t, const char *what, EVP_CIPHER_CTX *x, unsigned char *out,
		     const unsigned char *in, size_t len)
{
	int l = -7, r = EVP_CipherUpdate(x, out, &l, in, (int)len);

	tr_add(t, "%s(%zu): r=%d outl=%d out=%016llx reason=%lu", what, len, r, l,
	       r > 0 && l > 0 ? hash(out, (size_t)l) : 0ULL, reason());
}

static void L_final(struct tr *t, const char *what, EVP_CIPHER_CTX *x, unsigned char *out)
{
	int l = -7, r = EVP_CipherFinal_ex(x, out, &l);

	tr_add(t, "%s: r=%d outl=%d out=%016llx reason=%lu", what, r, l,
	       r > 0 && l > 0 ? hash(out, (size_t)l) : 0ULL, reason());
}

static void L_set(struct tr *t, const char *what, EVP_CIPHER_CTX *x, const OSSL_PARAM *p)
{
	int r = EVP_CIPHER_CTX_set_params(x, p);

	tr_add(t, "%s: r=%d reason=%lu", what, r, reason());
}

/* The running state as a caller reads it: iv, updated-iv, num, padding (CBC). */
static void L_query(struct tr *t, EVP_CIPHER_CTX *x, int cbc)
{
	unsigned char iv[BLK], uiv[BLK];
	unsigned int num = 99, pad = 99;
	OSSL_PARAM p[5] = { OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_IV, iv, BLK),
			    OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_UPDATED_IV, uiv,
							      BLK),
			    OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_NUM, &num),
			    OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_PADDING, &pad),
			    OSSL_PARAM_construct_end() };
	int r;

	memset(iv, 0, BLK);
	memset(uiv, 0, BLK);
	if (!cbc)
		p[3] = OSSL_PARAM_construct_end();
	r = EVP_CIPHER_CTX_get_params(x, p);
	ERR_clear_error();
	tr_add(t, "query: r=%d iv=%016llx updated-iv=%016llx num=%u padding=%u", r, hash(iv, BLK),
	       hash(uiv, BLK), num, pad);
}

/* tls-mac as libssl reads it: the pointer set or not, the length, the bytes (alive here). */
static void L_tls_mac(struct tr *t, const char *what, EVP_CIPHER_CTX *x)
{
	void *ptr = NULL;
	OSSL_PARAM q[2] = { OSSL_PARAM_construct_octet_ptr(OSSL_CIPHER_PARAM_TLS_MAC, &ptr, 0),
			    OSSL_PARAM_construct_end() };
	int r = EVP_CIPHER_CTX_get_params(x, q);

	ERR_clear_error();
	tr_add(t, "%s: r=%d set=%d len=%zu mac=%016llx", what, r, ptr != NULL, q[0].return_size,
	       r > 0 && ptr != NULL ? hash(ptr, q[0].return_size) : 0ULL);
}

/* tls-version and tls-mac-size by set_params. */
static void L_tls_on(struct tr *t, EVP_CIPHER_CTX *x, unsigned int ver, size_t mac)
{
	OSSL_PARAM p[3] = { OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_TLS_VERSION, &ver),
			    OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_TLS_MAC_SIZE, &mac),
			    OSSL_PARAM_construct_end() };

	L_set(t, "set_params(tls-version, tls-mac-size)", x, p);
}

/*
 * A valid TLS 1.2 CBC record into @rec, as the receiving context @x expects
 * it next: explicit IV || @body bytes || @mac bytes || padding, enciphered by
 * the default provider's CBC from the updated IV @x answers.  Its length.
 */
static size_t make_record(const struct nside *sd, EVP_CIPHER_CTX *x, const struct nshape *s,
			  size_t body, size_t mac, unsigned char *rec)
{
	size_t n = BLK + body + mac, pad = BLK - 1 - n % BLK;
	unsigned char chain[BLK];
	OSSL_PARAM q[2] = { OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_UPDATED_IV, chain,
							      BLK),
			    OSSL_PARAM_construct_end() };
	EVP_CIPHER_CTX *mk = EVP_CIPHER_CTX_new();
	int l = 0;

	memcpy(rec, s->pt, n);
	memset(rec + n, (int)pad, pad + 1);
	n += pad + 1;
	if (mk == NULL || !EVP_CIPHER_CTX_get_params(x, q) ||
	    !EVP_CipherInit_ex2(mk, sd->ref_cbc, s->key, chain, 1, NULL) ||
	    !EVP_CIPHER_CTX_set_padding(mk, 0) || !EVP_CipherUpdate(mk, rec, &l, rec, (int)n)) {
		printf("FAIL: making a record\n");
		exit(1);
	}
	EVP_CIPHER_CTX_free(mk);
	ERR_clear_error();
	return n;
}

/*
 * ede7dc3: AES-CBC keyed encrypting, an init without a key to decrypt: the
 * default provider keeps the encryption key schedule (OpenSSL sets it only
 * with a key) and deciphers garbage, which is its answer; eip93 must not
 * take the blocks to the engine.  Then the other way round, without an IV.
 */
static void n_cbc_direction_without_key(struct tr *t, EVP_CIPHER_CTX *x, const struct nside *sd,
					const struct nshape *s)
{
	L_init(t, "init(cbc,key,iv,enc)", x, sd->cbc, s->key, s->iv, 1, NULL);
	L_init(t, "init(iv2,dec)", x, NULL, NULL, s->iv2, 0, NULL);
	L_update(t, "update", x, s->buf, s->pt, s->len);
	L_final(t, "final", x, s->buf);
	L_init(t, "init(cbc,key,iv,dec)", x, sd->cbc, s->key, s->iv, 0, NULL);
	L_init(t, "init(enc)", x, NULL, NULL, NULL, 1, NULL);
	L_update(t, "update", x, s->buf, s->pt, s->len);
	L_final(t, "final", x, s->buf);
}

/* ede7dc3: AES-CBC given num 5 (kept and answered), an engine message: num still 5. */
static void n_cbc_num_after_engine(struct tr *t, EVP_CIPHER_CTX *x, const struct nside *sd,
				   const struct nshape *s)
{
	L_init(t, "init(cbc,key,iv,enc)", x, sd->cbc, s->key, s->iv, 1, NULL);
	tr_add(t, "set_num(5): r=%d reason=%lu", EVP_CIPHER_CTX_set_num(x, 5), reason());
	L_update(t, "update", x, s->buf, s->pt, s->len);
	L_query(t, x, 1);
	tr_add(t, "get_num: %d", EVP_CIPHER_CTX_get_num(x));
}

/*
 * ede7dc3: AES-CTR decrypting, a set_params the delegate refuses at num 255
 * after it took tls-version and tls-mac-size; a new IV; whole blocks: the
 * default strips a 16-byte MAC from them (len - 16 bytes out).
 */
static void n_skc_partial_set_params(struct tr *t, EVP_CIPHER_CTX *x, const struct nside *sd,
				     const struct nshape *s)
{
	unsigned int num = 255, ver = 0x301;
	size_t mac = 16;
	OSSL_PARAM p[4] = { OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_NUM, &num),
			    OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_TLS_VERSION, &ver),
			    OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_TLS_MAC_SIZE, &mac),
			    OSSL_PARAM_construct_end() };

	L_init(t, "init(ctr,key,iv,dec)", x, sd->ctr, s->key, s->iv, 0, NULL);
	L_set(t, "set_params(num 255, tls-version, tls-mac-size)", x, p);
	L_init(t, "init(iv2)", x, NULL, NULL, s->iv2, 0, NULL);
	L_update(t, "update", x, s->buf, s->pt, s->len);
	L_query(t, x, 0);
}

/*
 * ede7dc3: AES-CBC decrypting with padding, 48 bytes (the delegate holds
 * the last block back), padding off, whole blocks: the held block comes out
 * with them (len + 16 bytes).
 */
static void n_cbc_padding_off_held_block(struct tr *t, EVP_CIPHER_CTX *x, const struct nside *sd,
					 const struct nshape *s)
{
	L_init(t, "init(cbc,key,iv,dec)", x, sd->cbc, s->key, s->iv, 0, NULL);
	L_update(t, "update", x, s->buf, s->pt, 48);
	tr_add(t, "set_padding(0): r=%d", EVP_CIPHER_CTX_set_padding(x, 0));
	L_update(t, "update", x, s->buf, s->pt + 48, s->len);
	L_final(t, "final", x, s->buf);
	L_query(t, x, 1);
}

/*
 * ede7dc3: AES-CTR after an engine message, an init with a new IV and a num
 * it refuses: the delegate took the IV first, and "iv" answers it.
 */
static void n_skc_failed_init_iv(struct tr *t, EVP_CIPHER_CTX *x, const struct nside *sd,
				 const struct nshape *s)
{
	unsigned int num = 5;
	OSSL_PARAM p[2] = { OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_NUM, &num),
			    OSSL_PARAM_construct_end() };

	L_init(t, "init(ctr,key,iv,enc)", x, sd->ctr, s->key, s->iv, 1, NULL);
	L_update(t, "update", x, s->buf, s->pt, s->len);
	L_init(t, "init_ex2(iv2,-1,num 5)", x, NULL, NULL, s->iv2, -1, p);
	L_query(t, x, 0);
}

/*
 * ded3f54: AES-CBC, TLS 1.2 records with a 32-byte MAC: one the engine
 * deciphers (tls-mac: its MAC), a new tls-mac-size (tls-mac's length
 * follows it), a record the delegate refuses before deciphering it (not
 * whole blocks: tls-mac kept), an encrypting init and a record the engine
 * enciphers (the delegate frees its last MAC: tls-mac none).
 */
static void n_cbc_tls_mac_after_engine_record(struct tr *t, EVP_CIPHER_CTX *x,
					      const struct nside *sd, const struct nshape *s)
{
	size_t mac = 20, n;
	OSSL_PARAM p[2] = { OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_TLS_MAC_SIZE, &mac),
			    OSSL_PARAM_construct_end() };

	L_init(t, "init(cbc,key,iv,dec)", x, sd->cbc, s->key, s->iv, 0, NULL);
	L_tls_on(t, x, 0x303, 32);
	n = make_record(sd, x, s, s->len - 64, 32, s->buf);
	L_update(t, "record", x, s->buf, s->buf, n);
	L_tls_mac(t, "tls-mac", x);
	L_set(t, "set_params(tls-mac-size 20)", x, p);
	L_tls_mac(t, "tls-mac", x);
	memcpy(s->buf, s->pt, 100);
	L_update(t, "record(100 bytes)", x, s->buf, s->buf, 100);
	L_tls_mac(t, "tls-mac", x);
	L_init(t, "init(key,enc)", x, NULL, s->key, NULL, 1, NULL);
	memcpy(s->buf, s->pt, s->len);
	L_update(t, "record", x, s->buf, s->buf, s->len - 20);
	L_tls_mac(t, "tls-mac", x);
}

/*
 * 01df495: AES-CBC keyed decrypting, an init without a key to encrypt, TLS
 * 1.2 records: the default provider enciphers them with the decryption key
 * schedule (garbage, but its answer); eip93 must not take them to the
 * engine.
 */
static void n_cbc_tls_direction_without_key(struct tr *t, EVP_CIPHER_CTX *x, const struct nside *sd,
					    const struct nshape *s)
{
	L_init(t, "init(cbc,key,iv,dec)", x, sd->cbc, s->key, s->iv, 0, NULL);
	L_init(t, "init(enc)", x, NULL, NULL, NULL, 1, NULL);
	L_tls_on(t, x, 0x303, 16);
	for (int i = 0; i < 2; i++) {
		memcpy(s->buf, s->pt, s->len);
		L_update(t, "record", x, s->buf, s->buf, s->len - 16 - 7 * (size_t)i);
	}
	L_query(t, x, 1);
}

/*
 * 2d91452: AES-CBC, a TLS 1.2 record the engine deciphers (its MAC the
 * answer to tls-mac), then TLS 1.0 and an empty record: the delegate frees
 * the last MAC before it refuses it; the same encrypting (the delegate pads
 * and enciphers the empty record).
 */
static void n_cbc_tls_empty_record(struct tr *t, EVP_CIPHER_CTX *x, const struct nside *sd,
				   const struct nshape *s)
{
	size_t n;

	L_init(t, "init(cbc,key,iv,dec)", x, sd->cbc, s->key, s->iv, 0, NULL);
	for (int enc = 0; enc < 2; enc++) {
		L_tls_on(t, x, 0x303, 20);
		n = make_record(sd, x, s, s->len - 64, 20, s->buf);
		L_update(t, "record", x, s->buf, s->buf, n);
		L_tls_mac(t, "tls-mac", x);
		if (enc)
			L_init(t, "init(key,enc)", x, NULL, s->key, NULL, 1, NULL);
		L_tls_on(t, x, 0x301, 0);
		L_update(t, "record(empty)", x, s->buf, s->buf, 0);
		L_tls_mac(t, "tls-mac", x);
		L_init(t, "init(cbc,key,iv,dec)", x, sd->cbc, s->key, s->iv, 0, NULL);
	}
}

/*
 * 2d91452: AES-CBC decrypting a ciphertext whose padding is wrong (the
 * engine deciphers all but the held block), the final refuses it after
 * deciphering that block: the running IV is the delegate's; then a TLS 1.2
 * record made from it.
 */
static void n_cbc_iv_after_failed_final(struct tr *t, EVP_CIPHER_CTX *x, const struct nside *sd,
					const struct nshape *s)
{
	EVP_CIPHER_CTX *mk = EVP_CIPHER_CTX_new();
	unsigned char *ct = xmalloc(s->len);
	int l = 0;
	size_t n;

	memcpy(ct, s->pt, s->len);
	ct[s->len - 1] = 0x20; /* no valid padding */
	if (mk == NULL || !EVP_CipherInit_ex2(mk, sd->ref_cbc, s->key, s->iv, 1, NULL) ||
	    !EVP_CIPHER_CTX_set_padding(mk, 0) || !EVP_CipherUpdate(mk, ct, &l, ct, (int)s->len)) {
		printf("FAIL: making a ciphertext\n");
		exit(1);
	}
	EVP_CIPHER_CTX_free(mk);
	L_init(t, "init(cbc,key,iv,dec)", x, sd->cbc, s->key, s->iv, 0, NULL);
	L_update(t, "update", x, s->buf, ct, s->len);
	L_final(t, "final", x, s->buf);
	L_query(t, x, 1);
	L_final(t, "final", x, s->buf);
	L_query(t, x, 1);
	L_tls_on(t, x, 0x303, 32);
	n = make_record(sd, x, s, s->len - 64, 32, s->buf);
	L_update(t, "record", x, s->buf, s->buf, n);
	L_tls_mac(t, "tls-mac", x);
	free(ct);
}

/*
 * a1c273b: AES-CBC decrypting, 48 bytes (the delegate holds the last block
 * back in its CBC buffer), a TLS 1.2 record (records leave that buffer
 * alone), tls-version 0, a final: the held block is deciphered (bad
 * decrypt, not a wrong final block length); then 40 bytes (8 held), a
 * record, tls-version 0 and 24 bytes: the 8 come out with them.
 */
static void n_cbc_tls_after_held_block(struct tr *t, EVP_CIPHER_CTX *x, const struct nside *sd,
				       const struct nshape *s)
{
	unsigned int ver = 0;
	OSSL_PARAM p[2] = { OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_TLS_VERSION, &ver),
			    OSSL_PARAM_construct_end() };
	size_t n;

	for (size_t held = 16; held > 0; held -= 8) {
		L_init(t, "init(cbc,key,iv,dec)", x, sd->cbc, s->key, s->iv, 0, NULL);
		L_update(t, "update", x, s->buf, s->pt, 32 + held);
		L_tls_on(t, x, 0x303, 20);
		n = make_record(sd, x, s, s->len - 64, 20, s->buf);
		L_update(t, "record", x, s->buf, s->buf, n);
		L_tls_mac(t, "tls-mac", x);
		L_query(t, x, 1);
		L_set(t, "set_params(tls-version 0)", x, p);
		if (held == 8)
			L_update(t, "update", x, s->buf, s->pt, 24);
		L_final(t, "final", x, s->buf);
		L_query(t, x, 1);
	}
}

typedef void (*n_fn)(struct tr *, EVP_CIPHER_CTX *, const struct nside *, const struct nshape *);

static const struct {
	const char *name;
	n_fn fn;
} n_scripts[] = {
	{ "cbc-direction-without-key", n_cbc_direction_without_key },
	{ "cbc-num-after-engine", n_cbc_num_after_engine },
	{ "skc-partial-set-params", n_skc_partial_set_params },
	{ "cbc-padding-off-held-block", n_cbc_padding_off_held_block },
	{ "skc-failed-init-iv", n_skc_failed_init_iv },
	{ "cbc-tls-mac-after-engine-record", n_cbc_tls_mac_after_engine_record },
	{ "cbc-tls-direction-without-key", n_cbc_tls_direction_without_key },
	{ "cbc-tls-empty-record", n_cbc_tls_empty_record },
	{ "cbc-iv-after-failed-final", n_cbc_iv_after_failed_final },
	{ "cbc-tls-after-held-block", n_cbc_tls_after_held_block },
};
#define N_SCRIPTS (sizeof(n_scripts) / sizeof(n_scripts[0]))

void skc_named_list(void)
{
	for (size_t i = 0; i < N_SCRIPTS; i++)
		printf("%s\n", n_scripts[i].name);
}

int skc_named_known(const char *name)
{
	if (strcmp(name, "all") == 0)
		return 1;
	for (size_t i = 0; i < N_SCRIPTS; i++)
		if (strcmp(n_scripts[i].name, name) == 0)
			return 1;
	return 0;
}

/* The first line where the transcripts differ, both ways. */
static void show_diff(const struct tr *a, const struct tr *b)
{
	const char *p = a->b, *q = b->b;

	while (*p != '\0' && *q != '\0') {
		size_t m = strcspn(p, "\n"), k = strcspn(q, "\n");

		if (m != k || memcmp(p, q, m) != 0) {
			printf("  eip93:   %.*s\n  default: %.*s\n", (int)m, p, (int)k, q);
			return;
		}
		p += m + (p[m] != '\0');
		q += k + (q[k] != '\0');
	}
	printf("  eip93:   %s\n  default: %s\n", *p != '\0' ? p : "(end)",
	       *q != '\0' ? q : "(end)");
}

unsigned long skc_named_run(OSSL_LIB_CTX *lib, const char *name, unsigned long cases,
			    unsigned long seed)
{
	static const char *const prov[2] = { "provider=eip93", "provider=default" };
	EVP_CIPHER *c[2][2][3];
	unsigned long bad = 0;
	struct tr t[2] = { { NULL, 0, 0 }, { NULL, 0, 0 } };
	size_t first = 0, n = N_SCRIPTS;

	for (size_t i = 0; i < N_SCRIPTS; i++)
		if (strcmp(n_scripts[i].name, name) == 0) {
			first = i;
			n = 1;
		}
	for (int side = 0; side < 2; side++)
		for (int ks = 0; ks < 3; ks++) {
			char nm[24];

			for (int m = 0; m < 2; m++) {
				snprintf(nm, sizeof(nm), "AES-%d-%s", 128 + 64 * ks,
					 m ? "CBC" : "CTR");
				c[side][m][ks] = EVP_CIPHER_fetch(lib, nm, prov[side]);
				if (c[side][m][ks] == NULL) {
					printf("FAIL: %s not offered by %s\n", nm, prov[side]);
					exit(1);
				}
			}
		}
	rs = seed * 0x9e3779b97f4a7c15ULL | 1;
	for (unsigned long k = 0; k < cases; k++) {
		size_t idx = first + (n == 1 ? 0 : k % n);
		int ks = (int)(rnd() % 3);
		struct nshape s;

		fill(s.key, sizeof(s.key));
		fill(s.iv, BLK);
		fill(s.iv2, BLK);
		s.len = BLK * (256 + (size_t)(rnd() % 768)); /* 4 KiB to 16 KiB - 16 */
		s.pt = xmalloc(s.len + 4 * BLK);
		fill(s.pt, s.len + 4 * BLK);
		for (int side = 0; side < 2; side++) {
			struct nside sd = { c[side][0][ks], c[side][1][ks], c[1][1][ks] };
			EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();

			s.buf = xmalloc(s.len + 8 * BLK);
			t[side].n = 0;
			if (x == NULL) {
				printf("FAIL: out of memory\n");
				exit(1);
			}
			tr_add(&t[side], "script %s, AES-%d, %zu bytes", n_scripts[idx].name,
			       128 + 64 * ks, s.len);
			n_scripts[idx].fn(&t[side], x, &sd, &s);
			EVP_CIPHER_CTX_free(x);
			free(s.buf);
		}
		if (t[0].n != t[1].n || memcmp(t[0].b, t[1].b, t[0].n) != 0) {
			bad++;
			if (bad <= 10) {
				printf("DIVERGENCE case %lu, script %s, AES-%d, %zu bytes:\n", k,
				       n_scripts[idx].name, 128 + 64 * ks, s.len);
				show_diff(&t[0], &t[1]);
			}
		}
		free(s.pt);
	}
	for (int side = 0; side < 2; side++)
		for (int m = 0; m < 2; m++)
			for (int ks = 0; ks < 3; ks++)
				EVP_CIPHER_free(c[side][m][ks]);
	free(t[0].b);
	free(t[1].b);
	return bad;
}
