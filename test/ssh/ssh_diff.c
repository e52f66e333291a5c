// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-ssh-diff: OpenSSH's AES-GCM call shape (cipher.c), byte for byte,
 * eip93 against the default provider.  Per direction one context:
 *   EVP_CipherInit(type, NULL, iv, enc); ctrl(SET_IV_FIXED, -1, iv);
 *   EVP_CipherInit(NULL, key, NULL, -1);
 * per packet:
 *   ctrl(IV_GEN, 1, lastiv); [decrypt: ctrl(SET_TAG, 16, tag)]
 *   EVP_Cipher(NULL, len4, 4); EVP_Cipher(out, in, n); EVP_Cipher(NULL, NULL, 0);
 *   [encrypt: ctrl(GET_TAG, 16, tag)]
 * Scripts (random sizes 16..36000, so that packets cross the engine window
 * both ways): plain streams; a decrypt with a corrupted tag in the middle
 * (then IV_GEN must go on as before); misuse in the middle: SET_IV_INV on an
 * encrypting context, IV_GEN with odd lengths, a second IV_GEN before the
 * data (IV_INV-style).  Every return code, output byte, tag and IV_GEN output
 * must be the same on both; the decrypt side must return the plaintext.
 * With EIP93_TEST_FAULT set (hooks build) engine calls fail on purpose and
 * messages are replayed in software: the bytes must not change.
 * Usage: eip93-ssh-diff [--seed N] [--packets N] [--require-engine]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#define MAXP 36000
#define TAG 16

struct side {
	EVP_CIPHER_CTX *enc, *dec;
};

static uint64_t rng;
static unsigned int rnd(unsigned int n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned int)(rng % n);
}

static int fails;
#define SAME(what, a, b)                                                                           \
	do {                                                                                       \
		if ((a) != (b)) {                                                                  \
			printf("DIFF packet %d: %s: eip93 %d, default %d\n", pk, what, (int)(a),   \
			       (int)(b));                                                          \
			fails++;                                                                   \
		}                                                                                  \
	} while (0)

#define MUST(what, cond)                                                                           \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			printf("DIFF packet %d: %s\n", pk, what);                                  \
			fails++;                                                                   \
		}                                                                                  \
	} while (0)

static int setup(EVP_CIPHER_CTX **c, const EVP_CIPHER *type, const unsigned char *key,
		 const unsigned char *iv, int enc)
{
	*c = EVP_CIPHER_CTX_new();
	return *c != NULL && EVP_CipherInit(*c, type, NULL, iv, enc) == 1 &&
	       EVP_CIPHER_CTX_ctrl(*c, EVP_CTRL_GCM_SET_IV_FIXED, -1, (void *)iv) == 1 &&
	       EVP_CipherInit(*c, NULL, key, NULL, -1) == 1;
}

/* One OpenSSH packet; returns a bitmask of the calls' results for comparison. */
static int packet(EVP_CIPHER_CTX *c, int enc, const unsigned char *in, size_t n, unsigned char *out,
		  unsigned char *tag, unsigned char *lastiv)
{
	static const unsigned char len4[4] = { 0, 0, 0x80, 0x10 };
	int r = 0;

	r |= (EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_IV_GEN, 1, lastiv) == 1) << 0;
	if (!enc)
		r |= (EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_TAG, TAG, tag) == 1) << 1;
	r |= (EVP_Cipher(c, NULL, len4, 4) >= 0) << 2;
	r |= (EVP_Cipher(c, out, in, (unsigned int)n) >= 0) << 3;
	r |= (EVP_Cipher(c, NULL, NULL, 0) >= 0) << 4;
	if (enc)
		r |= (EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_GET_TAG, TAG, tag) == 1) << 5;
	return r;
}

/* Misuse between packets, on both sides alike; returns the results' bitmask. */
static int misuse(EVP_CIPHER_CTX *c, int kind)
{
	unsigned char b[16] = { 0 };

	switch (kind) {
	case 0: /* IV_INV on an encrypting context (TLS's decrypt-side call) */
		return EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_IV_INV, 8, b) == 1;
	case 1: /* IV_GEN with an odd output length */
		return EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_IV_GEN, 5, b) == 1;
	case 2: /* IV_GEN with a length beyond the IV */
		return EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_IV_GEN, 13, b) == 1;
	default: /* a second IV_GEN before any data: the IV moves on */
		return EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_IV_GEN, 1, b) == 1;
	}
}

static uint64_t counter(OSSL_PROVIDER *p, const char *name)
{
	uint64_t v = 0;
	OSSL_PARAM q[2] = { OSSL_PARAM_construct_uint64(name, &v), OSSL_PARAM_construct_end() };

	return OSSL_PROVIDER_get_params(p, q) ? v : 0;
}

static uint64_t engine_messages(OSSL_PROVIDER *p)
{
	return counter(p, "eip93-engine-messages");
}

int main(int argc, char **argv)
{
	static unsigned char pt[MAXP], ce[MAXP], cd[MAXP], be[MAXP], bd[MAXP];
	unsigned long seed = 1;
	int packets = 300, require = 0, require_ahead = 0, pk = 0;
	OSSL_PROVIDER *prov;
	uint64_t e0, a0;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
			seed = strtoul(argv[++i], NULL, 0);
		else if (strcmp(argv[i], "--packets") == 0 && i + 1 < argc)
			packets = atoi(argv[++i]);
		else if (strcmp(argv[i], "--require-engine") == 0)
			require = 1;
		else if (strcmp(argv[i], "--require-ahead") == 0)
			require_ahead = 1; /* IV_GEN's +1 nonces: keystream computed ahead */
		else {
			fprintf(stderr,
				"usage: %s [--seed N] [--packets N] [--require-engine] "
				"[--require-ahead]\n",
				argv[0]);
			return 2;
		}
	}
	rng = seed * 0x9e3779b97f4a7c15ULL + 1;
	prov = OSSL_PROVIDER_load(NULL, "eip93");
	if (prov == NULL || OSSL_PROVIDER_load(NULL, "default") == NULL) {
		fprintf(stderr, "ssh-diff: cannot load eip93 and default\n");
		return 1;
	}
	e0 = engine_messages(prov);
	a0 = counter(prov, "eip93-keystream-ahead-used");
	printf("ssh-diff: seed %lu, %d packets per script\n", seed, packets);
	for (int script = 0; script < 6; script++) {
		const char *name = script % 3 == 0   ? "stream"
				   : script % 3 == 1 ? "bad tag"
						     : "misuse";
		const char *cipher = script < 3 ? "AES-128-GCM" : "AES-256-GCM";
		EVP_CIPHER *te = EVP_CIPHER_fetch(NULL, cipher, "provider=eip93");
		EVP_CIPHER *td = EVP_CIPHER_fetch(NULL, cipher, "provider=default");
		unsigned char key[32], iv[12];
		struct side x, d;

		if (te == NULL || td == NULL) {
			printf("FAIL: cannot fetch %s from eip93 (gate closed?) and default\n",
			       cipher);
			return 1;
		}
		for (size_t i = 0; i < sizeof(key); i++)
			key[i] = (unsigned char)rnd(256);
		for (size_t i = 0; i < sizeof(iv); i++)
			iv[i] = (unsigned char)rnd(256);
		iv[11] = 0xfe; /* the counter wraps a byte early */
		if (!setup(&x.enc, te, key, iv, 1) || !setup(&x.dec, te, key, iv, 0) ||
		    !setup(&d.enc, td, key, iv, 1) || !setup(&d.dec, td, key, iv, 0)) {
			printf("FAIL: %s %s: setup\n", cipher, name);
			return 1;
		}
		for (pk = 0; pk < packets; pk++) {
			size_t n = rnd(4) == 0 ? 16 * (1 + rnd(64))
					       : 4096 + 16 * rnd((MAXP - 4096) / 16);
			unsigned char tx[TAG], td_[TAG], ivx[16] = { 0 }, ivd[16] = { 0 };
			int rx, rd, bad = script % 3 == 1 && pk % 7 == 3;

			for (size_t i = 0; i < n; i++)
				pt[i] = (unsigned char)rnd(256);
			if (script % 3 == 2 && pk % 5 == 2) {
				int k = (int)rnd(4);

				SAME("misuse (encrypt side)", misuse(x.enc, k), misuse(d.enc, k));
				SAME("misuse (decrypt side)", misuse(x.dec, k), misuse(d.dec, k));
			}
			rx = packet(x.enc, 1, pt, n, ce, tx, ivx);
			rd = packet(d.enc, 1, pt, n, cd, td_, ivd);
			SAME("encrypt calls", rx, rd);
			SAME("encrypt IV_GEN output", ivx[0], ivd[0]);
			MUST("ciphertext", memcmp(ce, cd, n) == 0);
			MUST("tag", memcmp(tx, td_, TAG) == 0);
			if (bad)
				tx[pk % TAG] ^= 0x40, td_[pk % TAG] ^= 0x40;
			rx = packet(x.dec, 0, ce, n, be, tx, ivx);
			rd = packet(d.dec, 0, cd, n, bd, td_, ivd);
			SAME("decrypt calls", rx, rd);
			SAME("decrypt IV_GEN output", ivx[0], ivd[0]);
			/* Whatever the decrypt side wrote, both must have written the same. */
			MUST("decrypt output", memcmp(be, bd, n) == 0);
			if (bad)
				MUST("bad tag refused", ((rx >> 4) & 1) == 0);
			else if (script % 3 != 2) /* misuse may desynchronise both IVs alike */
				MUST("plaintext", memcmp(be, pt, n) == 0);
		}
		printf("ssh-diff: %s %s: %d packets, %d divergences so far\n", cipher, name,
		       packets, fails);
		EVP_CIPHER_CTX_free(x.enc);
		EVP_CIPHER_CTX_free(x.dec);
		EVP_CIPHER_CTX_free(d.enc);
		EVP_CIPHER_CTX_free(d.dec);
		EVP_CIPHER_free(te);
		EVP_CIPHER_free(td);
	}
	printf("ssh-diff: engine messages +%llu (keystream computed ahead +%llu), %d divergences\n",
	       (unsigned long long)(engine_messages(prov) - e0),
	       (unsigned long long)(counter(prov, "eip93-keystream-ahead-used") - a0), fails);
	if (require && engine_messages(prov) == e0) {
		printf("FAIL: the engine took no message (--require-engine)\n");
		return 1;
	}
	if (require_ahead && counter(prov, "eip93-keystream-ahead-used") == a0) {
		printf("FAIL: no packet took keystream computed ahead (--require-ahead)\n");
		return 1;
	}
	return fails != 0;
}
