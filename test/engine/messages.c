// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-engine-check: messages with the default provider's answer, and
 * encrypting and decrypting them through eip93, compared with it.
 */
#include "engine_check.h"

#include <string.h>

#include <openssl/err.h>

/* ---- messages -------------------------------------------------------------- */

static uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void rng_fill(uint64_t *s, unsigned char *p, size_t n)
{
	while (n > 0) {
		uint64_t v = rng_next(s);
		size_t k = n < sizeof(v) ? n : sizeof(v);

		memcpy(p, &v, k);
		p += k;
		n -= k;
	}
}

/* A new IV and payload (and, with @new_key, a new key of size @ks). */
int msg_make(struct msg *m, uint64_t *rng, int ks, size_t len, int new_key)
{
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
	int ok, n = 0;

	if (new_key) {
		m->ks = ks;
		rng_fill(rng, m->key, sizeof(m->key));
	}
	m->len = len;
	rng_fill(rng, m->iv, sizeof(m->iv));
	rng_fill(rng, m->aad, sizeof(m->aad));
	rng_fill(rng, m->pt, len);
	ok = c != NULL && EVP_EncryptInit_ex2(c, c_ref[m->ks], m->key, m->iv, NULL) &&
	     EVP_EncryptUpdate(c, NULL, &n, m->aad, AADLEN) &&
	     EVP_EncryptUpdate(c, m->ct, &n, m->pt, (int)len) && (size_t)n == len &&
	     EVP_EncryptFinal_ex(c, m->ct + len, &n) &&
	     EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_GET_TAG, TAGLEN, m->tag) > 0;
	EVP_CIPHER_CTX_free(c);
	return ok;
}

/*
 * Encrypt @m through eip93 (with its key when @with_key, else only a new
 * IV) and compare ciphertext and tag with the default provider's.
 */
int eng_encrypt(EVP_CIPHER_CTX *c, const struct msg *m, int with_key)
{
	unsigned char out[MSG_MAX + 16], tag[TAGLEN];
	int n = 0, f = 0;

	if (!EVP_EncryptInit_ex2(c, with_key ? c_test[m->ks] : NULL, with_key ? m->key : NULL,
				 m->iv, NULL) ||
	    !EVP_EncryptUpdate(c, NULL, &n, m->aad, AADLEN) ||
	    !EVP_EncryptUpdate(c, out, &n, m->pt, (int)m->len) || (size_t)n != m->len ||
	    !EVP_EncryptFinal_ex(c, out + n, &f) || f != 0 ||
	    EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_GET_TAG, TAGLEN, tag) <= 0) {
		ERR_clear_error();
		return 0;
	}
	return memcmp(out, m->ct, m->len) == 0 && memcmp(tag, m->tag, TAGLEN) == 0;
}

/* Decrypt @m's ciphertext (tag set before the data) and compare the plaintext. */
int eng_decrypt(EVP_CIPHER_CTX *c, const struct msg *m, int with_key)
{
	unsigned char out[MSG_MAX + 16];
	int n = 0, f = 0;

	if (!EVP_DecryptInit_ex2(c, with_key ? c_test[m->ks] : NULL, with_key ? m->key : NULL,
				 m->iv, NULL) ||
	    EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_TAG, TAGLEN, (void *)m->tag) <= 0 ||
	    !EVP_DecryptUpdate(c, NULL, &n, m->aad, AADLEN) ||
	    !EVP_DecryptUpdate(c, out, &n, m->ct, (int)m->len) || (size_t)n != m->len ||
	    !EVP_DecryptFinal_ex(c, out + n, &f) || f != 0) {
		ERR_clear_error();
		return 0;
	}
	return memcmp(out, m->pt, m->len) == 0;
}

/* Encrypt then decrypt @m on one context: two messages. */
int roundtrip(EVP_CIPHER_CTX *c, const struct msg *m, int with_key)
{
	int a = eng_encrypt(c, m, with_key);
	int b = eng_decrypt(c, m, 0);

	return a && b;
}
