// SPDX-License-Identifier: Apache-2.0
/*
 * One side's transcript and its logged EVP calls (init, update, final,
 * controls, every gettable parameter), the payload PRNG and the reference
 * seal.  Output buffers are compared whole, not only up to the reported
 * length: a caller sees every byte written into its buffer, failed calls
 * included.
 */
#include "run.h"

#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/params.h>

const size_t fz_key_lens[3] = { 16, 24, 32 };

void *fz_xmalloc(size_t n)
{
	void *p = calloc(1, n != 0 ? n : 1);

	if (p == NULL)
		abort();
	return p;
}

void fz_tr_reset(struct fz_tr *t)
{
	t->ne = 0;
	t->nbuf = 0;
}

void fz_tr_free(struct fz_tr *t)
{
	free(t->e);
	free(t->buf);
	memset(t, 0, sizeof(*t));
}

void fz_log(struct fz_tr *t, const char *what, long long ret, long long len, const void *bytes,
	    size_t n)
{
	struct fz_entry *e;

	if (t->ne == t->cap) {
		t->cap = t->cap != 0 ? 2 * t->cap : 64;
		t->e = realloc(t->e, t->cap * sizeof(*t->e));
		if (t->e == NULL)
			abort();
	}
	e = &t->e[t->ne++];
	snprintf(e->what, sizeof(e->what), "%s", what);
	e->ret = ret;
	e->len = len;
	e->off = t->nbuf;
	e->n = bytes != NULL ? n : 0;
	if (e->n == 0)
		return;
	if (t->nbuf + n > t->capbuf) {
		while (t->nbuf + n > t->capbuf)
			t->capbuf = t->capbuf != 0 ? 2 * t->capbuf : 1 << 17;
		t->buf = realloc(t->buf, t->capbuf);
		if (t->buf == NULL)
			abort();
	}
	memcpy(t->buf + t->nbuf, bytes, n);
	t->nbuf += n;
}

/* splitmix64: cheap, and every (seed, step, purpose) has its own stream. */
static uint64_t mix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void fz_fill(const struct fz_side *sd, enum fz_purpose p, uint64_t idx, unsigned char *b, size_t n)
{
	uint64_t x = sd->s->seed ^ (idx * P_NPURPOSE + (uint64_t)p) * 0xd1342543de82ef95ULL;
	size_t i = 0;

	/* Byte stores, not memcpy: this runs over every payload byte, under ASan. */
	for (; i + 8 <= n; i += 8) {
		uint64_t v = mix(&x);

		for (int k = 0; k < 8; k++)
			b[i + (size_t)k] = (unsigned char)(v >> (8 * k));
	}
	if (i < n) {
		uint64_t v = mix(&x);

		for (; i < n; i++, v >>= 8)
			b[i] = (unsigned char)v;
	}
}

/*
 * EVP_Cipher() on a context without a cipher (after a reset) crashes in
 * OpenSSL 3.0 itself: a caller error, not a provider one, so never made.
 */
int fz_evp_cipher(EVP_CIPHER_CTX *x, unsigned char *out, const unsigned char *in, size_t inl)
{
	if (EVP_CIPHER_CTX_get0_cipher(x) == NULL)
		return -2;
	return EVP_Cipher(x, out, in, (unsigned int)inl);
}

EVP_CIPHER_CTX *fz_ctx(struct fz_side *sd)
{
	return sd->x[sd->cur];
}

struct fz_model *fz_model(struct fz_side *sd)
{
	return &sd->m[sd->cur];
}

int fz_avoid(struct fz_side *sd, int cond, const char *known)
{
	char w[64];

	if (!FUZZ_AVOID_KNOWN || !cond)
		return 0;
	snprintf(w, sizeof(w), "avoided(%s)", known);
	fz_log(&sd->tr, w, 0, -1, NULL, 0);
	return 1;
}

void fz_set_iv(struct fz_model *m, const unsigned char *iv, size_t ivlen)
{
	m->tls_used = 0;
	m->zero_aad = 0;
	m->empty_update = 0;
	memcpy(m->iv, iv, ivlen < sizeof(m->iv) ? ivlen : sizeof(m->iv));
	m->ivlen = ivlen;
	m->aadlen = 0;
}

int fz_init(struct fz_side *sd, const char *what, const EVP_CIPHER *c, const unsigned char *key,
	    const unsigned char *iv, int enc)
{
	int r;

	if (fz_avoid(sd, fz_model(sd)->aad_pending, "tls-aad-then-init") ||
	    fz_avoid(sd, key != NULL && iv == NULL && fz_model(sd)->zero_aad,
		     "rekey-after-zero-aad"))
		return 0;
	r = EVP_CipherInit_ex(fz_ctx(sd), c, NULL, key, iv, enc);
	fz_model(sd)->tag_ok = 0;
	fz_log(&sd->tr, what, r, -1, NULL, 0);
	return r;
}

/* api: 0 EVP_CipherUpdate, 1 EVP_Encrypt/DecryptUpdate, 2 EVP_Cipher.  Logs ret and length. */
int fz_update(struct fz_side *sd, const char *what, int api, int enc, unsigned char *out,
	      const unsigned char *in, size_t inl)
{
	EVP_CIPHER_CTX *x = fz_ctx(sd);
	struct fz_model *m = fz_model(sd);
	int r, ol = -7;

	if (fz_avoid(sd, m->aad_pending && inl == 0, "tls-aad-zero-update") ||
	    fz_avoid(sd, m->tls_used && out != NULL && inl > 0, "tls-record-then-generic") ||
	    fz_avoid(sd, m->aad_pending && inl > 0, "tls-aad-then-generic"))
		return 0;
	m->tag_ok = 0;
	if (api == 2 && out == NULL && inl == 0)
		m->zero_aad = 1;
	if (out != NULL && inl == 0)
		m->empty_update = 1;
	if (api == 2) {
		r = fz_evp_cipher(x, out, in, inl);
		fz_log(&sd->tr, what, r, -1, NULL, 0);
		return r >= 0;
	}
	if (api == 1)
		r = enc ? EVP_EncryptUpdate(x, out, &ol, in, (int)inl)
			: EVP_DecryptUpdate(x, out, &ol, in, (int)inl);
	else
		r = EVP_CipherUpdate(x, out, &ol, in, (int)inl);
	fz_log(&sd->tr, what, r, ol, NULL, 0);
	return r > 0;
}

int fz_final(struct fz_side *sd, const char *what, int api, int enc)
{
	EVP_CIPHER_CTX *x = fz_ctx(sd);
	unsigned char fin[64];
	int r, ol = -7;

	memset(fin, 0xee, sizeof(fin));
	if (api == 2) {
		r = fz_evp_cipher(x, NULL, NULL, 0);
		fz_log(&sd->tr, what, r, -1, NULL, 0);
		fz_model(sd)->tag_ok = r >= 0 && EVP_CIPHER_CTX_is_encrypting(x) == 1;
		return r >= 0;
	}
	if (api == 1)
		r = enc ? EVP_EncryptFinal_ex(x, fin, &ol) : EVP_DecryptFinal_ex(x, fin, &ol);
	else
		r = EVP_CipherFinal_ex(x, fin, &ol);
	fz_log(&sd->tr, what, r, ol, fin, sizeof(fin));
	fz_model(sd)->tag_ok = r > 0 && EVP_CIPHER_CTX_is_encrypting(x) == 1;
	return r > 0;
}

/* A control; the nout bytes at ptr (when given) are output either way. */
int fz_ctrl(struct fz_side *sd, const char *what, int type, int arg, void *ptr, size_t nout)
{
	struct fz_model *m = fz_model(sd);
	int r;

	if (fz_avoid(sd, type == EVP_CTRL_AEAD_GET_TAG && !m->tag_ok, "tag-not-after-final") ||
	    fz_avoid(sd, type == EVP_CTRL_GCM_SET_IV_INV && arg > 8, "set-iv-inv-over-fixed"))
		return 0;
	r = EVP_CIPHER_CTX_ctrl(fz_ctx(sd), type, arg, ptr);
	/*
	 * The default provider keeps a record AAD, even a refused one, until an
	 * update reaches its record code; eip93's shadow forgets it earlier.  With
	 * FUZZ_AVOID_KNOWN the slot stays "pending" until a TLS 1.2 record succeeds.
	 */
	if (type == EVP_CTRL_AEAD_TLS1_AAD && arg == 13)
		m->aad_pending = 1;
	if (type != EVP_CTRL_AEAD_GET_TAG)
		m->tag_ok = 0;
	fz_log(&sd->tr, what, r, -1, ptr, nout);
	return r;
}

int fz_ref_seal(const struct fz_side *sd, const struct fz_model *m, const unsigned char *iv,
		size_t ivlen, const unsigned char *aad, size_t aadlen, const unsigned char *pt,
		size_t len, unsigned char *ct, unsigned char *tag)
{
	EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
	unsigned char fin[32];
	int ol = 0, ok;

	ok = x != NULL && ivlen >= 1 && ivlen <= 128 &&
	     EVP_EncryptInit_ex(x, sd->ref[m->kidx], NULL, NULL, NULL) > 0 &&
	     EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_IVLEN, (int)ivlen, NULL) > 0 &&
	     EVP_EncryptInit_ex(x, NULL, NULL, m->key, iv) > 0 &&
	     (aadlen == 0 || EVP_EncryptUpdate(x, NULL, &ol, aad, (int)aadlen) > 0) &&
	     (len == 0 || EVP_EncryptUpdate(x, ct, &ol, pt, (int)len) > 0) &&
	     EVP_EncryptFinal_ex(x, fin, &ol) > 0 &&
	     EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_GET_TAG, 16, tag) > 0;
	EVP_CIPHER_CTX_free(x);
	if (!ok) {
		memset(tag, 0, 16);
		if (len != 0)
			memcpy(ct, pt, len);
	}
	return ok;
}

static void log_size(struct fz_side *sd, const char *name)
{
	char w[64];
	size_t v = 0xdead;
	OSSL_PARAM p[2] = { OSSL_PARAM_construct_size_t(name, &v), OSSL_PARAM_END };
	int r = EVP_CIPHER_CTX_get_params(fz_ctx(sd), p);

	snprintf(w, sizeof(w), "get(%s)", name);
	fz_log(&sd->tr, w, r, OSSL_PARAM_modified(&p[0]) ? (long long)v : -1, NULL, 0);
}

static void log_octets(struct fz_side *sd, const char *name, size_t size)
{
	unsigned char buf[160];
	char w[64];
	OSSL_PARAM p[2] = { OSSL_PARAM_construct_octet_string(name, buf, size), OSSL_PARAM_END };
	int r;

	memset(buf, 0xa5, sizeof(buf));
	r = EVP_CIPHER_CTX_get_params(fz_ctx(sd), p);
	snprintf(w, sizeof(w), "get(%s,%zu)", name, size);
	fz_log(&sd->tr, w, r, OSSL_PARAM_modified(&p[0]) ? (long long)p[0].return_size : -1, buf,
	       size);
}

static void log_names(struct fz_side *sd, const char *what, const OSSL_PARAM *p)
{
	char names[1024];
	size_t n = 0;

	names[0] = '\0';
	for (; p != NULL && p->key != NULL && n < sizeof(names) - 1; p++)
		n += (size_t)snprintf(names + n, sizeof(names) - n, "%s/%u,", p->key, p->data_type);
	fz_log(&sd->tr, what, p != NULL, -1, names, n < sizeof(names) ? n : sizeof(names));
}

/* Every gettable context parameter that does not change state, and the accessors. */
void fz_query(struct fz_side *sd)
{
	EVP_CIPHER_CTX *x = fz_ctx(sd);
	unsigned char buf[128];

	/* OpenSSL 3.0's accessors dereference the cipher: a reset context has none. */
	if (x == NULL || EVP_CIPHER_CTX_get0_cipher(x) == NULL) {
		fz_log(&sd->tr, "query: no cipher", 0, -1, NULL, 0);
		return;
	}
	fz_log(&sd->tr, "EVP_CIPHER_CTX_get_iv_length", EVP_CIPHER_CTX_get_iv_length(x), -1, NULL,
	       0);
	fz_log(&sd->tr, "EVP_CIPHER_CTX_get_key_length", EVP_CIPHER_CTX_get_key_length(x), -1, NULL,
	       0);
	fz_log(&sd->tr, "EVP_CIPHER_CTX_get_tag_length", EVP_CIPHER_CTX_get_tag_length(x), -1, NULL,
	       0);
	fz_log(&sd->tr, "EVP_CIPHER_CTX_is_encrypting", EVP_CIPHER_CTX_is_encrypting(x), -1, NULL,
	       0);
	log_size(sd, OSSL_CIPHER_PARAM_IVLEN);
	log_size(sd, OSSL_CIPHER_PARAM_KEYLEN);
	log_size(sd, OSSL_CIPHER_PARAM_AEAD_TAGLEN);
	log_size(sd, OSSL_CIPHER_PARAM_AEAD_TLS1_AAD_PAD);
	log_octets(sd, OSSL_CIPHER_PARAM_IV, 128);
	log_octets(sd, OSSL_CIPHER_PARAM_UPDATED_IV, 128);
	log_octets(sd, OSSL_CIPHER_PARAM_IV, 12);
	if (!fz_avoid(sd, !fz_model(sd)->tag_ok, "tag-not-after-final"))
		log_octets(sd, OSSL_CIPHER_PARAM_AEAD_TAG, 16);
	memset(buf, 0, sizeof(buf));
	fz_log(&sd->tr, "EVP_CIPHER_CTX_get_updated_iv",
	       EVP_CIPHER_CTX_get_updated_iv(x, buf, sizeof(buf)), -1, buf, sizeof(buf));
	memset(buf, 0, sizeof(buf));
	fz_log(&sd->tr, "EVP_CIPHER_CTX_get_original_iv",
	       EVP_CIPHER_CTX_get_original_iv(x, buf, sizeof(buf)), -1, buf, sizeof(buf));
}

/* fz_query_lists() - the gettable and settable parameter lists, by name and type. */
void fz_query_lists(struct fz_side *sd)
{
	EVP_CIPHER_CTX *x = fz_ctx(sd);

	if (x == NULL || EVP_CIPHER_CTX_get0_cipher(x) == NULL)
		return;
	log_names(sd, "gettable_ctx_params", EVP_CIPHER_CTX_gettable_params(x));
	log_names(sd, "settable_ctx_params", EVP_CIPHER_CTX_settable_params(x));
}
