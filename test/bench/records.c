// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-bench: the TLS 1.3 and TLS 1.2 record shapes through EVP (as libssl
 * drives them), their "hot" variants with AF_ALG answered in user space, the
 * engine path's per-message copy, and the default provider's reference
 * records the engine path is checked against.
 */
#include "bench.h"

#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>

/* The records' nonce base, TLS 1.2 fixed IV and TLS 1.3 AAD, in every section. */
const unsigned char base_nonce[IVLEN] = { 0x1c, 0x2d, 0x3e, 0x4f, 0x50, 0x61,
					  0x72, 0x83, 0x94, 0xa5, 0xb6, 0xc7 };
const unsigned char tls12_fixed[TLS12_FIXED] = { 0xa1, 0xb2, 0xc3, 0xd4 };
const unsigned char tls13_aad[TLS13_AAD] = { 23, 3, 3, 0x40, 0x11 };

/* The TLS 1.3 way of deriving a per-record nonce: base XOR sequence number. */
void nonce_for(unsigned char *out, const unsigned char *base, uint64_t seq)
{
	memcpy(out, base, IVLEN);
	for (int i = 0; i < 8; i++)
		out[IVLEN - 1 - i] ^= (unsigned char)(seq >> (8 * i));
}

/* ---- TLS 1.3 record shape through EVP ---------------------------------- */

void evp13_close(struct evp13 *e)
{
	EVP_CIPHER_CTX_free(e->ctx);
	free(e->buf);
	e->ctx = NULL;
	e->buf = NULL;
}

int evp13_open(struct evp13 *e, const EVP_CIPHER *c, int enc, size_t len,
	       const unsigned char *nonce, const unsigned char *aad, const unsigned char *pristine)
{
	memset(e, 0, sizeof(*e));
	e->enc = enc;
	e->len = len;
	e->pristine = pristine;
	memcpy(e->nonce, nonce, IVLEN);
	memcpy(e->aad, aad, TLS13_AAD);
	e->ctx = EVP_CIPHER_CTX_new();
	e->buf = calloc(1, len + TAGLEN);
	if (e->ctx == NULL || e->buf == NULL ||
	    !EVP_CipherInit_ex(e->ctx, c, NULL, B.key, NULL, enc)) {
		fail("EVP setup");
		evp13_close(e);
		return -1;
	}
	fill(e->buf, len, 1);
	return 0;
}

/* One record as libssl 3.x does it for TLS 1.3. */
int evp13_record(struct evp13 *e, const unsigned char *nonce)
{
	double t[PH_GETTAG + 2] = { 0 }, sys0 = sys_time;
	int timing = e->ph != NULL, outl = 0, fl = 0;

#define MARK(i)                                                                                    \
	do {                                                                                       \
		if (timing)                                                                        \
			t[i] = now_s();                                                            \
	} while (0)
	MARK(PH_INIT);
	if (!EVP_CipherInit_ex(e->ctx, NULL, NULL, NULL, nonce, e->enc))
		return -1;
	MARK(PH_SETTAG);
	if (!e->enc && !EVP_CIPHER_CTX_ctrl(e->ctx, EVP_CTRL_AEAD_SET_TAG, TAGLEN, e->buf + e->len))
		return -1;
	MARK(PH_AAD);
	if (!EVP_CipherUpdate(e->ctx, NULL, &outl, e->aad, TLS13_AAD))
		return -1;
	MARK(PH_DATA);
	if (!EVP_CipherUpdate(e->ctx, e->buf, &outl, e->buf, (int)e->len) || (size_t)outl != e->len)
		return -1;
	MARK(PH_FINAL);
	if (!EVP_CipherFinal_ex(e->ctx, e->buf + outl, &fl))
		return -1;
	MARK(PH_GETTAG);
	if (e->enc && !EVP_CIPHER_CTX_ctrl(e->ctx, EVP_CTRL_AEAD_GET_TAG, TAGLEN, e->tag))
		return -1;
	MARK(PH_GETTAG + 1);
#undef MARK
	if (timing && e->ph->n < e->ph->cap) {
		double *v = e->ph->v[e->ph->n++];

		for (int i = PH_INIT; i <= PH_GETTAG; i++)
			v[i] = t[i + 1] - t[i];
		v[PH_SYS] = sys_time - sys0;
	}
	return 0;
}

int evp13_prep(void *ve)
{
	struct evp13 *e = ve;

	if (e->enc) {
		nonce_for(e->cur, e->nonce, ++e->seq);
	} else {
		memcpy(e->buf, e->pristine, e->len + TAGLEN);
		memcpy(e->cur, e->nonce, IVLEN);
	}
	return 0;
}

int evp13_op(void *ve)
{
	struct evp13 *e = ve;

	if (evp13_record(e, e->cur) != 0) {
		fail("TLS 1.3 record (%s, %zu bytes)", e->enc ? "encrypt" : "decrypt", e->len);
		return -1;
	}
	return 0;
}

int evp13_loop(struct evp13 *e, long n)
{
	for (long i = 0; i < n; i++)
		if (evp13_prep(e) != 0 || evp13_op(e) != 0)
			return -1;
	return 0;
}

/* ---- TLS 1.2 record shape through EVP ---------------------------------- */

void evp12_close(struct evp12 *e)
{
	EVP_CIPHER_CTX_free(e->ctx);
	free(e->rec);
	e->ctx = NULL;
	e->rec = NULL;
}

size_t rec_len(size_t len)
{
	return TLS12_EXPLICIT + len + TAGLEN;
}

/* The record AAD as libssl passes it: the length field counts the explicit IV (and tag). */
void tls12_aad(unsigned char *aad, int enc, size_t len)
{
	size_t l = TLS12_EXPLICIT + len + (enc ? 0 : TAGLEN);

	fill(aad, TLS12_AAD - 2, 9);
	aad[8] = 23;
	aad[9] = 3;
	aad[10] = 3;
	aad[11] = (unsigned char)(l >> 8);
	aad[12] = (unsigned char)(l & 0xff);
}

int evp12_open(struct evp12 *e, const EVP_CIPHER *c, int enc, size_t len,
	       const unsigned char *fixed, const unsigned char *pristine)
{
	memset(e, 0, sizeof(*e));
	e->enc = enc;
	e->len = len;
	e->pristine = pristine;
	tls12_aad(e->aad, enc, len);
	e->ctx = EVP_CIPHER_CTX_new();
	e->rec = calloc(1, rec_len(len));
	if (e->ctx == NULL || e->rec == NULL ||
	    !EVP_CipherInit_ex(e->ctx, c, NULL, B.key, NULL, enc) ||
	    EVP_CIPHER_CTX_ctrl(e->ctx, EVP_CTRL_AEAD_SET_IV_FIXED, TLS12_FIXED, (void *)fixed) <=
		    0) {
		fail("EVP TLS 1.2 setup");
		evp12_close(e);
		return -1;
	}
	fill(e->rec + TLS12_EXPLICIT, len, 1);
	return 0;
}

int evp12_record(struct evp12 *e)
{
	size_t rl = rec_len(e->len);
	int outl = 0;

	if (EVP_CIPHER_CTX_ctrl(e->ctx, EVP_CTRL_AEAD_TLS1_AAD, TLS12_AAD, e->aad) != TAGLEN ||
	    !EVP_CipherUpdate(e->ctx, e->rec, &outl, e->rec, (int)rl))
		return -1;
	if ((size_t)outl != (e->enc ? rl : e->len))
		return -1;
	return 0;
}

int evp12_prep(void *ve)
{
	struct evp12 *e = ve;

	if (!e->enc)
		memcpy(e->rec, e->pristine, rec_len(e->len));
	return 0;
}

int evp12_op(void *ve)
{
	struct evp12 *e = ve;

	if (evp12_record(e) != 0) {
		fail("TLS 1.2 record (%s, %zu bytes)", e->enc ? "encrypt" : "decrypt", e->len);
		return -1;
	}
	return 0;
}

/* The provider's records with AF_ALG answered in user space: its own work alone. */
int evp13_hot_op(void *ve)
{
	int rc;

	sys_fake = 1;
	rc = evp13_op(ve);
	sys_fake = 0;
	return rc;
}

int evp12_hot_op(void *ve)
{
	int rc;

	sys_fake = 1;
	rc = evp12_op(ve);
	sys_fake = 0;
	return rc;
}

/* ---- what the engine path adds per message: its one copy -------------- */

int copy_op(void *vc)
{
	struct copy *c = vc;
	unsigned char *p = OPENSSL_malloc(c->len);

	if (p == NULL)
		return -1;
	memcpy(p, c->src, c->len);
	if (c->cleanse)
		OPENSSL_clear_free(p, c->len);
	else
		OPENSSL_free(p);
	return 0;
}

/* ---- software references and the engine path checked against them ------- */

/* Software reference: TLS 1.3 record (nonce, aad) -> payload || tag, by the default provider. */
int reference13(size_t len, const unsigned char *nonce, unsigned char *out)
{
	struct evp13 e;
	int rc;

	if (evp13_open(&e, B.c_dflt, 1, len, nonce, tls13_aad, NULL) != 0)
		return -1;
	rc = evp13_record(&e, nonce);
	if (rc == 0) {
		memcpy(out, e.buf, len);
		memcpy(out + len, e.tag, TAGLEN);
	}
	evp13_close(&e);
	return rc;
}

/* Software reference: a TLS 1.2 record encrypted by the default provider. */
int reference12(size_t len, unsigned char *rec)
{
	struct evp12 e;
	int rc;

	if (evp12_open(&e, B.c_dflt, 1, len, tls12_fixed, NULL) != 0)
		return -1;
	rc = evp12_record(&e);
	if (rc == 0)
		memcpy(rec, e.rec, rec_len(len));
	evp12_close(&e);
	return rc;
}

/* Does the engine path give the reference answer?  One message, checked. */
int check13(struct evp13 *e, const unsigned char *ref)
{
	if (e->enc) {
		if (evp13_record(e, e->nonce) != 0 || memcmp(e->buf, ref, e->len) != 0 ||
		    memcmp(e->tag, ref + e->len, TAGLEN) != 0)
			return -1;
		return 0;
	}
	memcpy(e->buf, ref, e->len + TAGLEN);
	if (evp13_record(e, e->nonce) != 0)
		return -1;
	{
		unsigned char pt[MAX_PAYLOAD];

		fill(pt, e->len, 1);
		return memcmp(pt, e->buf, e->len) == 0 ? 0 : -1;
	}
}
