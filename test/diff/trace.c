// SPDX-License-Identifier: Apache-2.0
/*
 * Transcripts and the logged EVP calls: every call a script makes goes
 * through an L_* wrapper (or tr_log) that records its return value, output
 * length and output bytes; tr_compare finds the first step where two
 * transcripts differ.  Also the parameter reads every script may log, one
 * whole message on a context (msg_run), and a plain reference seal.
 */
#include "diff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/params.h>

void tr_reset(struct tr *t)
{
	t->ne = 0;
	t->nbuf = 0;
}

void tr_free(struct tr *t)
{
	free(t->e);
	free(t->buf);
	memset(t, 0, sizeof(*t));
}

void tr_log(struct tr *t, const char *what, long long ret, long long len, const void *bytes,
	    size_t n, int untrusted)
{
	struct tr_entry *e;

	if (t->ne == t->cape) {
		t->cape = t->cape ? 2 * t->cape : 64;
		t->e = xrealloc(t->e, t->cape * sizeof(*t->e));
	}
	e = &t->e[t->ne++];
	snprintf(e->what, sizeof(e->what), "%s", what);
	e->ret = ret;
	e->len = len;
	e->off = t->nbuf;
	e->n = bytes != NULL ? n : 0;
	e->untrusted = untrusted;
	if (e->n == 0)
		return;
	if (t->nbuf + n > t->capbuf) {
		while (t->nbuf + n > t->capbuf)
			t->capbuf = t->capbuf ? 2 * t->capbuf : 65536;
		t->buf = xrealloc(t->buf, t->capbuf);
	}
	memcpy(t->buf + t->nbuf, bytes, n);
	t->nbuf += n;
}

/* Returns 0 when both transcripts agree, else 1 with a description. */
int tr_compare(const struct tr *a, const struct tr *b, const char *la, const char *lb, char *msg,
	       size_t msglen)
{
	size_t n = a->ne < b->ne ? a->ne : b->ne;

	for (size_t i = 0; i < n; i++) {
		const struct tr_entry *x = &a->e[i], *y = &b->e[i];

		if (strcmp(x->what, y->what) != 0) {
			snprintf(msg, msglen,
				 "step %zu: call sequence differs (%s: '%s', %s: '%s')", i, la,
				 x->what, lb, y->what);
			return 1;
		}
		if (x->ret != y->ret || x->len != y->len) {
			snprintf(msg, msglen,
				 "step %zu '%s': %s returned %lld (length %lld), "
				 "%s returned %lld (length %lld)",
				 i, x->what, la, x->ret, x->len, lb, y->ret, y->len);
			return 1;
		}
		if (x->n != y->n) {
			snprintf(msg, msglen,
				 "step %zu '%s': %s output %zu bytes, %s output %zu bytes", i,
				 x->what, la, x->n, lb, y->n);
			return 1;
		}
		if (x->untrusted || y->untrusted || x->n == 0)
			continue;
		if (memcmp(a->buf + x->off, b->buf + y->off, x->n) != 0) {
			size_t j = 0;

			while (a->buf[x->off + j] == b->buf[y->off + j])
				j++;
			snprintf(msg, msglen,
				 "step %zu '%s': output bytes differ at offset %zu of "
				 "%zu (%s 0x%02x, %s 0x%02x)",
				 i, x->what, j, x->n, la, a->buf[x->off + j], lb,
				 b->buf[y->off + j]);
			return 1;
		}
	}
	if (a->ne != b->ne) {
		const struct tr *longer = a->ne > b->ne ? a : b;

		snprintf(msg, msglen,
			 "transcripts differ in length: %s %zu calls, %s %zu calls "
			 "(first extra: '%s')",
			 la, a->ne, lb, b->ne, longer->e[n].what);
		return 1;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Logged EVP calls                                                     */
/* ------------------------------------------------------------------ */

const char *const api_names[API_N] = { "CipherUpdate", "Enc/DecUpdate", "EVP_Cipher" };

int L_init(struct tr *t, const char *what, EVP_CIPHER_CTX *x, const EVP_CIPHER *c,
	   const unsigned char *key, const unsigned char *iv, int enc)
{
	int r = EVP_CipherInit_ex(x, c, NULL, key, iv, enc);

	tr_log(t, what, r, -1, NULL, 0, 0);
	return r;
}

/* A ctrl call; on success nout bytes at ptr are part of the output. */
int L_ctrl(struct tr *t, const char *what, EVP_CIPHER_CTX *x, int type, int arg, void *ptr,
	   size_t nout, int untrusted)
{
	int r = EVP_CIPHER_CTX_ctrl(x, type, arg, ptr);

	tr_log(t, what, r, -1, r > 0 ? ptr : NULL, r > 0 ? nout : 0, untrusted);
	return r;
}

int L_set_params(struct tr *t, const char *what, EVP_CIPHER_CTX *x, const OSSL_PARAM *p)
{
	int r = EVP_CIPHER_CTX_set_params(x, p);

	tr_log(t, what, r, -1, NULL, 0, 0);
	return r;
}

/*
 * AAD (out == NULL) or data update through the chosen API. Returns 1 on
 * success with *outl set.
 */
int L_update(struct tr *t, const char *what, EVP_CIPHER_CTX *x, enum api api, int enc,
	     unsigned char *out, const unsigned char *in, size_t inl, int untrusted, int *outl)
{
	int r, ol = -7;

	if (api == API_CIPHER) {
		r = EVP_Cipher(x, out, in, (unsigned int)inl);
		tr_log(t, what, r, -1, out,
		       (r > 0 && out != NULL && (size_t)r <= inl) ? (size_t)r : 0, untrusted);
		*outl = r;
		return r >= 0;
	}
	if (api == API_ENCDEC)
		r = enc ? EVP_EncryptUpdate(x, out, &ol, in, (int)inl)
			: EVP_DecryptUpdate(x, out, &ol, in, (int)inl);
	else
		r = EVP_CipherUpdate(x, out, &ol, in, (int)inl);
	tr_log(t, what, r, ol, out,
	       (r > 0 && out != NULL && ol > 0 && (size_t)ol <= inl) ? (size_t)ol : 0, untrusted);
	*outl = ol;
	return r > 0;
}

int L_final(struct tr *t, const char *what, EVP_CIPHER_CTX *x, enum api api, int enc)
{
	unsigned char scratch[64];
	int r, ol = -7;

	if (api == API_CIPHER) {
		r = EVP_Cipher(x, NULL, NULL, 0);
		tr_log(t, what, r, -1, NULL, 0, 0);
		return r >= 0;
	}
	if (api == API_ENCDEC)
		r = enc ? EVP_EncryptFinal_ex(x, scratch, &ol)
			: EVP_DecryptFinal_ex(x, scratch, &ol);
	else
		r = EVP_CipherFinal_ex(x, scratch, &ol);
	tr_log(t, what, r, ol, scratch,
	       (r > 0 && ol > 0 && (size_t)ol <= sizeof(scratch)) ? (size_t)ol : 0, 0);
	return r > 0;
}

void log_size_param(struct tr *t, const char *pfx, EVP_CIPHER_CTX *x, const char *name)
{
	char w[72];
	size_t v = 0xdead;
	OSSL_PARAM p[2];
	int r;

	p[0] = OSSL_PARAM_construct_size_t(name, &v);
	p[1] = OSSL_PARAM_construct_end();
	r = EVP_CIPHER_CTX_get_params(x, p);
	snprintf(w, sizeof(w), "%sget(%s)", pfx, name);
	tr_log(t, w, r, OSSL_PARAM_modified(&p[0]) ? (long long)v : -1, NULL, 0, 0);
}

void log_octet_param(struct tr *t, const char *pfx, EVP_CIPHER_CTX *x, const char *name,
		     size_t bufsize)
{
	unsigned char buf[IV_BUF + 16];
	char w[72];
	OSSL_PARAM p[2];
	int r;

	if (bufsize > sizeof(buf))
		bufsize = sizeof(buf);
	memset(buf, 0xa5, sizeof(buf));
	p[0] = OSSL_PARAM_construct_octet_string(name, buf, bufsize);
	p[1] = OSSL_PARAM_construct_end();
	r = EVP_CIPHER_CTX_get_params(x, p);
	snprintf(w, sizeof(w), "%sget(%s,%zu)", pfx, name, bufsize);
	if (OSSL_PARAM_modified(&p[0]) && p[0].return_size <= bufsize)
		tr_log(t, w, r, (long long)p[0].return_size, r > 0 ? buf : NULL, p[0].return_size,
		       0);
	else
		tr_log(t, w, r, -1, NULL, 0, 0);
}

/*
 * After a read of the IV (the entry just logged): does the context say it
 * generated that IV?  OpenSSL 4.0's AES-GCM (openssl/openssl PR #29094)
 * makes a random IV when an encrypting context without one is asked for it;
 * each side's are then its own random bytes, compared for length only.  The
 * flag itself is compared (3.0 and 3.5 do not know it: neither sets it).
 */
void log_iv_generated(struct tr *t, EVP_CIPHER_CTX *x, const char *pfx)
{
	unsigned int gen = 0;
	char w[72];
	OSSL_PARAM p[2];
	int r;

	p[0] = OSSL_PARAM_construct_uint("iv-generated", &gen);
	p[1] = OSSL_PARAM_construct_end();
	r = EVP_CIPHER_CTX_get_params(x, p);
	snprintf(w, sizeof(w), "%sget(iv-generated)", pfx);
	if (t->ne > 0 && r > 0 && OSSL_PARAM_modified(&p[0]) && gen != 0)
		t->e[t->ne - 1].untrusted = 1;
	tr_log(t, w, r, OSSL_PARAM_modified(&p[0]) ? (long long)gen : -1, NULL, 0, 0);
}

/*
 * Every context parameter the default AES-GCM offers for reading that does
 * not change state, each read on its own so the order of evaluation inside
 * an implementation cannot matter; plus the EVP accessors built on them.
 */
void query_params(struct tr *t, EVP_CIPHER_CTX *x, const char *pfx)
{
	unsigned char buf[IV_BUF];
	char w[72];
	int r;

	snprintf(w, sizeof(w), "%sEVP_CIPHER_CTX_get_iv_length", pfx);
	tr_log(t, w, EVP_CIPHER_CTX_get_iv_length(x), -1, NULL, 0, 0);
	snprintf(w, sizeof(w), "%sEVP_CIPHER_CTX_get_key_length", pfx);
	tr_log(t, w, EVP_CIPHER_CTX_get_key_length(x), -1, NULL, 0, 0);
	snprintf(w, sizeof(w), "%sEVP_CIPHER_CTX_get_tag_length", pfx);
	tr_log(t, w, EVP_CIPHER_CTX_get_tag_length(x), -1, NULL, 0, 0);
	log_size_param(t, pfx, x, OSSL_CIPHER_PARAM_IVLEN);
	log_size_param(t, pfx, x, OSSL_CIPHER_PARAM_KEYLEN);
	log_size_param(t, pfx, x, OSSL_CIPHER_PARAM_AEAD_TAGLEN);
	log_size_param(t, pfx, x, OSSL_CIPHER_PARAM_AEAD_TLS1_AAD_PAD);
	log_octet_param(t, pfx, x, OSSL_CIPHER_PARAM_IV, IV_BUF);
	log_octet_param(t, pfx, x, OSSL_CIPHER_PARAM_UPDATED_IV, IV_BUF);
	memset(buf, 0, sizeof(buf));
	r = EVP_CIPHER_CTX_get_updated_iv(x, buf, sizeof(buf));
	snprintf(w, sizeof(w), "%sEVP_CIPHER_CTX_get_updated_iv", pfx);
	tr_log(t, w, r, -1, buf, sizeof(buf), 0);
	memset(buf, 0, sizeof(buf));
	r = EVP_CIPHER_CTX_get_original_iv(x, buf, sizeof(buf));
	snprintf(w, sizeof(w), "%sEVP_CIPHER_CTX_get_original_iv", pfx);
	tr_log(t, w, r, -1, buf, sizeof(buf), 0);
}

int msg_run(struct tr *t, EVP_CIPHER_CTX *x, int enc, const struct msg *m, const char *pfx)
{
	char w[72];
	int ok = 1, ol;
	size_t half = m->split ? m->len / 2 : m->len;

	snprintf(w, sizeof(w), "%saad", pfx);
	ok &= L_update(t, w, x, m->api, enc, NULL, m->aad, m->aadlen, 0, &ol);
	snprintf(w, sizeof(w), "%sdata1", pfx);
	ok &= L_update(t, w, x, m->api, enc, m->out, m->in, half, m->untrusted || !enc, &ol);
	if (m->stop_mid)
		return 0;
	if (half < m->len) {
		snprintf(w, sizeof(w), "%sdata2", pfx);
		ok &= L_update(t, w, x, m->api, enc, m->out + half, m->in + half, m->len - half,
			       m->untrusted || !enc, &ol);
	}
	if (!enc && m->set_tag) {
		snprintf(w, sizeof(w), "%sSET_TAG(%zu)", pfx, m->taglen);
		ok &= L_ctrl(t, w, x, EVP_CTRL_AEAD_SET_TAG, (int)m->taglen, m->tag, 0, 0) > 0;
	}
	snprintf(w, sizeof(w), "%sfinal", pfx);
	ok &= L_final(t, w, x, m->api, enc);
	if (enc) {
		snprintf(w, sizeof(w), "%sGET_TAG(%zu)", pfx, m->taglen);
		ok &= L_ctrl(t, w, x, EVP_CTRL_AEAD_GET_TAG, (int)m->taglen, m->tag, m->taglen,
			     m->untrusted) > 0;
	} else {
		/* plaintext counts only once authenticated */
		snprintf(w, sizeof(w), "%splaintext", pfx);
		tr_log(t, w, ok, -1, m->out, m->len, m->untrusted || !ok);
	}
	return ok;
}

/* Straightforward AES-GCM seal with the reference implementation. */
int ref_seal(const EVP_CIPHER *c, const unsigned char *key, const unsigned char *iv, size_t ivlen,
	     const unsigned char *aad, size_t aadlen, const unsigned char *pt, size_t len,
	     unsigned char *ct, unsigned char *tag, size_t taglen)
{
	EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
	unsigned char fin[32];
	int ol = 0, ok;

	ok = x != NULL && EVP_EncryptInit_ex(x, c, NULL, NULL, NULL) > 0 &&
	     EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_IVLEN, (int)ivlen, NULL) > 0 &&
	     EVP_EncryptInit_ex(x, NULL, NULL, key, iv) > 0 &&
	     EVP_EncryptUpdate(x, NULL, &ol, aad, (int)aadlen) > 0 &&
	     EVP_EncryptUpdate(x, ct, &ol, pt, (int)len) > 0 &&
	     EVP_EncryptFinal_ex(x, fin, &ol) > 0 &&
	     EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_GET_TAG, (int)taglen, tag) > 0;
	EVP_CIPHER_CTX_free(x);
	return ok;
}
