// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-ahead-check's helpers (ahead.h): pairs of AES-GCM contexts, eip93's
 * and the default provider's, every call made on both and compared.
 */
#include "ahead.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/params.h>

int ah_fails;
OSSL_PROVIDER *ah_prov;
static OSSL_LIB_CTX *ref_lib;
static OSSL_PROVIDER *ref_prov;
static EVP_CIPHER *test_c[2], *ref_c[2]; /* AES-128-GCM, AES-256-GCM */

int ah_setup(void)
{
	static const char *const names[2] = { "AES-128-GCM", "AES-256-GCM" };

	ah_prov = OSSL_PROVIDER_load(NULL, "eip93");
	ref_lib = OSSL_LIB_CTX_new();
	ref_prov = ref_lib != NULL ? OSSL_PROVIDER_load(ref_lib, "default") : NULL;
	for (int i = 0; i < 2; i++) {
		test_c[i] = EVP_CIPHER_fetch(NULL, names[i], "provider=eip93");
		ref_c[i] = ref_lib != NULL ? EVP_CIPHER_fetch(ref_lib, names[i], NULL) : NULL;
		if (test_c[i] == NULL || ref_c[i] == NULL)
			ah_prov = NULL;
	}
	if (ah_prov == NULL || ref_prov == NULL) {
		fprintf(stderr, "FAIL: eip93's or the default provider's AES-GCM not available\n");
		ERR_print_errors_fp(stderr);
		return -1;
	}
	return 0;
}

void ah_teardown(void)
{
	for (int i = 0; i < 2; i++) {
		EVP_CIPHER_free(test_c[i]);
		EVP_CIPHER_free(ref_c[i]);
	}
	OSSL_PROVIDER_unload(ref_prov);
	OSSL_LIB_CTX_free(ref_lib);
	OSSL_PROVIDER_unload(ah_prov);
}

void ah_fail(const char *what, const char *fmt, ...)
{
	va_list ap;

	printf("FAIL: %s: ", what);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	ah_fails++;
}

uint64_t ah_counter(const char *name)
{
	uint64_t v = 0;
	OSSL_PARAM q[2] = { OSSL_PARAM_construct_uint64(name, &v), OSSL_PARAM_construct_end() };

	if (!OSSL_PROVIDER_get_params(ah_prov, q) || !OSSL_PARAM_modified(q))
		return UINT64_MAX;
	return v;
}

void ah_fill(unsigned char *b, size_t n, unsigned int seed)
{
	uint32_t x = seed * 2654435761u + 12345u;

	for (size_t i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		b[i] = (unsigned char)x;
	}
}

int ah_pair_init(struct ah_pair *p, const char *what, const unsigned char *key, size_t keylen,
		 const unsigned char *iv, int enc)
{
	int k = keylen == 32, a, b;

	p->t = EVP_CIPHER_CTX_new();
	p->r = EVP_CIPHER_CTX_new();
	p->enc = enc;
	p->what = what;
	if (p->t == NULL || p->r == NULL) {
		ah_fail(what, "no memory");
		return -1;
	}
	a = EVP_CipherInit_ex2(p->t, test_c[k], key, iv, enc, NULL);
	b = EVP_CipherInit_ex2(p->r, ref_c[k], key, iv, enc, NULL);
	if (a != 1 || b != 1) {
		ah_fail(what, "init: eip93 %d, default %d", a, b);
		return -1;
	}
	return 0;
}

int ah_pair_reinit(struct ah_pair *p, const unsigned char *key, const unsigned char *iv)
{
	int a = EVP_CipherInit_ex2(p->t, NULL, key, iv, p->enc, NULL);
	int b = EVP_CipherInit_ex2(p->r, NULL, key, iv, p->enc, NULL);

	ERR_clear_error();
	if (a != b || a != 1) {
		ah_fail(p->what, "re-init: eip93 %d, default %d", a, b);
		return -1;
	}
	return 0;
}

int ah_pair_copy(struct ah_pair *dst, const struct ah_pair *src, const char *what)
{
	int a, b;

	dst->t = EVP_CIPHER_CTX_new();
	dst->r = EVP_CIPHER_CTX_new();
	dst->enc = src->enc;
	dst->what = what;
	a = dst->t != NULL && EVP_CIPHER_CTX_copy(dst->t, src->t);
	b = dst->r != NULL && EVP_CIPHER_CTX_copy(dst->r, src->r);
	if (a != 1 || b != 1) {
		ah_fail(what, "copy: eip93 %d, default %d", a, b);
		return -1;
	}
	return 0;
}

void ah_pair_free(struct ah_pair *p)
{
	EVP_CIPHER_CTX_free(p->t);
	EVP_CIPHER_CTX_free(p->r);
	p->t = p->r = NULL;
}

int ah_pair_ctrl(struct ah_pair *p, int type, int arg, void *ptr, size_t n)
{
	unsigned char saved[64], mine[64];
	int a, b;

	if (n > sizeof(saved))
		return -1;
	if (n != 0)
		memcpy(saved, ptr, n);
	a = EVP_CIPHER_CTX_ctrl(p->t, type, arg, ptr);
	if (n != 0) {
		memcpy(mine, ptr, n);
		memcpy(ptr, saved, n);
	}
	b = EVP_CIPHER_CTX_ctrl(p->r, type, arg, ptr);
	ERR_clear_error();
	if (a != b || (n != 0 && memcmp(mine, ptr, n) != 0)) {
		ah_fail(p->what, "ctrl %d(%d): eip93 %d, default %d%s", type, arg, a, b,
			a == b ? " (its bytes differ)" : "");
		return -1;
	}
	return a;
}

/* One side's message; the output's length, or -1 if a call failed. */
static int side_msg(EVP_CIPHER_CTX *c, int enc, const unsigned char *iv, const unsigned char *aad,
		    size_t aadlen, const unsigned char *in, size_t len, unsigned char *out,
		    unsigned char *tag)
{
	int n = 0, f = 0, ok;

	ok = (iv == NULL || EVP_CipherInit_ex2(c, NULL, NULL, iv, enc, NULL)) &&
	     (aadlen == 0 || EVP_CipherUpdate(c, NULL, &n, aad, (int)aadlen)) &&
	     (enc || EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_TAG, AH_TAGLEN, tag)) &&
	     EVP_CipherUpdate(c, out, &n, in, (int)len);
	ok = ok && EVP_CipherFinal_ex(c, out + n, &f);
	if (ok && enc)
		ok = EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_GET_TAG, AH_TAGLEN, tag);
	ERR_clear_error();
	return ok ? n + f : -1;
}

int ah_msg(struct ah_pair *p, const unsigned char *iv, const unsigned char *aad, size_t aadlen,
	   const unsigned char *in, size_t len, unsigned char *out, unsigned char *tag)
{
	unsigned char *o2 = malloc(len + 16), t1[AH_TAGLEN], t2[AH_TAGLEN];
	int a, b, r = -1;

	if (o2 == NULL) {
		ah_fail(p->what, "no memory");
		return -1;
	}
	memcpy(t1, tag, AH_TAGLEN);
	memcpy(t2, tag, AH_TAGLEN);
	memset(out, 0, len);
	memset(o2, 0, len);
	a = side_msg(p->t, p->enc, iv, aad, aadlen, in, len, out, t1);
	b = side_msg(p->r, p->enc, iv, aad, aadlen, in, len, o2, t2);
	if (a != b)
		ah_fail(p->what, "%s of %zu bytes: eip93 %d, default %d", p->enc ? "seal" : "open",
			len, a, b);
	else if (memcmp(out, o2, len) != 0) { /* a refused opening's update output too */
		size_t i = 0;

		while (out[i] == o2[i])
			i++;
		ah_fail(p->what, "%s of %zu bytes (%s): output differs from byte %zu (block %zu)",
			p->enc ? "seal" : "open", len, a >= 0 ? "accepted" : "refused", i, i / 16);
	} else if (a >= 0 && p->enc && memcmp(t1, t2, AH_TAGLEN) != 0)
		ah_fail(p->what, "seal of %zu bytes: the tag differs", len);
	else
		r = a >= 0;
	if (r >= 0 && p->enc)
		memcpy(tag, t1, AH_TAGLEN);
	free(o2);
	return r;
}

int ah_msg_inplace(struct ah_pair *p, const unsigned char *iv, const unsigned char *aad,
		   size_t aadlen, unsigned char *buf, size_t len, unsigned char *tag)
{
	unsigned char *b2 = malloc(len + 16), t1[AH_TAGLEN], t2[AH_TAGLEN];
	int a, b, r = -1;

	if (b2 == NULL) {
		ah_fail(p->what, "no memory");
		return -1;
	}
	memcpy(b2, buf, len);
	memcpy(t1, tag, AH_TAGLEN);
	memcpy(t2, tag, AH_TAGLEN);
	a = side_msg(p->t, p->enc, iv, aad, aadlen, buf, len, buf, t1);
	b = side_msg(p->r, p->enc, iv, aad, aadlen, b2, len, b2, t2);
	if (a != b)
		ah_fail(p->what, "%s in place of %zu bytes: eip93 %d, default %d",
			p->enc ? "seal" : "open", len, a, b);
	else if (memcmp(buf, b2, len) != 0) {
		size_t i = 0;

		while (buf[i] == b2[i])
			i++;
		ah_fail(p->what, "%s in place of %zu bytes (%s): output differs from byte %zu",
			p->enc ? "seal" : "open", len, a >= 0 ? "accepted" : "refused", i);
	} else if (a >= 0 && p->enc && memcmp(t1, t2, AH_TAGLEN) != 0)
		ah_fail(p->what, "seal in place of %zu bytes: the tag differs", len);
	else
		r = a >= 0;
	if (r >= 0 && p->enc)
		memcpy(tag, t1, AH_TAGLEN);
	free(b2);
	return r;
}

/* One side's TLS 1.2 record in place. */
static int side_tls12(EVP_CIPHER_CTX *c, int enc, uint64_t seq, unsigned char *buf, size_t len)
{
	unsigned char aad[13];
	size_t field = enc ? 8 + len : len;
	int r;

	for (int i = 0; i < 8; i++)
		aad[i] = (unsigned char)(seq >> (56 - 8 * i));
	aad[8] = 0x17;
	aad[9] = 3;
	aad[10] = 3;
	aad[11] = (unsigned char)(field >> 8);
	aad[12] = (unsigned char)field;
	if (EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_TLS1_AAD, 13, aad) != AH_TAGLEN) {
		ERR_clear_error();
		return -3;
	}
	r = EVP_Cipher(c, buf, buf, (unsigned int)(enc ? 8 + len + AH_TAGLEN : len));
	ERR_clear_error();
	return r;
}

int ah_tls12(struct ah_pair *p, uint64_t seq, unsigned char *buf, size_t len)
{
	size_t total = p->enc ? 8 + len + AH_TAGLEN : len;
	unsigned char *b2 = malloc(total);
	int a, b;

	if (b2 == NULL)
		return -2;
	memcpy(b2, buf, total);
	a = side_tls12(p->t, p->enc, seq, buf, len);
	b = side_tls12(p->r, p->enc, seq, b2, len);
	if (a != b) {
		ah_fail(p->what, "TLS 1.2 record %llu: eip93 %d, default %d",
			(unsigned long long)seq, a, b);
		a = -2;
	} else if (memcmp(buf, b2, a > 0 ? (size_t)a : total) != 0) {
		ah_fail(p->what, "TLS 1.2 record %llu (%s): the output differs",
			(unsigned long long)seq, a > 0 ? "accepted" : "refused");
		a = -2;
	}
	free(b2);
	return a;
}
