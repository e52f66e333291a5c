// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-integrity-check: one message on eip93 and on the default provider,
 * with the caller's buffers where the layout puts them (AAD length, page
 * offsets of input and output, in place or not), and what the caller got:
 * wrong bytes and tags, and the 16-byte blocks of the output that the engine
 * cannot have written (the input's block, or bytes that are no few-bit
 * variant of the right block, e.g. the canary the output held before).
 */
#include "integrity.h"

#include <string.h>

#include <openssl/err.h>

/* A block differing from the right one in at most this many bits is a wrong write. */
#define FEW_BITS 4

EVP_CIPHER *c_eip93, *c_dflt;

static uint64_t rng = 0x1e9e3779b97f4a7cULL;

uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

void fill(unsigned char *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		b[i] = (unsigned char)rnd();
}

/* The pattern a not-in-place output buffer holds before each message. */
static const unsigned char canary[17] = "eip93 canary :-)";

/*
 * Page-aligned areas for the caller's buffers: the input (in place: the
 * buffer) at layout.in_off, the output at layout.out_off.
 */
static _Alignas(INTEGRITY_PAGE) unsigned char in_area[INTEGRITY_MAXLEN + INTEGRITY_PAGE];
static _Alignas(INTEGRITY_PAGE) unsigned char out_area[INTEGRITY_MAXLEN + INTEGRITY_PAGE];

static size_t ndiff(const unsigned char *a, const unsigned char *b, size_t n)
{
	size_t d = 0;

	for (size_t i = 0; i < n; i++)
		d += a[i] != b[i];
	return d;
}

static unsigned int nbits(const unsigned char *a, const unsigned char *b, size_t n)
{
	unsigned int d = 0;

	for (size_t i = 0; i < n; i++)
		for (unsigned int x = (unsigned int)(a[i] ^ b[i]); x; x &= x - 1)
			d++;
	return d;
}

/* Count the blocks of @got that are neither @right nor a few-bit variant of it. */
static void classify(const unsigned char *got, const unsigned char *right,
		     const unsigned char *input, size_t len, struct outcome *o)
{
	for (size_t off = 0; off < len; off += 16) {
		size_t n = len - off < 16 ? len - off : 16;

		if (memcmp(got + off, right + off, n) == 0)
			continue;
		if (memcmp(got + off, input + off, n) == 0) {
			o->plain_blocks++;
		} else if (nbits(got + off, right + off, n) > FEW_BITS) {
			o->stale_blocks++;
			o->canary_blocks += memcmp(got + off, canary, n) == 0;
		}
	}
}

int message(struct key *k, int enc, int inplace, size_t len, const struct layout *l,
	    struct outcome *o)
{
	static unsigned char input[INTEGRITY_MAXLEN], ref[INTEGRITY_MAXLEN], tmp[INTEGRITY_MAXLEN],
		aad[INTEGRITY_MAXAAD];
	unsigned char iv[12], tag[16], rtag[16];
	unsigned char *src = in_area + l->in_off, *dst = inplace ? src : out_area + l->out_off;
	EVP_CIPHER_CTX *d = EVP_CIPHER_CTX_new();
	int n = 0, f = 0, okr, oke, alen = (int)l->aad;

	memset(o, 0, sizeof(*o));
	fill(iv, sizeof(iv));
	fill(aad, l->aad);
	fill(input, len);
	if (d == NULL)
		return -1;
	if (!enc) {
		/* A valid ciphertext to decrypt: made by the default provider. */
		if (!EVP_EncryptInit_ex2(d, c_dflt, k->key, iv, NULL) ||
		    (alen && !EVP_EncryptUpdate(d, NULL, &n, aad, alen)) ||
		    !EVP_EncryptUpdate(d, tmp, &n, input, (int)len) ||
		    !EVP_EncryptFinal_ex(d, tmp, &f) ||
		    EVP_CIPHER_CTX_ctrl(d, EVP_CTRL_AEAD_GET_TAG, 16, tag) <= 0) {
			EVP_CIPHER_CTX_free(d);
			return -1;
		}
		memcpy(input, tmp, len);
		EVP_CIPHER_CTX_reset(d);
	}
	okr = EVP_CipherInit_ex2(d, c_dflt, k->key, iv, enc, NULL) &&
	      (enc || EVP_CIPHER_CTX_ctrl(d, EVP_CTRL_AEAD_SET_TAG, 16, tag) > 0) &&
	      (!alen || EVP_CipherUpdate(d, NULL, &n, aad, alen)) &&
	      EVP_CipherUpdate(d, ref, &n, input, (int)len) && EVP_CipherFinal_ex(d, tmp, &f) &&
	      (!enc || EVP_CIPHER_CTX_ctrl(d, EVP_CTRL_AEAD_GET_TAG, 16, rtag) > 0);
	EVP_CIPHER_CTX_free(d);
	if (!okr)
		return -1;
	memcpy(src, input, len);
	if (!inplace)
		for (size_t i = 0; i < len; i += 16)
			memcpy(dst + i, canary, len - i < 16 ? len - i : 16);
	oke = EVP_CipherInit_ex2(k->c, NULL, NULL, iv, enc, NULL) &&
	      (enc || EVP_CIPHER_CTX_ctrl(k->c, EVP_CTRL_AEAD_SET_TAG, 16, tag) > 0) &&
	      (!alen || EVP_CipherUpdate(k->c, NULL, &n, aad, alen)) &&
	      EVP_CipherUpdate(k->c, dst, &n, src, (int)len) && EVP_CipherFinal_ex(k->c, tmp, &f) &&
	      (!enc || EVP_CIPHER_CTX_ctrl(k->c, EVP_CTRL_AEAD_GET_TAG, 16, tag) > 0);
	ERR_clear_error();
	if (!oke) {
		o->refused = 1; /* a valid message refused: wrong too */
		return 0;
	}
	o->wrong_bytes = ndiff(dst, ref, len);
	if (o->wrong_bytes)
		classify(dst, ref, input, len, o);
	if (enc) {
		size_t t = ndiff(tag, rtag, 16);

		o->wrong_bytes += t;
		o->wrong_tag = t != 0;
	}
	return o->wrong_bytes == 0;
}
