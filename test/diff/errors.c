// SPDX-License-Identifier: Apache-2.0
/*
 * Error behaviour scripts: fixed EVP call sequences at the edges (IV,
 * tag and key lengths, calls out of order, TLS controls refused, IV
 * generation errors, parameter types, use after final, failed re-key)
 * whose every answer must match the default provider's.
 */
#include "diff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/params.h>

enum escript {
	E_IVLEN,
	E_GETTAG,
	E_SETTAG,
	E_TAG_BEFORE_FINAL,
	E_AFTER_FINAL,
	E_DEC_NO_TAG,
	E_AAD_AFTER_DATA,
	E_NO_IV,
	E_TLS_AAD,
	E_IV_FIXED,
	E_IVGEN_INV,
	E_KEYLEN,
	E_SMALL_IV_BUF,
	E_PARAM_TYPES,
	E_ONESHOT_NO_TAG,
	E_COPY_EARLY,
	E_IV_REUSE,
	E_NULL_IN,
	E_DEC_FINAL_TWICE,
	E_ENGINE_DEC_AFTER_FINAL,
	E_FAILED_REKEY,
	E_TLS_FIXED_THEN_IV,
	E_N
};
static const char *const escript_names[E_N] = { "ivlen-edges",
						"get-tag-edges",
						"set-tag-edges",
						"tag-before-final",
						"use-after-final",
						"decrypt-final-without-tag",
						"aad-after-data",
						"no-iv",
						"tls1-aad-errors",
						"iv-fixed-edges",
						"ivgen-inv-errors",
						"key-length",
						"small-iv-buffer",
						"param-types",
						"oneshot-no-tag",
						"copy-before-key",
						"iv-reuse",
						"null-input",
						"decrypt-final-twice",
						"engine-decrypt-after-final",
						"failed-rekey",
						"tls-fixed-then-iv" };

struct eshape {
	enum escript id;
	int kidx;
	unsigned char key[32], key2[32];
	unsigned char iv[IV_BUF];
	unsigned char aad[32];
	size_t aadlen;
	size_t len;
	size_t ivsel;
	unsigned char *pt;
	unsigned char *junk; /* len + 64 bytes of random data */
};

static struct msg emsg(const struct eshape *e, unsigned char *out, unsigned char *tag)
{
	struct msg m;

	memset(&m, 0, sizeof(m));
	m.aad = e->aad;
	m.aadlen = e->aadlen;
	m.in = e->pt;
	m.len = e->len;
	m.out = out;
	m.tag = tag;
	m.taglen = TAG_MAX;
	m.set_tag = 1;
	m.api = API_UPDATE;
	return m;
}

static void err_script(const struct eshape *e, const EVP_CIPHER *c, struct tr *t)
{
	EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new(), *y = NULL;
	unsigned char *out = xmalloc(e->len + 64);
	unsigned char *ct = xmalloc(e->len + 64);
	unsigned char tag[TAG_BUF], tag2[TAG_BUF], buf[IV_BUF + 16];
	struct msg m = emsg(e, out, tag);
	OSSL_PARAM p[3];
	char w[72];
	int ol, r;

	memset(tag, 0, sizeof(tag));
	memset(tag2, 0, sizeof(tag2));
	memset(buf, 0, sizeof(buf));
	switch (e->id) {
	case E_IVLEN: {
		static const int v[] = { 0, -1, 129, 128, 65, 64, 13, 1, 16, 12 };
		size_t z0 = 0, z129 = 129;

		L_init(t, "init(c)", x, c, NULL, NULL, 1);
		for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
			snprintf(w, sizeof(w), "SET_IVLEN(%d)", v[i]);
			L_ctrl(t, w, x, EVP_CTRL_AEAD_SET_IVLEN, v[i], NULL, 0, 0);
			log_size_param(t, "", x, OSSL_CIPHER_PARAM_IVLEN);
		}
		p[0] = OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, &z0);
		p[1] = OSSL_PARAM_construct_end();
		L_set_params(t, "set_params(ivlen=0)", x, p);
		p[0] = OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, &z129);
		L_set_params(t, "set_params(ivlen=129)", x, p);
		snprintf(w, sizeof(w), "SET_IVLEN(%zu)", e->ivsel);
		L_ctrl(t, w, x, EVP_CTRL_AEAD_SET_IVLEN, (int)e->ivsel, NULL, 0, 0);
		L_init(t, "init(key,iv)", x, NULL, e->key, e->iv, -1);
		msg_run(t, x, 1, &m, "msg.");
		query_params(t, x, "after.");
		break;
	}
	case E_GETTAG: {
		static const int v[] = { 0, 17, 32, 1, 4, 12, 16 };

		L_init(t, "init(c,key,iv)", x, c, e->key, e->iv, 1);
		msg_run(t, x, 1, &m, "msg.");
		for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
			memset(tag2, 0, sizeof(tag2));
			snprintf(w, sizeof(w), "GET_TAG(%d)", v[i]);
			L_ctrl(t, w, x, EVP_CTRL_AEAD_GET_TAG, v[i], tag2,
			       (size_t)v[i] <= sizeof(tag2) ? (size_t)v[i] : 0, 0);
		}
		break;
	}
	case E_SETTAG: {
		static const int v[] = { 0, 17, 32 };

		/* produce a valid ciphertext first, with this implementation */
		L_init(t, "enc.init", x, c, e->key, e->iv, 1);
		L_ctrl(t, "enc.SET_TAG(16)", x, EVP_CTRL_AEAD_SET_TAG, 16, tag2, 0, 0);
		m.out = ct;
		msg_run(t, x, 1, &m, "enc.");
		y = EVP_CIPHER_CTX_new();
		L_init(t, "dec.init", y, c, e->key, e->iv, 0);
		for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
			snprintf(w, sizeof(w), "dec.SET_TAG(%d)", v[i]);
			L_ctrl(t, w, y, EVP_CTRL_AEAD_SET_TAG, v[i], buf, 0, 0);
		}
		m.in = ct;
		m.out = out;
		msg_run(t, y, 0, &m, "dec.");
		break;
	}
	case E_TAG_BEFORE_FINAL:
		L_init(t, "init", x, c, e->key, e->iv, 1);
		L_update(t, "aad", x, API_UPDATE, 1, NULL, e->aad, e->aadlen, 0, &ol);
		L_update(t, "data", x, API_UPDATE, 1, out, e->pt, e->len, 0, &ol);
		L_ctrl(t, "GET_TAG-before-final", x, EVP_CTRL_AEAD_GET_TAG, 16, tag, 16, 0);
		L_final(t, "final", x, API_UPDATE, 1);
		L_ctrl(t, "GET_TAG", x, EVP_CTRL_AEAD_GET_TAG, 16, tag, 16, 0);
		break;
	case E_AFTER_FINAL:
		L_init(t, "init", x, c, e->key, e->iv, 1);
		msg_run(t, x, 1, &m, "msg.");
		L_update(t, "data-after-final", x, API_UPDATE, 1, out, e->pt, e->len, 0, &ol);
		L_update(t, "aad-after-final", x, API_UPDATE, 1, NULL, e->aad, e->aadlen, 0, &ol);
		L_final(t, "final-again", x, API_UPDATE, 1);
		L_ctrl(t, "GET_TAG-again", x, EVP_CTRL_AEAD_GET_TAG, 16, tag2, 16, 0);
		L_update(t, "EVP_Cipher-after-final", x, API_CIPHER, 1, out, e->pt, e->len, 0, &ol);
		L_final(t, "EVP_Cipher-final-again", x, API_CIPHER, 1);
		break;
	case E_DEC_NO_TAG:
		L_init(t, "init", x, c, e->key, e->iv, 0);
		L_update(t, "aad", x, API_UPDATE, 0, NULL, e->aad, e->aadlen, 0, &ol);
		L_update(t, "data", x, API_UPDATE, 0, out, e->junk, e->len, 1, &ol);
		L_final(t, "final-without-tag", x, API_UPDATE, 0);
		L_ctrl(t, "SET_TAG", x, EVP_CTRL_AEAD_SET_TAG, 16, e->junk, 0, 0);
		L_final(t, "final-with-wrong-tag", x, API_UPDATE, 0);
		break;
	case E_AAD_AFTER_DATA:
		L_init(t, "init", x, c, e->key, e->iv, 1);
		L_update(t, "aad", x, API_UPDATE, 1, NULL, e->aad, e->aadlen, 0, &ol);
		L_update(t, "data1", x, API_UPDATE, 1, out, e->pt, e->len / 2, 0, &ol);
		L_update(t, "aad-after-data", x, API_UPDATE, 1, NULL, e->aad, 7, 0, &ol);
		L_update(t, "data2", x, API_UPDATE, 1, out + e->len / 2, e->pt + e->len / 2,
			 e->len - e->len / 2, 0, &ol);
		L_final(t, "final", x, API_UPDATE, 1);
		L_ctrl(t, "GET_TAG", x, EVP_CTRL_AEAD_GET_TAG, 16, tag, 16, 0);
		break;
	case E_NO_IV:
		/* encrypting without an IV makes the cipher draw a random one */
		L_init(t, "enc.init(c,key)", x, c, e->key, NULL, 1);
		m.untrusted = 1;
		msg_run(t, x, 1, &m, "enc.");
		log_size_param(t, "enc.", x, OSSL_CIPHER_PARAM_IVLEN);
		p[0] = OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_IV, buf, IV_BUF);
		p[1] = OSSL_PARAM_construct_end();
		r = EVP_CIPHER_CTX_get_params(x, p);
		tr_log(t, "enc.get(iv)", r,
		       OSSL_PARAM_modified(&p[0]) ? (long long)p[0].return_size : -1, NULL, 0, 0);
		y = EVP_CIPHER_CTX_new();
		L_init(t, "dec.init(c,key)", y, c, e->key, NULL, 0);
		m.in = e->junk;
		msg_run(t, y, 0, &m, "dec.");
		break;
	case E_TLS_AAD: {
		size_t rl = e->len + TLS_EIV + TLS_TAG;
		unsigned char *rec = xmalloc(rl + 64);
		unsigned char hdr[TLS12_AAD];

		memcpy(rec, e->junk, rl + 64);
		memcpy(hdr, e->junk, sizeof(hdr));
		L_init(t, "enc.init(c,key)", x, c, e->key, NULL, 1);
		L_ctrl(t, "enc.SET_IV_FIXED(4)", x, EVP_CTRL_GCM_SET_IV_FIXED, 4, (void *)e->iv, 0,
		       0);
		L_ctrl(t, "enc.TLS1_AAD(12)", x, EVP_CTRL_AEAD_TLS1_AAD, 12, hdr, 0, 0);
		L_ctrl(t, "enc.TLS1_AAD(14)", x, EVP_CTRL_AEAD_TLS1_AAD, 14, buf, 0, 0);
		put_be16(hdr + 11, 7);
		L_ctrl(t, "enc.TLS1_AAD(len=7)", x, EVP_CTRL_AEAD_TLS1_AAD, 13, hdr, 0, 0);
		put_be16(hdr + 11, e->len + TLS_EIV);
		L_ctrl(t, "enc.TLS1_AAD", x, EVP_CTRL_AEAD_TLS1_AAD, 13, hdr, 0, 0);
		L_update(t, "enc.update-not-in-place", x, API_UPDATE, 1, out, rec, rl, 1, &ol);
		L_ctrl(t, "enc.TLS1_AAD", x, EVP_CTRL_AEAD_TLS1_AAD, 13, hdr, 0, 0);
		L_update(t, "enc.update-too-short", x, API_UPDATE, 1, rec, rec, 20, 1, &ol);
		L_ctrl(t, "enc.TLS1_AAD", x, EVP_CTRL_AEAD_TLS1_AAD, 13, hdr, 0, 0);
		L_update(t, "enc.update", x, API_UPDATE, 1, rec, rec, rl, 1, &ol);
		L_update(t, "enc.update-without-TLS1_AAD", x, API_UPDATE, 1, rec, rec, rl, 1, &ol);
		y = EVP_CIPHER_CTX_new();
		L_init(t, "dec.init(c,key)", y, c, e->key, NULL, 0);
		L_ctrl(t, "dec.SET_IV_FIXED(4)", y, EVP_CTRL_GCM_SET_IV_FIXED, 4, (void *)e->iv, 0,
		       0);
		put_be16(hdr + 11, 23);
		L_ctrl(t, "dec.TLS1_AAD(len=23)", y, EVP_CTRL_AEAD_TLS1_AAD, 13, hdr, 0, 0);
		put_be16(hdr + 11, 24);
		L_ctrl(t, "dec.TLS1_AAD(len=24)", y, EVP_CTRL_AEAD_TLS1_AAD, 13, hdr, 0, 0);
		memcpy(rec, e->junk, 24);
		L_update(t, "dec.update(24,junk)", y, API_UPDATE, 0, rec, rec, 24, 1, &ol);
		put_be16(hdr + 11, rl);
		L_ctrl(t, "dec.TLS1_AAD", y, EVP_CTRL_AEAD_TLS1_AAD, 13, hdr, 0, 0);
		memcpy(rec, e->junk, rl);
		L_update(t, "dec.EVP_Cipher(junk)", y, API_CIPHER, 0, rec, rec, rl, 1, &ol);
		free(rec);
		break;
	}
	case E_IV_FIXED: {
		static const int v[] = { 0, 3, 4, 5, 8, 9, 12, -1 };

		L_init(t, "init(c)", x, c, NULL, NULL, (int)(e->ivsel & 1));
		snprintf(w, sizeof(w), "SET_IVLEN(%zu)", e->ivsel >> 1);
		L_ctrl(t, w, x, EVP_CTRL_AEAD_SET_IVLEN, (int)(e->ivsel >> 1), NULL, 0, 0);
		L_init(t, "init(key)", x, NULL, e->key, NULL, -1);
		for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
			/*
             * OpenSSL 3.0 computes ivlen - len unsigned: a fixed part longer
             * than the IV asks RAND for ~2^64 bytes on an encrypting
             * context. Not a shape any caller uses; stay within the IV.
             */
			if (v[i] > (int)(e->ivsel >> 1))
				continue;
			snprintf(w, sizeof(w), "SET_IV_FIXED(%d)", v[i]);
			L_ctrl(t, w, x, EVP_CTRL_GCM_SET_IV_FIXED, v[i], (void *)e->iv, 0, 0);
		}
		/* the full IV was set last: generation is deterministic now */
		L_ctrl(t, "IV_GEN(8)", x, EVP_CTRL_GCM_IV_GEN, 8, buf, 8, 0);
		L_ctrl(t, "IV_GEN(-1)", x, EVP_CTRL_GCM_IV_GEN, -1, buf, e->ivsel >> 1, 0);
		break;
	}
	case E_IVGEN_INV:
		L_init(t, "enc.init(c,key)", x, c, e->key, NULL, 1);
		L_ctrl(t, "enc.IV_GEN-before-fixed", x, EVP_CTRL_GCM_IV_GEN, 8, buf, 8, 1);
		L_ctrl(t, "enc.SET_IV_INV", x, EVP_CTRL_GCM_SET_IV_INV, 8, (void *)e->iv, 0, 0);
		L_ctrl(t, "enc.SET_IV_FIXED(-1)", x, EVP_CTRL_GCM_SET_IV_FIXED, -1, (void *)e->iv,
		       0, 0);
		L_ctrl(t, "enc.SET_IV_INV-after-fixed", x, EVP_CTRL_GCM_SET_IV_INV, 8,
		       (void *)e->iv, 0, 0);
		L_ctrl(t, "enc.IV_GEN(4)", x, EVP_CTRL_GCM_IV_GEN, 4, buf, 4, 0);
		L_ctrl(t, "enc.IV_GEN(0)", x, EVP_CTRL_GCM_IV_GEN, 0, buf, 12, 0);
		L_ctrl(t, "enc.IV_GEN(13)", x, EVP_CTRL_GCM_IV_GEN, 13, buf, 12, 0);
		y = EVP_CIPHER_CTX_new();
		L_init(t, "dec.init(c,key)", y, c, e->key, NULL, 0);
		L_ctrl(t, "dec.SET_IV_INV-before-fixed", y, EVP_CTRL_GCM_SET_IV_INV, 8,
		       (void *)e->iv, 0, 0);
		L_ctrl(t, "dec.SET_IV_FIXED(4)", y, EVP_CTRL_GCM_SET_IV_FIXED, 4, (void *)e->iv, 0,
		       0);
		L_ctrl(t, "dec.SET_IV_INV(8)", y, EVP_CTRL_GCM_SET_IV_INV, 8, (void *)(e->iv + 4),
		       0, 0);
		L_ctrl(t, "dec.IV_GEN(8)", y, EVP_CTRL_GCM_IV_GEN, 8, buf, 8, 0);
		L_ctrl(t, "dec.SET_IV_INV(-1)", y, EVP_CTRL_GCM_SET_IV_INV, -1, (void *)e->iv, 0,
		       0);
		break;
	case E_KEYLEN: {
		static const int v[] = { 16, 24, 32, 20, 0 };
		size_t kl = 20;

		L_init(t, "init(c)", x, c, NULL, NULL, 1);
		for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
			snprintf(w, sizeof(w), "set_key_length(%d)", v[i]);
			tr_log(t, w, EVP_CIPHER_CTX_set_key_length(x, v[i]), -1, NULL, 0, 0);
		}
		log_size_param(t, "", x, OSSL_CIPHER_PARAM_KEYLEN);
		p[0] = OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_KEYLEN, &kl);
		p[1] = OSSL_PARAM_construct_end();
		L_set_params(t, "set_params(keylen=20)", x, p);
		L_init(t, "init(key,iv)", x, NULL, e->key, e->iv, -1);
		msg_run(t, x, 1, &m, "msg.");
		break;
	}
	case E_SMALL_IV_BUF:
		L_init(t, "init(c)", x, c, NULL, NULL, 1);
		log_octet_param(t, "no-iv.", x, OSSL_CIPHER_PARAM_IV, IV_BUF);
		log_iv_generated(t, x, "no-iv.");
		snprintf(w, sizeof(w), "SET_IVLEN(%zu)", e->ivsel);
		L_ctrl(t, w, x, EVP_CTRL_AEAD_SET_IVLEN, (int)e->ivsel, NULL, 0, 0);
		L_init(t, "init(key,iv)", x, NULL, e->key, e->iv, -1);
		log_octet_param(t, "", x, OSSL_CIPHER_PARAM_IV, 4);
		log_octet_param(t, "", x, OSSL_CIPHER_PARAM_UPDATED_IV, 4);
		log_octet_param(t, "", x, OSSL_CIPHER_PARAM_IV, e->ivsel);
		log_octet_param(t, "", x, OSSL_CIPHER_PARAM_IV, e->ivsel - 1);
		r = EVP_CIPHER_CTX_get_original_iv(x, buf, 4);
		tr_log(t, "get_original_iv(4)", r, -1, NULL, 0, 0);
		r = EVP_CIPHER_CTX_get_updated_iv(x, buf, e->ivsel);
		tr_log(t, "get_updated_iv(ivlen)", r, -1, buf, e->ivsel, 0);
		msg_run(t, x, 1, &m, "msg.");
		log_octet_param(t, "after.", x, OSSL_CIPHER_PARAM_UPDATED_IV, IV_BUF);
		break;
	case E_PARAM_TYPES: {
		char s12[] = "12";
		int i16 = 16;
		size_t z = 16;

		L_init(t, "init(c,key)", x, c, e->key, NULL, (int)(e->ivsel & 1));
		p[0] = OSSL_PARAM_construct_utf8_string(OSSL_CIPHER_PARAM_AEAD_IVLEN, s12, 0);
		p[1] = OSSL_PARAM_construct_end();
		L_set_params(t, "set(ivlen as utf8)", x, p);
		p[0] = OSSL_PARAM_construct_int(OSSL_CIPHER_PARAM_AEAD_IVLEN, &i16);
		L_set_params(t, "set(ivlen as int)", x, p);
		log_size_param(t, "", x, OSSL_CIPHER_PARAM_IVLEN);
		p[0] = OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_TAG, &z);
		L_set_params(t, "set(tag as size_t)", x, p);
		p[0] = OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_TLS1_AAD, &z);
		L_set_params(t, "set(tls1-aad as size_t)", x, p);
		p[0] = OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_TLS1_IV_FIXED, &z);
		L_set_params(t, "set(tls1-iv-fixed as size_t)", x, p);
		p[0] = OSSL_PARAM_construct_size_t("eip93-diff-unknown", &z);
		L_set_params(t, "set(unknown name)", x, p);
		p[0] = OSSL_PARAM_construct_end();
		L_set_params(t, "set(empty list)", x, p);
		tr_log(t, "set(NULL)", EVP_CIPHER_CTX_set_params(x, NULL), -1, NULL, 0, 0);
		p[0] = OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, &z);
		p[1] = OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, tag2, 0);
		p[2] = OSSL_PARAM_construct_end();
		L_set_params(t, "set(ivlen + empty tag)", x, p);
		log_size_param(t, "", x, OSSL_CIPHER_PARAM_IVLEN);
		L_init(t, "init(iv)", x, NULL, NULL, e->iv, -1);
		m.untrusted = !(e->ivsel & 1);
		msg_run(t, x, (int)(e->ivsel & 1), &m, "msg.");
		break;
	}
	case E_ONESHOT_NO_TAG:
		L_init(t, "init", x, c, e->key, e->iv, 0);
		m.api = API_CIPHER;
		m.in = e->junk;
		m.set_tag = 0;
		m.untrusted = 1;
		msg_run(t, x, 0, &m, "first.");
		L_ctrl(t, "SET_TAG", x, EVP_CTRL_AEAD_SET_TAG, 16, e->junk, 0, 0);
		L_final(t, "EVP_Cipher-final-with-tag", x, API_CIPHER, 0);
		break;
	case E_COPY_EARLY: {
		EVP_CIPHER_CTX *z = EVP_CIPHER_CTX_new(), *zz = EVP_CIPHER_CTX_new();

		tr_log(t, "copy(no cipher)", EVP_CIPHER_CTX_copy(zz, z), -1, NULL, 0, 0);
		L_init(t, "init(c)", x, c, NULL, NULL, 1);
		y = EVP_CIPHER_CTX_new();
		tr_log(t, "copy(no key)", EVP_CIPHER_CTX_copy(y, x), -1, NULL, 0, 0);
		L_init(t, "copy.init(key,iv)", y, NULL, e->key, e->iv, -1);
		msg_run(t, y, 1, &m, "copy.");
		L_init(t, "orig.init(key2,iv)", x, NULL, e->key2, e->iv, -1);
		m.out = ct;
		m.tag = tag2;
		msg_run(t, x, 1, &m, "orig.");
		EVP_CIPHER_CTX_free(z);
		EVP_CIPHER_CTX_free(zz);
		break;
	}
	case E_IV_REUSE:
		L_init(t, "init", x, c, e->key, e->iv, 1);
		msg_run(t, x, 1, &m, "first.");
		L_init(t, "init(nothing)", x, NULL, NULL, NULL, -1);
		L_update(t, "data-same-iv", x, API_UPDATE, 1, out, e->pt, e->len, 0, &ol);
		L_init(t, "init(key only)", x, NULL, e->key2, NULL, -1);
		L_update(t, "data-key-only", x, API_UPDATE, 1, out, e->pt, e->len, 0, &ol);
		L_final(t, "final", x, API_UPDATE, 1);
		L_init(t, "init(iv)", x, NULL, NULL, e->iv, -1);
		msg_run(t, x, 1, &m, "second.");
		break;
	case E_NULL_IN:
		L_init(t, "init", x, c, e->key, e->iv, (int)(e->ivsel & 1));
		L_update(t, "update(out,NULL,0)", x, API_UPDATE, 1, out, NULL, 0, 0, &ol);
		L_update(t, "update(NULL,NULL,0)", x, API_UPDATE, 1, NULL, NULL, 0, 0, &ol);
		m.untrusted = !(e->ivsel & 1);
		m.set_tag = 1;
		m.tag = e->junk;
		msg_run(t, x, (int)(e->ivsel & 1), &m, "msg.");
		break;
	case E_ENGINE_DEC_AFTER_FINAL:
		/* Tag before the data (engine-eligible), then data after final. */
		L_init(t, "enc.init", x, c, e->key, e->iv, 1);
		m.out = ct;
		msg_run(t, x, 1, &m, "enc.");
		y = EVP_CIPHER_CTX_new();
		L_init(t, "dec.init", y, c, e->key, e->iv, 0);
		L_ctrl(t, "dec.SET_TAG(16)", y, EVP_CTRL_AEAD_SET_TAG, 16, tag, 0, 0);
		L_update(t, "dec.aad", y, API_UPDATE, 0, NULL, e->aad, e->aadlen, 0, &ol);
		L_update(t, "dec.data", y, API_UPDATE, 0, out, ct, e->len, 1, &ol);
		L_final(t, "dec.final", y, API_UPDATE, 0);
		L_update(t, "dec.data-after-final", y, API_UPDATE, 0, out, ct, e->len, 1, &ol);
		L_final(t, "dec.final-again", y, API_UPDATE, 0);
		break;
	case E_FAILED_REKEY:
		/* An init that fails on a parameter after taking a new key. */
		L_init(t, "init(key)", x, c, e->key, e->iv, 1);
		m.out = ct;
		msg_run(t, x, 1, &m, "msg1.");
		p[0] = OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, tag2, 16);
		p[1] = OSSL_PARAM_construct_end();
		r = EVP_EncryptInit_ex2(x, NULL, e->key2, e->iv, p);
		tr_log(t, "init(key2,iv,tag param)", r, -1, NULL, 0, 0);
		L_init(t, "init(iv)", x, NULL, NULL, e->iv + 12, 1);
		m.out = out;
		msg_run(t, x, 1, &m, "msg2.");
		break;
	case E_TLS_FIXED_THEN_IV: {
		/* A TLS fixed IV, then a whole IV: the record takes the new one. */
		size_t rl = e->len + TLS_EIV + TLS_TAG;
		unsigned char *rec = xmalloc(rl);
		unsigned char hdr[TLS12_AAD];

		memcpy(rec, e->junk, rl);
		memcpy(hdr, e->junk, sizeof(hdr));
		put_be16(hdr + 11, e->len + TLS_EIV);
		L_init(t, "init(c,key)", x, c, e->key, NULL, 1);
		L_ctrl(t, "SET_IV_FIXED(4)", x, EVP_CTRL_GCM_SET_IV_FIXED, 4, (void *)e->aad, 0, 0);
		L_init(t, "init(iv)", x, NULL, NULL, e->iv, 1);
		L_ctrl(t, "TLS1_AAD", x, EVP_CTRL_AEAD_TLS1_AAD, 13, hdr, 0, 0);
		L_update(t, "record", x, API_CIPHER, 1, rec, rec, rl, 0, &ol);
		free(rec);
		break;
	}
	case E_DEC_FINAL_TWICE:
	default:
		L_init(t, "enc.init", x, c, e->key, e->iv, 1);
		m.out = ct;
		msg_run(t, x, 1, &m, "enc.");
		y = EVP_CIPHER_CTX_new();
		L_init(t, "dec.init", y, c, e->key, e->iv, 0);
		m.in = ct;
		m.out = out;
		msg_run(t, y, 0, &m, "dec.");
		L_final(t, "dec.final-again", y, API_UPDATE, 0);
		L_ctrl(t, "dec.GET_TAG", y, EVP_CTRL_AEAD_GET_TAG, 16, tag2, 16, 0);
		break;
	}
	EVP_CIPHER_CTX_free(x);
	EVP_CIPHER_CTX_free(y);
	free(out);
	free(ct);
}

void case_errors(struct harness *h, struct rng *r)
{
	struct eshape e;

	memset(&e, 0, sizeof(e));
	e.id = (enum escript)rng_below(r, E_N);
	e.kidx = (int)rng_below(r, 3);
	rng_fill(r, e.key, sizeof(e.key));
	rng_fill(r, e.key2, sizeof(e.key2));
	rng_fill(r, e.iv, sizeof(e.iv));
	e.aadlen = rng_range(r, 7, sizeof(e.aad));
	rng_fill(r, e.aad, sizeof(e.aad));
	e.len = rng_pct(r, 25) ? rng_range(r, ENGINE_MIN, ENGINE_MAX) : rng_range(r, 0, 600);
	if (e.id == E_ENGINE_DEC_AFTER_FINAL || e.id == E_FAILED_REKEY ||
	    e.id == E_TLS_FIXED_THEN_IV)
		e.len = rng_range(r, ENGINE_MIN, ENGINE_MAX);
	switch (e.id) {
	case E_IVLEN: {
		static const size_t v[] = { 12, 12, 1, 64, 128 };

		e.ivsel = v[rng_below(r, sizeof(v) / sizeof(v[0]))];
		break;
	}
	case E_IV_FIXED: {
		static const size_t v[] = { 12, 16, 8 };

		/* low bit: direction; the rest: IV length */
		e.ivsel = (v[rng_below(r, 3)] << 1) | rng_below(r, 2);
		break;
	}
	case E_SMALL_IV_BUF:
		e.ivsel = rng_pct(r, 50) ? 12 : rng_range(r, 5, MAX_IV);
		break;
	default:
		e.ivsel = rng_below(r, 2);
		break;
	}
	e.pt = xmalloc(e.len);
	e.junk = xmalloc(e.len + TLS_EIV + TLS_TAG + 64);
	rng_fill(r, e.pt, e.len);
	rng_fill(r, e.junk, e.len + TLS_EIV + TLS_TAG + 64);
	shape_add(h, "%s script=%s key=", cipher_names[e.kidx], escript_names[e.id]);
	shape_hex(h, e.key, key_lens[e.kidx]);
	shape_add(h, " iv=");
	shape_hex(h, e.iv, 16);
	shape_add(h, "... aad=%zu data=%zu param=%zu", e.aadlen, e.len, e.ivsel);
	tr_reset(&h->ta);
	tr_reset(&h->tb);
	err_script(&e, h->test.c[e.kidx], &h->ta);
	err_script(&e, h->ref.c[e.kidx], &h->tb);
	compare_tr(h, escript_names[e.id], &h->ta, h->test.label, &h->tb, h->ref.label);
	h->st.messages++;
	h->st.bytes += e.len;
	free(e.pt);
	free(e.junk);
}
