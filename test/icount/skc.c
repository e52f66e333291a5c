// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-icount: the AES-CTR and AES-CBC shapes (AES-128), one update per
 * message on a running context (initialised once with the key and an IV),
 * as a stream's caller makes it:
 *   ctr, ctr-ip      AES-CTR, out of place / in place
 *   cbc, cbc-ip      AES-CBC with padding (decrypting: the delegate holds
 *                    the last block of each update back, so an engine
 *                    message is that block and the update's first len - 16)
 *   cbcnp, cbcnp-ip  AES-CBC without padding (decryption)
 *   cbctls           libssl's TLS 1.2 CBC record (tls-version 0x0303,
 *                    tls-mac-size 32): one update in place over explicit IV
 *                    || payload || MAC, the padding added (encrypting) or
 *                    checked and dropped with the MAC handed out as tls-mac
 *                    (decrypting: the counted calls include that read)
 * Out of place the engine writes straight into the caller's output; in place
 * (and after a held block) the provider takes a scratch copy.  The raw loop
 * makes one request per message on the fake engine's ctr(aes-eip93) or
 * cbc(aes-eip93) from the running IV, which it follows itself (the counter,
 * or the last ciphertext block); a TLS record's raw loop pads (encrypting)
 * and deciphers, without the padding check or the MAC.
 */
#include "icount.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/prov_ssl.h>

#define BLK 16
#define MACLEN 32

enum { K_CTR = 1, K_CBC, K_CBCNP, K_TLS }; /* 0: an AES-GCM shape */

static const struct {
	const char *name;
	int kind, inplace;
} skc_shapes[] = { { "ctr", K_CTR, 0 },	   { "ctr-ip", K_CTR, 1 },  { "cbc", K_CBC, 0 },
		   { "cbc-ip", K_CBC, 1 }, { "cbcnp", K_CBCNP, 0 }, { "cbcnp-ip", K_CBCNP, 1 },
		   { "cbctls", K_TLS, 1 } };

static const unsigned char key[16] = { 0x3c, 0x4d, 0x5e, 0x6f, 0x70, 0x81, 0x92, 0xa3,
				       0xb4, 0xc5, 0xd6, 0xe7, 0xf8, 0x09, 0x1a, 0x2b };
/* CTR: near no 32-bit wrap for any run here. */
static const unsigned char iv0[BLK] = { 0xf0, 0xe1, 0xd2, 0xc3, 0xb4, 0xa5, 0x96, 0x87,
					0x78, 0x69, 0x5a, 0x4b, 0x00, 0x00, 0x10, 0x00 };

static EVP_CIPHER *c_ctr[2], *c_cbc[2]; /* [0] default, [1] eip93 */

int skc_shape(const char *shape)
{
	for (size_t i = 0; i < sizeof(skc_shapes) / sizeof(skc_shapes[0]); i++)
		if (strcmp(shape, skc_shapes[i].name) == 0)
			return (int)i;
	return -1;
}

int skc_setup(void)
{
	c_ctr[0] = EVP_CIPHER_fetch(NULL, "AES-128-CTR", "provider=default");
	c_cbc[0] = EVP_CIPHER_fetch(NULL, "AES-128-CBC", "provider=default");
	c_ctr[1] = EVP_CIPHER_fetch(NULL, "AES-128-CTR", "provider=eip93");
	c_cbc[1] = EVP_CIPHER_fetch(NULL, "AES-128-CBC", "provider=eip93");
	if (c_ctr[0] == NULL || c_cbc[0] == NULL || c_ctr[1] == NULL || c_cbc[1] == NULL) {
		fprintf(stderr, "icount: AES-128-CTR/CBC: not offered by eip93 here\n");
		return -1;
	}
	return 0;
}

void skc_teardown(void)
{
	for (int i = 0; i < 2; i++) {
		EVP_CIPHER_free(c_ctr[i]);
		EVP_CIPHER_free(c_cbc[i]);
	}
}

/* Every AES-CTR/CBC case: path, shape, directions (bit 1 enc, bit 0 dec), sizes. */
int skc_cases(int (*run)(const struct icase *))
{
	static const size_t dsz[] = { 16, 1024, 0 }, esz[] = { 4096, 16384, 32768, 0 },
			    tsz[] = { 16384, 0 };
	static const struct {
		const char *path, *shape;
		int dirs;
		const size_t *sizes;
	} list[] = {
		{ "delegated", "ctr", 3, dsz },	  { "delegated", "cbc", 3, dsz },
		{ "delegated", "cbcnp", 1, dsz }, { "engine", "ctr", 3, esz },
		{ "engine", "ctr-ip", 3, esz },	  { "engine", "cbc", 3, esz },
		{ "engine", "cbc-ip", 2, esz },	  { "engine", "cbcnp", 1, esz },
		{ "engine", "cbcnp-ip", 1, esz }, { "engine", "cbctls", 3, tsz },
	};
	int fails = 0;

	for (size_t i = 0; i < sizeof(list) / sizeof(list[0]); i++) {
		if (strcmp(opt.path, "all") != 0 && strcmp(opt.path, list[i].path) != 0)
			continue;
		for (int enc = 1; enc >= 0; enc--) {
			if (!(list[i].dirs & (enc ? 2 : 1)))
				continue;
			for (const size_t *z = list[i].sizes; *z != 0; z++) {
				struct icase c = { list[i].path, list[i].shape, enc, *z };

				if (run(&c) != 0)
					fails++;
			}
		}
	}
	return fails;
}

static void fill(unsigned char *b, size_t n, unsigned int salt)
{
	for (size_t i = 0; i < n; i++)
		b[i] = (unsigned char)(i * 13 + salt);
}

/* The bytes one message hands the cipher: a record's explicit IV and MAC around its payload. */
static size_t msg_inl(const struct runner *r)
{
	if (r->kind != K_TLS)
		return r->c->len;
	return r->c->enc ? BLK + r->c->len + MACLEN : r->reclen;
}

/* A running context of the shape (key, IV, padding or the TLS parameters). */
static EVP_CIPHER_CTX *skc_ctx(int kind, int provider, int enc)
{
	EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
	unsigned int ver = TLS1_2_VERSION;
	size_t mac = MACLEN;
	OSSL_PARAM p[3] = { OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_TLS_VERSION, &ver),
			    OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_TLS_MAC_SIZE, &mac),
			    OSSL_PARAM_construct_end() };
	int ok;

	if (x == NULL)
		return NULL;
	ok = EVP_CipherInit_ex2(x, kind == K_CTR ? c_ctr[provider] : c_cbc[provider], key, iv0, enc,
				NULL) &&
	     (kind != K_CBCNP || EVP_CIPHER_CTX_set_padding(x, 0)) &&
	     (kind != K_TLS || EVP_CIPHER_CTX_set_params(x, p));
	if (!ok) {
		EVP_CIPHER_CTX_free(x);
		return NULL;
	}
	return x;
}

/* A TLS 1.2 record the default provider encrypted from the plaintext: the decryptions' input. */
static int make_record(struct runner *r)
{
	EVP_CIPHER_CTX *x = skc_ctx(K_TLS, 0, 1);
	size_t inl = BLK + r->c->len + MACLEN;
	int outl = 0, ok;

	r->pristine = malloc(MAX_OUT);
	if (x == NULL || r->pristine == NULL) {
		EVP_CIPHER_CTX_free(x);
		return -1;
	}
	memcpy(r->pristine, r->plain, inl);
	ok = EVP_CipherUpdate(x, r->pristine, &outl, r->pristine, (int)inl);
	EVP_CIPHER_CTX_free(x);
	r->reclen = (size_t)outl;
	return ok && r->reclen == inl + (BLK - inl % BLK) ? 0 : -1;
}

int skc_open(struct runner *r, const struct icase *c, enum who who)
{
	int s = skc_shape(c->shape);
	size_t n = c->len + BLK + MACLEN;

	memset(r, 0, sizeof(*r));
	r->c = c;
	r->who = who;
	r->kind = skc_shapes[s].kind;
	r->plain = malloc(n);
	r->in = malloc(MAX_OUT);
	r->out = skc_shapes[s].inplace ? r->in : malloc(MAX_OUT);
	if (r->plain == NULL || r->in == NULL || r->out == NULL)
		return -1;
	fill(r->plain, n, 3); /* a decryption's ciphertext too (data shapes) */
	if (r->kind == K_TLS && !c->enc && make_record(r) != 0)
		return -1;
	memcpy(r->riv, iv0, BLK);
	if (who == WHO_RAW) {
		struct eip93_engine_cfg cfg = { r->kind == K_CTR ? "ctr(aes-eip93)"
								 : "cbc(aes-eip93)",
						256, 1000, raw_libctx_get() };

		eip93_engine_key_init(&r->ek);
		return eip93_engine_fake.key_open(&r->ek, &cfg, key, sizeof(key)) == 0 ? 0 : -1;
	}
	r->ctx = skc_ctx(r->kind, who != WHO_DEFAULT, c->enc);
	return r->ctx != NULL ? 0 : -1;
}

int skc_prep(struct runner *r, int i)
{
	r->msg = (size_t)i;
	if (r->kind == K_TLS && !r->c->enc)
		memcpy(r->in, r->pristine, r->reclen);
	else
		memcpy(r->in, r->plain, msg_inl(r));
	return 0;
}

/* The raw loop: one engine request from the running IV, which it then follows. */
static int raw_skc(struct runner *r)
{
	size_t len = msg_inl(r);
	unsigned char last[BLK];
	struct eip93_engine_msg m = { r->riv, NULL, 0, r->in, r->out, 0, NULL, NULL };

	if (r->kind == K_TLS && r->c->enc) { /* the padding */
		size_t pad = BLK - len % BLK;

		memset(r->in + len, (int)(pad - 1), pad);
		len += pad;
	}
	m.len = len;
	if (r->kind != K_CTR && !r->c->enc)
		memcpy(last, r->in + len - BLK, BLK); /* in place, the request overwrites it */
	if (eip93_engine_fake.skc(&r->ek, &m, r->c->enc) != 0)
		return -1;
	if (r->kind == K_CTR) {
		unsigned int carry = (unsigned int)(len / BLK);

		for (int i = BLK - 1; i >= 0 && carry != 0; i--) {
			carry += r->riv[i];
			r->riv[i] = (unsigned char)carry;
			carry >>= 8;
		}
	} else {
		memcpy(r->riv, r->c->enc ? r->out + len - BLK : last, BLK);
	}
	return 0;
}

int skc_op(struct runner *r)
{
	size_t inl = msg_inl(r), want = inl;
	int outl = 0;

	if (r->who == WHO_RAW)
		return raw_skc(r);
	if (!EVP_CipherUpdate(r->ctx, r->out, &outl, r->in, (int)inl))
		return -1;
	if (r->kind == K_TLS) {
		OSSL_PARAM p[2] = { OSSL_PARAM_construct_octet_ptr(OSSL_CIPHER_PARAM_TLS_MAC,
								   (void **)&r->mac, MACLEN),
				    OSSL_PARAM_construct_end() };

		if (r->c->enc)
			return (size_t)outl == inl + (BLK - inl % BLK) ? 0 : -1;
		/* As libssl: the MAC the cipher took off the record. */
		if ((size_t)outl != r->c->len || !EVP_CIPHER_CTX_get_params(r->ctx, p) ||
		    r->mac == NULL)
			return -1;
		return 0;
	}
	/* Decrypting with padding, the first update holds its last block back. */
	if (r->kind == K_CBC && !r->c->enc && r->msg == 0)
		want = inl - BLK;
	return (size_t)outl == want ? 0 : -1;
}

size_t skc_output(struct runner *r, unsigned char *buf)
{
	size_t len = r->c->len;

	if (r->kind == K_TLS) {
		if (r->c->enc) {
			len = msg_inl(r);
			len += BLK - len % BLK;
			memcpy(buf, r->in, len);
			return len;
		}
		memcpy(buf, r->in + BLK, len); /* the payload, then the MAC */
		memcpy(buf + len, r->who == WHO_RAW ? r->in + BLK + len : r->mac, MACLEN);
		return len + MACLEN;
	}
	if (r->kind == K_CBC && !r->c->enc && len > BLK) {
		/* The delegate is one block behind: the raw loop's first len - 16 bytes. */
		memcpy(buf, r->out + (r->who == WHO_RAW ? 0 : BLK), len - BLK);
		return len - BLK;
	}
	memcpy(buf, r->out, len);
	return len;
}
