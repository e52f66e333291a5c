// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-icount: the message shapes, each as its callers make it, for the
 * default provider, eip93, and the raw engine loop:
 *   generic  init with a new IV, 16 bytes of AAD, one update out of place,
 *            final, the tag (get or set)
 *   tls13    libssl's TLS 1.3 record: IV = base XOR sequence, 5-byte record
 *            header as AAD, the payload in place, final, the tag
 *   tls12    libssl's TLS 1.2 record: TLS1_AAD, then one update over
 *            explicit IV || payload || tag, in place
 *   ssh      OpenSSH's cipher_crypt(): IV_GEN, EVP_Cipher over 4 bytes of
 *            AAD, over the payload (out of place), EVP_Cipher(NULL) as the
 *            final, the tag
 * The raw loop makes the same engine operation per message (IV, AAD,
 * buffers) on the engine backend directly: the fake (host), or the AF_ALG
 * backend on the kernel algorithm the provider's gate bound (guest; the
 * same syscalls the provider makes, without the provider).  On
 * ctr(aes-eip93) that operation is one AES-CTR request over the whole
 * blocks plus libcrypto's GCM128 for GHASH, the tag and the partial block:
 * the least any program reaching the engine's AES-CTR can do for AES-GCM.
 */
#include "icount.h"

#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#include "fake.h"
#include "../raw_gcm128.h"

enum { SH_GENERIC, SH_TLS13, SH_TLS12, SH_SSH };

static const unsigned char key[16] = { 0x10, 0x21, 0x32, 0x43, 0x54, 0x65, 0x76, 0x87,
				       0x98, 0xa9, 0xba, 0xcb, 0xdc, 0xed, 0xfe, 0x0f };
static const unsigned char base_nonce[IVLEN] = { 0x1c, 0x2d, 0x3e, 0x4f, 0x50, 0x61,
						 0x72, 0x83, 0x94, 0xa5, 0xb6, 0xc7 };
static const unsigned char fixed4[4] = { 0xa1, 0xb2, 0xc3, 0xd4 };
static const unsigned char ssh_iv[IVLEN] = { 0x01, 0x02, 0x03, 0x04, 0x05, 0x06,
					     0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c };

static OSSL_PROVIDER *p_default, *p_eip93, *p_raw;
static OSSL_LIB_CTX *raw_libctx;
static EVP_CIPHER *c_default, *c_eip93;
static const struct eip93_engine_ops *raw_ops = &eip93_engine_fake;
static char raw_kalg[128] = "fake";

/* The kernel algorithm the eip93 gate bound ("enabled: <kalg>..."), for the AF_ALG raw loop. */
static int bound_kalg(void)
{
	static const char prefix[] = "enabled: ";
	char *gate = NULL;
	size_t n;
	OSSL_PARAM q[2];

	q[0] = OSSL_PARAM_construct_utf8_ptr("eip93-gate", &gate, 0);
	q[1] = OSSL_PARAM_construct_end();
	if (!OSSL_PROVIDER_get_params(p_eip93, q) || gate == NULL ||
	    strncmp(gate, prefix, sizeof(prefix) - 1) != 0)
		return -1;
	gate += sizeof(prefix) - 1;
	n = strcspn(gate, " ;");
	if (n == 0 || n >= sizeof(raw_kalg))
		return -1;
	memcpy(raw_kalg, gate, n);
	raw_kalg[n] = '\0';
	return 0;
}

int setup_providers(void)
{
	p_default = OSSL_PROVIDER_load(NULL, "default");
	p_eip93 = OSSL_PROVIDER_load(NULL, "eip93");
	raw_libctx = OSSL_LIB_CTX_new();
	if (raw_libctx != NULL)
		p_raw = OSSL_PROVIDER_load(raw_libctx, "default");
	c_default = EVP_CIPHER_fetch(NULL, "AES-128-GCM", "provider=default");
	c_eip93 = EVP_CIPHER_fetch(NULL, "AES-128-GCM", "provider=eip93");
	if (p_default == NULL || p_eip93 == NULL || p_raw == NULL || c_default == NULL ||
	    c_eip93 == NULL || bound_kalg() != 0) {
		fprintf(stderr,
			"icount: providers: default %p, eip93 %p (gate open? "
			"OPENSSL_MODULES, the test hooks, EIP93_TEST_ENGINE=fake)\n",
			(void *)c_default, (void *)c_eip93);
		return -1;
	}
	if (strcmp(opt.raw, "afalg") == 0) {
		raw_ops = &eip93_engine_afalg;
		printf("icount: raw loop on AF_ALG %s\n", raw_kalg);
	} else {
		printf("icount: raw loop on the fake engine as %s\n", raw_kalg);
	}
	return 0;
}

void teardown_providers(void)
{
	EVP_CIPHER_free(c_default);
	EVP_CIPHER_free(c_eip93);
	OSSL_PROVIDER_unload(p_raw);
	OSSL_LIB_CTX_free(raw_libctx);
	OSSL_PROVIDER_unload(p_eip93);
	OSSL_PROVIDER_unload(p_default);
}

OSSL_LIB_CTX *raw_libctx_get(void)
{
	return raw_libctx;
}

uint64_t engine_messages(void)
{
	uint64_t v = 0;
	OSSL_PARAM q[2];

	q[0] = OSSL_PARAM_construct_uint64("eip93-engine-messages", &v);
	q[1] = OSSL_PARAM_construct_end();
	return OSSL_PROVIDER_get_params(p_eip93, q) ? v : UINT64_MAX;
}

static void fill(unsigned char *b, size_t n, unsigned int salt)
{
	for (size_t i = 0; i < n; i++)
		b[i] = (unsigned char)(i * 31 + salt);
}

/* @iv with @n added to its last 8 bytes (big-endian), as GCM's IV_GEN counts. */
static void iv_plus(unsigned char *out, const unsigned char *iv, uint64_t n)
{
	memcpy(out, iv, IVLEN);
	for (int i = IVLEN - 1; i >= IVLEN - 8 && n != 0; i--) {
		uint64_t s = out[i] + (n & 0xff);

		out[i] = (unsigned char)s;
		n = (n >> 8) + (s >> 8);
	}
}

/* TLS 1.3: base XOR the sequence number. */
static void nonce_for(unsigned char *out, uint64_t seq)
{
	memcpy(out, base_nonce, IVLEN);
	for (int i = 0; i < 8; i++)
		out[IVLEN - 1 - i] ^= (unsigned char)(seq >> (8 * i));
}

/* The TLS 1.2 record AAD as libssl passes it (@corrected: as the cipher uses it). */
static void tls12_aad(unsigned char *aad, int enc, size_t len, int corrected)
{
	size_t l = corrected ? len : EIV + len + (enc ? 0 : TAGLEN);

	fill(aad, 8, 9);
	aad[8] = 23;
	aad[9] = 3;
	aad[10] = 3;
	aad[11] = (unsigned char)(l >> 8);
	aad[12] = (unsigned char)(l & 0xff);
}

static int shape_index(const char *s)
{
	return strcmp(s, "generic") == 0 ? SH_GENERIC
	       : strcmp(s, "tls13") == 0 ? SH_TLS13
	       : strcmp(s, "tls12") == 0 ? SH_TLS12
					 : SH_SSH;
}

/* A context of @cipher set up for the shape (key, fixed IV). */
static EVP_CIPHER_CTX *shape_ctx(int shape, const EVP_CIPHER *cipher, int enc)
{
	EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
	int ok;

	if (x == NULL)
		return NULL;
	if (shape == SH_SSH)
		ok = EVP_CipherInit(x, cipher, NULL, ssh_iv, enc) &&
		     EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_GCM_SET_IV_FIXED, -1, (void *)ssh_iv) > 0 &&
		     EVP_CipherInit(x, NULL, key, NULL, -1);
	else
		ok = EVP_CipherInit_ex(x, cipher, NULL, key, NULL, enc) &&
		     (shape != SH_TLS12 ||
		      EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_IV_FIXED, 4, (void *)fixed4) > 0);
	if (!ok) {
		EVP_CIPHER_CTX_free(x);
		return NULL;
	}
	return x;
}

/* One message through EVP as the shape's caller makes it; 0 or -1. */
static int evp_message(struct runner *r, EVP_CIPHER_CTX *x, int enc)
{
	size_t len = r->c->len;
	unsigned char lastiv[1];
	int outl = 0, fl = 0;

	switch (r->shape) {
	case SH_TLS12: {
		unsigned char aad[13];
		size_t rl = EIV + len + TAGLEN;

		tls12_aad(aad, enc, len, 0);
		if (EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_TLS1_AAD, 13, aad) != TAGLEN ||
		    !EVP_CipherUpdate(x, r->in, &outl, r->in, (int)rl))
			return -1;
		return (size_t)outl == (enc ? rl : len) ? 0 : -1;
	}
	case SH_SSH:
		if (!EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_GCM_IV_GEN, 1, lastiv) ||
		    (!enc && !EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_GCM_SET_TAG, TAGLEN, r->in + len)) ||
		    EVP_Cipher(x, NULL, r->aad, (unsigned int)r->aadlen) < 0 ||
		    EVP_Cipher(x, r->out, r->in, (unsigned int)len) < 0 ||
		    EVP_Cipher(x, NULL, NULL, 0) < 0 ||
		    (enc && !EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_GCM_GET_TAG, TAGLEN, r->out + len)))
			return -1;
		return 0;
	default: /* generic, tls13: the tag follows the payload in out */
		if (!EVP_CipherInit_ex(x, NULL, NULL, NULL, r->nonce, enc) ||
		    (!enc && !EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_TAG, TAGLEN, r->in + len)) ||
		    !EVP_CipherUpdate(x, NULL, &outl, r->aad, (int)r->aadlen) ||
		    !EVP_CipherUpdate(x, r->out, &outl, r->in, (int)len) || (size_t)outl != len ||
		    !EVP_CipherFinal_ex(x, r->out + len, &fl) ||
		    (enc && !EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_GET_TAG, TAGLEN, r->out + len)))
			return -1;
		return 0;
	}
}

/* The decryption inputs, made by the default provider: one per message for ssh. */
static int make_pristine(struct runner *r)
{
	size_t len = r->c->len, n = r->shape == SH_SSH ? (size_t)(WARMUP + opt.messages) : 1;
	struct runner m = *r;
	EVP_CIPHER_CTX *x = shape_ctx(r->shape, c_default, 1);
	int rc = 0;

	r->stride = r->shape == SH_TLS12 ? EIV + len + TAGLEN : len + TAGLEN;
	r->pristine = malloc(n * r->stride);
	if (x == NULL || r->pristine == NULL) {
		EVP_CIPHER_CTX_free(x);
		return -1;
	}
	memcpy(m.nonce, base_nonce, IVLEN);
	for (size_t i = 0; i < n && rc == 0; i++) {
		unsigned char *p = r->pristine + i * r->stride;

		m.in = m.out = p;
		if (r->shape == SH_TLS12)
			memcpy(p + EIV, r->plain, len);
		else
			memcpy(p, r->plain, len);
		rc = evp_message(&m, x, 1);
	}
	EVP_CIPHER_CTX_free(x);
	return rc;
}

int runner_open(struct runner *r, const struct icase *c, enum who who)
{
	size_t len = c->len;
	int inplace;

	if (skc_shape(c->shape) >= 0)
		return skc_open(r, c, who);
	memset(r, 0, sizeof(*r));
	r->c = c;
	r->who = who;
	r->shape = shape_index(c->shape);
	inplace = r->shape == SH_TLS13 || r->shape == SH_TLS12;
	r->plain = malloc(len);
	r->in = malloc(MAX_OUT);
	r->out = inplace ? r->in : malloc(MAX_OUT);
	if (r->plain == NULL || r->in == NULL || r->out == NULL)
		return -1;
	fill(r->plain, len, 1);
	r->aadlen = r->shape == SH_GENERIC ? 16 : r->shape == SH_TLS13 ? 5 : 4;
	fill(r->aad, r->aadlen, 7);
	if (r->shape == SH_TLS13) {
		r->aad[0] = 23;
		r->aad[1] = r->aad[2] = 3;
		r->aad[3] = (unsigned char)((len + TAGLEN) >> 8);
		r->aad[4] = (unsigned char)(len + TAGLEN);
	}
	if (!c->enc && make_pristine(r) != 0)
		return -1;
	if (who == WHO_RAW) {
		struct eip93_engine_cfg cfg = { raw_kalg, 256, 1000, raw_libctx };

		eip93_engine_key_init(&r->ek);
		if (raw_ops->key_open(&r->ek, &cfg, key, sizeof(key)) != 0)
			return -1;
		if (!eip93_engine_kalg_is_ctr(raw_kalg))
			return 0;
		r->ecb = EVP_CIPHER_CTX_new();
		if (r->ecb == NULL ||
		    !EVP_EncryptInit_ex2(r->ecb, EVP_aes_128_ecb(), key, NULL, NULL) ||
		    !EVP_CIPHER_CTX_set_padding(r->ecb, 0))
			return -1;
		return eip93_route_init(&r->rt, raw_block, r->ecb) == 0 ? 0 : -1;
	}
	r->ctx = shape_ctx(r->shape, who == WHO_DEFAULT ? c_default : c_eip93, c->enc);
	return r->ctx != NULL ? 0 : -1;
}

int runner_prep(struct runner *r, int i)
{
	size_t len = r->c->len;

	if (r->kind != 0)
		return skc_prep(r, i);
	r->msg = (size_t)i;
	switch (r->shape) {
	case SH_GENERIC:
	case SH_TLS13:
		if (r->c->enc) {
			nonce_for(r->nonce, (uint64_t)i + 1);
			memcpy(r->in, r->plain, len);
		} else {
			memcpy(r->nonce, base_nonce, IVLEN);
			memcpy(r->in, r->pristine, r->stride);
		}
		break;
	case SH_TLS12:
		if (r->c->enc)
			memcpy(r->in + EIV, r->plain, len);
		else
			memcpy(r->in, r->pristine, r->stride);
		if (r->who == WHO_RAW) {
			memcpy(r->nonce, fixed4, 4);
			memset(r->nonce + 4, 0, EIV);
			if (r->c->enc)
				iv_plus(r->nonce, r->nonce, (uint64_t)i);
			else
				memcpy(r->nonce + 4, r->in, EIV);
		}
		break;
	case SH_SSH:
		if (r->c->enc)
			memcpy(r->in, r->plain, len);
		else
			memcpy(r->in, r->pristine + (size_t)i * r->stride, r->stride);
		iv_plus(r->nonce, ssh_iv, (uint64_t)i);
		break;
	}
	return 0;
}

/* ctr(aes-eip93): the engine's one AES-CTR request from IV || 2, GHASH and the tag in libcrypto. */
static int raw_ctr(struct runner *r, const struct eip93_engine_msg *m, int enc)
{
	const unsigned char two[4] = { 0, 0, 0, 2 };
	unsigned char cb[16];
	size_t whole = m->len & ~(size_t)15;
	struct eip93_engine_msg c = { cb, NULL, 0, m->in, m->out, whole, NULL, NULL };

	memcpy(cb, m->iv, IVLEN);
	memcpy(cb + IVLEN, two, 4);
	if (eip93_route_start(&r->rt, m->iv, IVLEN, m->aad, m->aadlen) != 0)
		return -1;
	if (enc)
		return raw_ops->skc(&r->ek, &c, 1) != 0
			       ? -1
			       : raw_seal_tail(&r->rt, m->in, m->out, m->len, m->tag);
	/* The tag first (in place, the engine overwrites the ciphertext); then the engine. */
	if (raw_open_head(&r->rt, m->in, m->out, m->len, m->tag) != 0)
		return -1;
	return raw_ops->skc(&r->ek, &c, 0);
}

/* The raw loop's one engine operation: what the provider asks of the engine. */
static int raw_message(struct runner *r)
{
	const struct eip93_engine_ops *e = raw_ops;
	size_t len = r->c->len;
	unsigned char aad[13];
	struct eip93_engine_msg m = { r->nonce, r->aad, r->aadlen,    r->in,
				      r->out,	len,	r->out + len, NULL };

	if (r->shape == SH_TLS12) {
		tls12_aad(aad, r->c->enc, len, 1);
		m.aad = aad;
		m.aadlen = sizeof(aad);
		m.in = m.out = r->in + EIV;
		m.tag = r->in + EIV + len;
		if (r->c->enc)
			memcpy(r->in, r->nonce + 4, EIV);
	} else if (!r->c->enc) {
		m.tag = r->in + len;
	}
	if (r->rt.g != NULL)
		return raw_ctr(r, &m, r->c->enc);
	return (r->c->enc ? e->seal(&r->ek, &m) : e->unseal(&r->ek, &m)) == 0 ? 0 : -1;
}

int runner_op(struct runner *r)
{
	if (r->kind != 0)
		return skc_op(r);
	if (r->who == WHO_RAW)
		return raw_message(r);
	return evp_message(r, r->ctx, r->c->enc);
}

/* A TLS 1.2 record sealed with any explicit IV: its plaintext if it authenticates. */
static size_t open_record(const unsigned char *rec, size_t len, unsigned char *buf)
{
	unsigned char nonce[IVLEN], aad[13];
	EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
	int n = 0, ok;

	memcpy(nonce, fixed4, 4);
	memcpy(nonce + 4, rec, EIV);
	tls12_aad(aad, 1, len, 1);
	ok = x != NULL && EVP_DecryptInit_ex(x, c_default, NULL, key, nonce) &&
	     EVP_DecryptUpdate(x, NULL, &n, aad, sizeof(aad)) &&
	     EVP_DecryptUpdate(x, buf, &n, rec + EIV, (int)len) &&
	     EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_TAG, TAGLEN, (void *)(rec + EIV + len)) &&
	     EVP_DecryptFinal_ex(x, buf + len, &n);
	EVP_CIPHER_CTX_free(x);
	return ok ? len : 0;
}

size_t runner_output(struct runner *r, unsigned char *buf)
{
	size_t len = r->c->len;

	if (r->kind != 0)
		return skc_output(r, buf);
	if (r->shape == SH_TLS12) {
		if (r->c->enc) /* its explicit IV is random: compare what it opens to */
			return open_record(r->in, len, buf);
		memcpy(buf, r->in + EIV, len);
		return len;
	}
	memcpy(buf, r->out, r->c->enc ? len + TAGLEN : len);
	return r->c->enc ? len + TAGLEN : len;
}

void runner_close(struct runner *r)
{
	if (r->who == WHO_RAW)
		(r->kind != 0 ? &eip93_engine_fake : raw_ops)->key_close(&r->ek);
	eip93_route_free(&r->rt);
	EVP_CIPHER_CTX_free(r->ecb);
	EVP_CIPHER_CTX_free(r->ctx);
	if (r->out != r->in)
		free(r->out);
	free(r->in);
	free(r->plain);
	free(r->pristine);
	memset(r, 0, sizeof(*r));
}
