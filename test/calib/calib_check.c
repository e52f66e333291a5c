// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-calib-check: where does each payload size go?  Run in the guest.
 *
 * usage: eip93-calib-check SIZE...
 *        eip93-calib-check --skc ctr|cbc SIZE...
 *        eip93-calib-check --status
 *
 * --status prints the provider's eip93-gate, eip93-status, eip93-window and
 * eip93-calibration parameters, one "name: value" line each.
 *
 * Fetches AES-128-GCM from the default library context (OPENSSL_CONF prefers
 * eip93), and for each SIZE encrypts and decrypts 4 messages of that size
 * (the decryptions must authenticate), printing
 *   size SIZE: driver-ops +N engine-messages +M
 * with the simulated driver's operation counter and eip93's own counter.
 * --skc does the same with AES-128-CTR or AES-128-CBC (no padding: one
 * update of whole blocks), each encryption equal to the default provider's.
 * The verdict (inside the window: the engine; outside: nothing) is the
 * calling script's.  Exit status 1 on a wrong result.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#define OPS "/sys/module/eip93_sim/parameters/ops"

static unsigned long long driver_ops(void)
{
	unsigned long long v = 0;
	FILE *f = fopen(OPS, "re");

	if (f != NULL) {
		if (fscanf(f, "%llu", &v) != 1)
			v = 0;
		fclose(f);
	}
	return v;
}

static uint64_t engine_messages(OSSL_PROVIDER *p)
{
	uint64_t v = 0;
	OSSL_PARAM q[2] = { OSSL_PARAM_construct_uint64("eip93-engine-messages", &v),
			    OSSL_PARAM_construct_end() };

	if (p == NULL || !OSSL_PROVIDER_get_params(p, q))
		return 0;
	return v;
}

static int check_sizes(int argc, char **argv, OSSL_PROVIDER *p, const char *name);

/* @len bytes of @in through @c (AES-CTR/CBC, padding off) into @out: 1 on success. */
static int skc_pass(EVP_CIPHER *c, int enc, const unsigned char *in, unsigned char *out, size_t len)
{
	static const unsigned char key[16] = { 1, 2, 3 }, iv[16] = { 4, 5, 6 };
	EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
	int n = 0, f = 0, ok;

	ok = x != NULL && EVP_CipherInit_ex2(x, c, key, iv, enc, NULL) &&
	     EVP_CIPHER_CTX_set_padding(x, 0) && EVP_CipherUpdate(x, out, &n, in, (int)len) &&
	     EVP_CipherFinal_ex(x, out + n, &f) && (size_t)n + (size_t)f == len;
	EVP_CIPHER_CTX_free(x);
	return ok;
}

/* AES-CTR/CBC: eip93's (the default context's) encryption is software's, and decrypts back. */
static int one_skc(EVP_CIPHER *c, const unsigned char *buf, unsigned char *out, size_t len)
{
	EVP_CIPHER *sw = EVP_CIPHER_fetch(NULL, EVP_CIPHER_get0_name(c), "provider=default");
	unsigned char *ref = malloc(len);
	int ok;

	ok = sw != NULL && ref != NULL && skc_pass(sw, 1, buf, ref, len) &&
	     skc_pass(c, 1, buf, out, len) && memcmp(out, ref, len) == 0 &&
	     skc_pass(c, 0, out, out, len) && memcmp(out, buf, len) == 0;
	EVP_CIPHER_free(sw);
	free(ref);
	return ok;
}

static int one(EVP_CIPHER *c, unsigned char *buf, unsigned char *out, size_t len)
{
	static const unsigned char key[16] = { 1, 2, 3 }, iv[12] = { 4, 5, 6 }, aad[13] = { 7 };
	unsigned char tag[16];
	EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
	int n, f, ok;

	ok = x != NULL && EVP_EncryptInit_ex2(x, c, key, iv, NULL) &&
	     EVP_EncryptUpdate(x, NULL, &n, aad, sizeof(aad)) &&
	     EVP_EncryptUpdate(x, out, &n, buf, (int)len) && EVP_EncryptFinal_ex(x, out + n, &f) &&
	     EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_GET_TAG, 16, tag) &&
	     EVP_DecryptInit_ex2(x, c, key, iv, NULL) &&
	     EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_TAG, 16, tag) &&
	     EVP_DecryptUpdate(x, NULL, &n, aad, sizeof(aad)) &&
	     EVP_DecryptUpdate(x, out, &n, out, (int)len) && EVP_DecryptFinal_ex(x, out + n, &f) &&
	     memcmp(out, buf, len) == 0;
	EVP_CIPHER_CTX_free(x);
	return ok;
}

static int print_status(OSSL_PROVIDER *p)
{
	static const char *const names[] = { "eip93-gate", "eip93-status", "eip93-window",
					     "eip93-calibration" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const char *v = NULL;
		OSSL_PARAM q[2] = { OSSL_PARAM_construct_utf8_ptr(names[i], (char **)&v, 0),
				    OSSL_PARAM_construct_end() };

		if (p == NULL || !OSSL_PROVIDER_get_params(p, q) || v == NULL)
			return 1;
		printf("%s: %s\n", names[i], v);
	}
	return 0;
}

int main(int argc, char **argv)
{
	OSSL_PROVIDER *p = OSSL_PROVIDER_load(NULL, "eip93");

	if (argc == 2 && strcmp(argv[1], "--status") == 0) {
		int rc = print_status(p);

		OSSL_PROVIDER_unload(p);
		return rc;
	}
	if (argc >= 3 && strcmp(argv[1], "--skc") == 0)
		return check_sizes(argc - 2, argv + 2, p,
				   strcmp(argv[2], "cbc") == 0 ? "AES-128-CBC" : "AES-128-CTR");
	return check_sizes(argc, argv, p, "AES-128-GCM");
}

/* @argv[1..]: the sizes, through @name. */
static int check_sizes(int argc, char **argv, OSSL_PROVIDER *p, const char *name)
{
	EVP_CIPHER *c = EVP_CIPHER_fetch(NULL, name, NULL);
	int gcm = strcmp(name, "AES-128-GCM") == 0;
	unsigned char *buf = calloc(1, 65536), *out = calloc(1, 65536 + 16);
	int rc = 0;

	if (argc < 2 || c == NULL || buf == NULL || out == NULL) {
		fprintf(stderr,
			"usage: eip93-calib-check [--skc ctr|cbc] SIZE... (and %s must "
			"fetch)\n",
			name);
		EVP_CIPHER_free(c);
		OSSL_PROVIDER_unload(p);
		free(buf);
		free(out);
		return 2;
	}
	printf("%s from %s\n", name, OSSL_PROVIDER_get0_name(EVP_CIPHER_get0_provider(c)));
	for (int i = 1; i < argc; i++) {
		size_t len = strtoul(argv[i], NULL, 10);
		unsigned long long d0 = driver_ops();
		uint64_t e0 = engine_messages(p);

		if (len == 0 || len > 65536 || (!gcm && len % 16 != 0)) {
			rc = 2;
			break;
		}
		for (int m = 0; m < 4; m++)
			if (!(gcm ? one(c, buf, out, len) : one_skc(c, buf, out, len))) {
				printf("size %zu: WRONG RESULT\n", len);
				rc = 1;
			}
		printf("size %zu: driver-ops +%llu engine-messages +%llu\n", len, driver_ops() - d0,
		       (unsigned long long)(engine_messages(p) - e0));
	}
	EVP_CIPHER_free(c);
	OSSL_PROVIDER_unload(p);
	free(buf);
	free(out);
	return rc;
}
