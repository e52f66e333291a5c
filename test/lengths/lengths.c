// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-lengths: AES-GCM through eip93 against the default provider of the
 * same libcrypto, for every message length in a range (0-70,000 by
 * default): each length sealed by both (ciphertext and tag must be the
 * same), opened by eip93 (the plaintext back, the final accepted), and
 * every 101st opened with a flipped tag bit (both must refuse).  Even
 * lengths use AES-128-GCM, odd AES-256-GCM; the AAD is 13 bytes (a TLS 1.2
 * record's), none or 20 bytes by length; the buffers start at offset 13 of
 * an allocation every third length (a TLS payload's offset).
 *
 *   eip93-lengths [--from N] [--to N] [--min-engine-share P] [--expect-gate TEXT]
 *
 * Prints eip93's gate status (the composition it bound) and its counters,
 * and fails unless at least P percent (default 90) of the seals and opens
 * whose length lies in eip93's window were engine messages, and, with
 * --expect-gate, unless the gate status contains TEXT.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#define TAGLEN 16
#define IVLEN 12
#define WIN_MIN 16    /* the test's openssl.cnf: min-size = 16 */
#define WIN_MAX 65536 /* max-size = 65536 */

static int aead(EVP_CIPHER *c, int enc, const unsigned char *key, const unsigned char *iv,
		const unsigned char *aad, size_t aadlen, const unsigned char *in, size_t len,
		unsigned char *out, unsigned char *tag)
{
	EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
	int n = 0, f = 0, ok;

	ok = x != NULL && EVP_CipherInit_ex2(x, c, key, iv, enc, NULL) &&
	     (aadlen == 0 || EVP_CipherUpdate(x, NULL, &n, aad, (int)aadlen)) &&
	     (enc || EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_TAG, TAGLEN, tag)) &&
	     EVP_CipherUpdate(x, out, &n, in, (int)len);
	ok = ok && EVP_CipherFinal_ex(x, out + n, &f) && (size_t)n + (size_t)f == len;
	if (ok && enc)
		ok = EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_GET_TAG, TAGLEN, tag);
	EVP_CIPHER_CTX_free(x);
	ERR_clear_error();
	return ok;
}

static uint64_t counter(OSSL_PROVIDER *p, const char *name)
{
	uint64_t v = 0;
	OSSL_PARAM q[2] = { OSSL_PARAM_construct_uint64(name, &v), OSSL_PARAM_construct_end() };

	return OSSL_PROVIDER_get_params(p, q) ? v : UINT64_MAX;
}

static const char *text(OSSL_PROVIDER *p, const char *name)
{
	char *v = NULL;
	OSSL_PARAM q[2] = { OSSL_PARAM_construct_utf8_ptr(name, &v, 0),
			    OSSL_PARAM_construct_end() };

	return OSSL_PROVIDER_get_params(p, q) && v != NULL ? v : "?";
}

int main(int argc, char **argv)
{
	size_t from = 0, to = 70000, share = 90, inwin = 0, bad = 0;
	const char *expect_gate = NULL;
	unsigned char key[32], iv[IVLEN], aad[20], t1[TAGLEN], t2[TAGLEN];
	unsigned char *pt, *ct1, *ct2, *back;
	EVP_CIPHER *e[2], *d[2];
	OSSL_PROVIDER *p;
	uint64_t em0, em1;

	for (int i = 1; i + 1 < argc; i += 2) {
		size_t v = strtoul(argv[i + 1], NULL, 10);

		if (strcmp(argv[i], "--expect-gate") == 0)
			expect_gate = argv[i + 1];
		else if (strcmp(argv[i], "--from") == 0)
			from = v;
		else if (strcmp(argv[i], "--to") == 0)
			to = v;
		else if (strcmp(argv[i], "--min-engine-share") == 0)
			share = v;
		else {
			fprintf(stderr, "eip93-lengths: unknown option %s\n", argv[i]);
			return 2;
		}
	}
	p = OSSL_PROVIDER_load(NULL, "eip93");
	e[0] = EVP_CIPHER_fetch(NULL, "AES-128-GCM", "provider=eip93");
	e[1] = EVP_CIPHER_fetch(NULL, "AES-256-GCM", "provider=eip93");
	d[0] = EVP_CIPHER_fetch(NULL, "AES-128-GCM", "provider=default");
	d[1] = EVP_CIPHER_fetch(NULL, "AES-256-GCM", "provider=default");
	pt = malloc(to + 16);
	ct1 = malloc(to + 16);
	ct2 = malloc(to + 16);
	back = malloc(to + 16);
	if (p == NULL || !e[0] || !e[1] || !d[0] || !d[1] || !pt || !ct1 || !ct2 || !back) {
		fprintf(stderr, "FAIL: eip93 or the default provider's AES-GCM not available\n");
		ERR_print_errors_fp(stderr);
		free(pt);
		free(ct1);
		free(ct2);
		free(back);
		return 1;
	}
	for (size_t i = 0; i < sizeof(key); i++)
		key[i] = (unsigned char)(i * 13 + 7);
	for (size_t i = 0; i < sizeof(aad); i++)
		aad[i] = (unsigned char)(0x17 + i);
	for (size_t i = 0; i < to + 16; i++)
		pt[i] = (unsigned char)(i * 31 + (i >> 9));
	em0 = counter(p, "eip93-engine-messages");
	for (size_t len = from; len <= to; len++) {
		int k = (int)(len & 1), off = len % 3 == 0 ? 13 : 0;
		size_t aadlen = len % 5 == 0 ? 0 : len % 5 == 1 ? 20 : 13;
		unsigned char *c1 = ct1 + off, *c2 = ct2 + off, *b = back + off;

		memcpy(iv, &len, sizeof(len) < IVLEN ? sizeof(len) : IVLEN);
		memset(iv + sizeof(len), 0xa5, IVLEN - sizeof(len));
		if (!aead(e[k], 1, key, iv, aad, aadlen, pt + off, len, c1, t1) ||
		    !aead(d[k], 1, key, iv, aad, aadlen, pt + off, len, c2, t2) ||
		    memcmp(c1, c2, len) != 0 || memcmp(t1, t2, TAGLEN) != 0 ||
		    !aead(e[k], 0, key, iv, aad, aadlen, c2, len, b, t2) ||
		    memcmp(b, pt + off, len) != 0) {
			printf("FAIL: length %zu (AES-%d-GCM, AAD %zu, offset %d)\n", len,
			       k ? 256 : 128, aadlen, off);
			if (++bad >= 10)
				break;
			continue;
		}
		if (len >= WIN_MIN && len <= WIN_MAX)
			inwin += 2;
		if (len % 101 == 0) {
			t2[len % TAGLEN] ^= 0x40;
			if (aead(e[k], 0, key, iv, aad, aadlen, c2, len, b, t2) ||
			    aead(d[k], 0, key, iv, aad, aadlen, c2, len, b, t2)) {
				printf("FAIL: length %zu: a wrong tag accepted\n", len);
				bad++;
			}
		}
	}
	em1 = counter(p, "eip93-engine-messages");
	printf("eip93-lengths: %s; engine %s; gate: %s\n", OpenSSL_version(OPENSSL_VERSION),
	       text(p, "eip93-backend"), text(p, "eip93-gate"));
	printf("eip93-lengths: lengths %zu-%zu, %zu failed; in eip93's window %zu seals and opens,"
	       " %llu engine messages; engine errors %llu, faults %llu\n",
	       from, to, bad, inwin, (unsigned long long)(em1 - em0),
	       (unsigned long long)counter(p, "eip93-engine-errors"),
	       (unsigned long long)counter(p, "eip93-engine-faults"));
	if (expect_gate != NULL && strstr(text(p, "eip93-gate"), expect_gate) == NULL) {
		printf("FAIL: the gate status does not contain \"%s\"\n", expect_gate);
		bad++;
	}
	if (bad == 0 && (em1 - em0) * 100 < (uint64_t)inwin * share) {
		printf("FAIL: fewer than %zu%% of them reached the engine\n", share);
		bad++;
	}
	for (int k = 0; k < 2; k++) {
		EVP_CIPHER_free(e[k]);
		EVP_CIPHER_free(d[k]);
	}
	free(pt);
	free(ct1);
	free(ct2);
	free(back);
	OSSL_PROVIDER_unload(p);
	return bad == 0 ? 0 : 1;
}
