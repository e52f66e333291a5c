// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-gate-check: what an application sees of the gate, run in the guest.
 *
 * usage: eip93-gate-check enabled|disabled EXPECTED-TEXT...
 *
 * Loads the providers from the default library context's configuration
 * (OPENSSL_CONF, which activates eip93 and default), prints the gate, and
 * checks: the verdict and its text; that the gate's kernel probe left no
 * file descriptor open; that AES-128/192/256-GCM are offered by eip93 exactly
 * when the gate is open; and, when open, that AES-GCM through eip93 gives the
 * published answer (NIST GCM test case 16 style vector below) even when the
 * configuration says default_properties = provider=eip93, so the software
 * delegate can never resolve to eip93 itself.
 */
#include <dirent.h>
#include <stdio.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/provider.h>

#include "../unit/check.h"

static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	if (d == NULL)
		return -1;
	while ((e = readdir(d)) != NULL)
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n - 1; /* the directory stream's own fd */
}

static int hex2bin(const char *hex, unsigned char *out, size_t max)
{
	size_t n = strlen(hex) / 2;

	if (n > max)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (sscanf(hex + 2 * i, "%2hhx", &out[i]) != 1)
			return -1;
	return (int)n;
}

/* AES-256-GCM, 96-bit IV, 60-byte plaintext, 20-byte AAD (McGrew-Viega test case 16). */
static void known_answer(void)
{
	static const char *k = "feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308";
	static const char *iv = "cafebabefacedbaddecaf888";
	static const char *pt = "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
				"1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39";
	static const char *aad = "feedfacedeadbeeffeedfacedeadbeefabaddad2";
	static const char *ct = "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa"
				"8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662";
	static const char *tag = "76fc6ece0f4e1768cddf8853bb2d551b";
	unsigned char K[32], IV[12], P[64], A[20], C[64], T[16], out[64], gt[16];
	int plen, outl = 0, fl = 0;
	EVP_CIPHER *c = EVP_CIPHER_fetch(NULL, "AES-256-GCM", NULL);
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();

	CHECK(c != NULL && ctx != NULL);
	if (c == NULL || ctx == NULL)
		goto out;
	CHECK(strcmp(OSSL_PROVIDER_get0_name(EVP_CIPHER_get0_provider(c)), "eip93") == 0);
	hex2bin(k, K, sizeof(K));
	hex2bin(iv, IV, sizeof(IV));
	plen = hex2bin(pt, P, sizeof(P));
	hex2bin(aad, A, sizeof(A));
	hex2bin(ct, C, sizeof(C));
	hex2bin(tag, T, sizeof(T));

	CHECK(EVP_EncryptInit_ex2(ctx, c, K, IV, NULL) == 1);
	CHECK(EVP_EncryptUpdate(ctx, NULL, &outl, A, sizeof(A)) == 1);
	CHECK(EVP_EncryptUpdate(ctx, out, &outl, P, plen) == 1);
	CHECK_EQ_INT(outl, plen);
	CHECK(EVP_EncryptFinal_ex(ctx, out + outl, &fl) == 1);
	CHECK(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, gt) == 1);
	CHECK(memcmp(out, C, (size_t)plen) == 0);
	CHECK(memcmp(gt, T, 16) == 0);

	CHECK(EVP_DecryptInit_ex2(ctx, c, K, IV, NULL) == 1);
	CHECK(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 16, T) == 1);
	CHECK(EVP_DecryptUpdate(ctx, NULL, &outl, A, sizeof(A)) == 1);
	CHECK(EVP_DecryptUpdate(ctx, out, &outl, C, plen) == 1);
	CHECK(EVP_DecryptFinal_ex(ctx, out + outl, &fl) == 1);
	CHECK(memcmp(out, P, (size_t)plen) == 0);
	T[0] ^= 1;
	CHECK(EVP_DecryptInit_ex2(ctx, c, K, IV, NULL) == 1);
	CHECK(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 16, T) == 1);
	CHECK(EVP_DecryptUpdate(ctx, NULL, &outl, A, sizeof(A)) == 1);
	CHECK(EVP_DecryptUpdate(ctx, out, &outl, C, plen) == 1);
	CHECK(EVP_DecryptFinal_ex(ctx, out + outl, &fl) == 0);
out:
	EVP_CIPHER_CTX_free(ctx);
	EVP_CIPHER_free(c);
}

int main(int argc, char **argv)
{
	const char *gate = NULL;
	OSSL_PARAM p[2];
	OSSL_PROVIDER *prov;
	int want_on, fds_before, fds_after;

	if (argc < 3 || (strcmp(argv[1], "enabled") != 0 && strcmp(argv[1], "disabled") != 0)) {
		fprintf(stderr, "usage: %s enabled|disabled TEXT...\n", argv[0]);
		return 2;
	}
	want_on = strcmp(argv[1], "enabled") == 0;

	fds_before = count_fds();
	/* Loads OPENSSL_CONF; the gate is decided at the first fetch below. */
	prov = OSSL_PROVIDER_load(NULL, "eip93");
	CHECK(prov != NULL);
	if (prov == NULL)
		return check_done("gate-check");
	for (int bits = 128; bits <= 256; bits += 64) {
		char alg[16];
		EVP_CIPHER *c;

		snprintf(alg, sizeof(alg), "AES-%d-GCM", bits);
		c = EVP_CIPHER_fetch(NULL, alg, "provider=eip93");
		CHECK(want_on ? c != NULL : c == NULL);
		EVP_CIPHER_free(c);
	}
	fds_after = count_fds();
	CHECK_EQ_INT(fds_after, fds_before);

	p[0] = OSSL_PARAM_construct_utf8_ptr("eip93-gate", (char **)&gate, 0);
	p[1] = OSSL_PARAM_construct_end();
	CHECK(OSSL_PROVIDER_get_params(prov, p));
	printf("eip93-gate: %s\n", gate != NULL ? gate : "(null)");
	CHECK(gate != NULL &&
	      strncmp(gate, want_on ? "enabled: " : "disabled: ", want_on ? 9 : 10) == 0);
	for (int i = 2; i < argc; i++) {
		CHECK(gate != NULL && strstr(gate, argv[i]) != NULL);
		if (gate != NULL && strstr(gate, argv[i]) == NULL)
			fprintf(stderr, "gate text lacks: %s\n", argv[i]);
	}
	if (want_on)
		known_answer();
	OSSL_PROVIDER_unload(prov);
	return check_done("gate-check");
}
