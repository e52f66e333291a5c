// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-offload-check: one key through the engine path, on the real gate.
 *
 * usage: eip93-offload-check [PAYLOAD-BYTES]   (default 16384)
 *
 * Run in the arm64 guest with the release eip93.so, the AN7581 device tree,
 * the CPU's AES hidden and the simulated driver loaded.  With OPENSSL_CONF
 * activating eip93 and default, it encrypts one TLS-1.3-shaped message
 * (12-byte IV, 13-byte AAD, PAYLOAD-BYTES of data, 16-byte tag) with a
 * random key through eip93 and through the default provider and requires
 * identical ciphertext and tag; decrypts it through eip93; requires a
 * corrupted tag to be refused; re-initialises the same key with a new IV for
 * a second message on one context.  The provider's counters must show key
 * checks passed (exactly one for the two messages of that one context: the
 * re-init does not re-verify), none failed, no engine error, and engine
 * messages for the eligible ones.  The counters are printed for the log.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/provider.h>
#include <openssl/rand.h>

#include "../unit/check.h"

enum { IVLEN = 12, AADLEN = 13, TAGLEN = 16, KEYLEN = 32 };

struct counters {
	uint64_t engine_messages, key_passed, key_failed, engine_errors;
};

static int read_counters(OSSL_PROVIDER *prov, struct counters *c)
{
	OSSL_PARAM p[5];

	memset(c, 0, sizeof(*c));
	p[0] = OSSL_PARAM_construct_uint64("eip93-engine-messages", &c->engine_messages);
	p[1] = OSSL_PARAM_construct_uint64("eip93-key-checks-passed", &c->key_passed);
	p[2] = OSSL_PARAM_construct_uint64("eip93-key-checks-failed", &c->key_failed);
	p[3] = OSSL_PARAM_construct_uint64("eip93-engine-errors", &c->engine_errors);
	p[4] = OSSL_PARAM_construct_end();
	return OSSL_PROVIDER_get_params(prov, p);
}

/* One AES-256-GCM message; returns 1 on success (for decryption: tag accepted). */
static int gcm(EVP_CIPHER *c, int enc, const unsigned char *key, const unsigned char *iv,
	       const unsigned char *aad, const unsigned char *in, int len, unsigned char *out,
	       unsigned char *tag)
{
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	int outl = 0, fl = 0, ok = 0;

	if (ctx == NULL)
		return 0;
	if (EVP_CipherInit_ex2(ctx, c, key, iv, enc, NULL) != 1)
		goto out;
	if (!enc && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, TAGLEN, tag) != 1)
		goto out;
	if (EVP_CipherUpdate(ctx, NULL, &outl, aad, AADLEN) != 1 ||
	    EVP_CipherUpdate(ctx, out, &outl, in, len) != 1 || outl != len)
		goto out;
	if (EVP_CipherFinal_ex(ctx, out + outl, &fl) != 1 || fl != 0)
		goto out;
	if (enc && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, TAGLEN, tag) != 1)
		goto out;
	ok = 1;
out:
	EVP_CIPHER_CTX_free(ctx);
	return ok;
}

/*
 * One eip93 context, two messages (re-init with a new IV only) with a key
 * not used before in this process: one key check.
 */
static void two_messages(EVP_CIPHER *eip, EVP_CIPHER *def, OSSL_PROVIDER *prov,
			 const unsigned char *key, unsigned char *iv, const unsigned char *aad,
			 const unsigned char *pt, int len, unsigned char *ct_e, unsigned char *ct_d)
{
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	unsigned char tag_e[TAGLEN], tag_d[TAGLEN];
	struct counters c0, c1;
	int outl = 0, fl = 0;

	CHECK(ctx != NULL);
	if (ctx == NULL)
		return;
	CHECK(read_counters(prov, &c0));
	CHECK(EVP_EncryptInit_ex2(ctx, eip, key, iv, NULL) == 1);
	for (int m = 0; m < 2; m++) {
		if (m == 1) {
			iv[IVLEN - 1] ^= 1;
			CHECK(EVP_EncryptInit_ex2(ctx, NULL, NULL, iv, NULL) == 1);
		}
		CHECK(EVP_EncryptUpdate(ctx, NULL, &outl, aad, AADLEN) == 1);
		CHECK(EVP_EncryptUpdate(ctx, ct_e, &outl, pt, len) == 1 && outl == len);
		CHECK(EVP_EncryptFinal_ex(ctx, ct_e + outl, &fl) == 1);
		CHECK(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, TAGLEN, tag_e) == 1);
		CHECK(gcm(def, 1, key, iv, aad, pt, len, ct_d, tag_d));
		CHECK(memcmp(ct_e, ct_d, (size_t)len) == 0 && memcmp(tag_e, tag_d, TAGLEN) == 0);
	}
	CHECK(read_counters(prov, &c1));
	if (len >= 4096 && len <= 32768) {
		CHECK_EQ_INT(c1.key_passed - c0.key_passed, 1);
		CHECK_EQ_INT(c1.engine_messages - c0.engine_messages, 2);
	}
	EVP_CIPHER_CTX_free(ctx);
}

int main(int argc, char **argv)
{
	unsigned char key[KEYLEN] = { 0 }, iv[IVLEN] = { 0 }, aad[AADLEN] = { 0 };
	unsigned char tag_e[TAGLEN] = { 0 }, tag_d[TAGLEN] = { 0 };
	unsigned char *pt = NULL, *ct_e = NULL, *ct_d = NULL, *back = NULL;
	struct counters before, after;
	EVP_CIPHER *eip = NULL, *def = NULL;
	OSSL_PROVIDER *prov;
	char *end = NULL;
	long len = 16384;

	if (argc > 2 || (argc == 2 && ((len = strtol(argv[1], &end, 10)) <= 0 || *end != '\0' ||
				       len > (1L << 20)))) {
		fprintf(stderr, "usage: %s [PAYLOAD-BYTES (1..1048576)]\n", argv[0]);
		return 2;
	}
	prov = OSSL_PROVIDER_load(NULL, "eip93");
	CHECK(prov != NULL);
	eip = EVP_CIPHER_fetch(NULL, "AES-256-GCM", "provider=eip93");
	def = EVP_CIPHER_fetch(NULL, "AES-256-GCM", "provider=default");
	CHECK(eip != NULL && def != NULL);
	pt = malloc((size_t)len);
	ct_e = malloc((size_t)len);
	ct_d = malloc((size_t)len);
	back = malloc((size_t)len);
	CHECK(pt != NULL && ct_e != NULL && ct_d != NULL && back != NULL);
	if (prov == NULL || eip == NULL || def == NULL || pt == NULL || ct_e == NULL ||
	    ct_d == NULL || back == NULL)
		goto out;
	CHECK(read_counters(prov, &before));
	CHECK(RAND_bytes(key, sizeof(key)) == 1 && RAND_bytes(iv, sizeof(iv)) == 1 &&
	      RAND_bytes(aad, sizeof(aad)) == 1 && RAND_bytes(pt, (int)len) == 1);

	/* Encrypt: eip93 and default agree on ciphertext and tag. */
	CHECK(gcm(eip, 1, key, iv, aad, pt, (int)len, ct_e, tag_e));
	CHECK(gcm(def, 1, key, iv, aad, pt, (int)len, ct_d, tag_d));
	CHECK(memcmp(ct_e, ct_d, (size_t)len) == 0);
	CHECK(memcmp(tag_e, tag_d, TAGLEN) == 0);
	/* Decrypt through eip93. */
	CHECK(gcm(eip, 0, key, iv, aad, ct_e, (int)len, back, tag_e));
	CHECK(memcmp(back, pt, (size_t)len) == 0);
	/* A corrupted tag is refused. */
	tag_e[TAGLEN - 1] ^= 0x80;
	CHECK(!gcm(eip, 0, key, iv, aad, ct_e, (int)len, back, tag_e));
	CHECK(read_counters(prov, &after));
	key[0] ^= 0x5a; /* the provider checked the first key's bytes once already */
	two_messages(eip, def, prov, key, iv, aad, pt, (int)len, ct_e, ct_d);

	printf("eip93 counters: engine-messages +%llu, key-checks-passed +%llu, "
	       "key-checks-failed +%llu, engine-errors +%llu\n",
	       (unsigned long long)(after.engine_messages - before.engine_messages),
	       (unsigned long long)(after.key_passed - before.key_passed),
	       (unsigned long long)(after.key_failed - before.key_failed),
	       (unsigned long long)(after.engine_errors - before.engine_errors));
	/*
	 * Each gcm() call opens a new context; the first to reach the engine
	 * checks the key's bytes, the others find that verdict.  The
	 * encryption and the good decryption are engine messages; the
	 * corrupted tag's EBADMSG sends that message through the delegate,
	 * which fails it.
	 */
	CHECK(after.key_passed - before.key_passed >= 1);
	CHECK_EQ_INT(after.key_failed - before.key_failed, 0);
	CHECK_EQ_INT(after.engine_errors - before.engine_errors, 0);
	if (len >= 4096 && len <= 32768)
		CHECK(after.engine_messages - before.engine_messages >= 2);
out:
	free(pt);
	free(ct_e);
	free(ct_d);
	free(back);
	EVP_CIPHER_free(eip);
	EVP_CIPHER_free(def);
	if (prov != NULL)
		OSSL_PROVIDER_unload(prov);
	return check_done("offload-check");
}
