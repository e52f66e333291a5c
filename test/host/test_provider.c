// SPDX-License-Identifier: Apache-2.0
/*
 * Load eip93.so on the host (whose kernel has no AF_ALG) and check what an
 * application sees: the provider loads, reports its parameters, offers no
 * cipher, and every fetch that prefers it falls to the default provider.
 *
 * usage: test_provider <expected gate text> <expected buildinfo text> <version>
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/provider.h>

#include "../unit/check.h"

static const char *const counters[] = {
	"eip93-engine-messages",   "eip93-engine-bytes",      "eip93-software-messages",
	"eip93-key-checks-passed", "eip93-key-checks-failed", "eip93-engine-errors",
};

int main(int argc, char **argv)
{
	OSSL_LIB_CTX *lib = OSSL_LIB_CTX_new();
	OSSL_PROVIDER *prov, *def;
	const char *name = NULL, *version = NULL, *buildinfo = NULL, *gate = NULL;
	int status = -1;
	uint64_t val[6];
	OSSL_PARAM p[12];
	size_t n = 0;

	if (argc != 4) {
		fprintf(stderr, "usage: %s GATE BUILDINFO VERSION\n", argv[0]);
		return 2;
	}
	prov = OSSL_PROVIDER_load(lib, "eip93");
	def = OSSL_PROVIDER_load(lib, "default");
	CHECK(prov != NULL);
	CHECK(def != NULL);
	if (prov == NULL || def == NULL)
		return check_done("test_provider");

	p[n++] = OSSL_PARAM_construct_utf8_ptr(OSSL_PROV_PARAM_NAME, (char **)&name, 0);
	p[n++] = OSSL_PARAM_construct_utf8_ptr(OSSL_PROV_PARAM_VERSION, (char **)&version, 0);
	p[n++] = OSSL_PARAM_construct_utf8_ptr(OSSL_PROV_PARAM_BUILDINFO, (char **)&buildinfo, 0);
	p[n++] = OSSL_PARAM_construct_int(OSSL_PROV_PARAM_STATUS, &status);
	p[n++] = OSSL_PARAM_construct_utf8_ptr("eip93-gate", (char **)&gate, 0);
	for (size_t i = 0; i < 6; i++) {
		val[i] = 99;
		p[n++] = OSSL_PARAM_construct_uint64(counters[i], &val[i]);
	}
	p[n] = OSSL_PARAM_construct_end();
	CHECK(OSSL_PROVIDER_get_params(prov, p));
	printf("name: %s\nversion: %s\nbuildinfo: %s\nstatus: %d\neip93-gate: %s\n",
	       name ? name : "(null)", version ? version : "(null)",
	       buildinfo ? buildinfo : "(null)", status, gate ? gate : "(null)");
	CHECK(name != NULL && strstr(name, "eip93") != NULL);
	CHECK(version != NULL && strcmp(version, argv[3]) == 0);
	CHECK(buildinfo != NULL && strstr(buildinfo, argv[2]) != NULL);
	CHECK_EQ_INT(status, 1);
	CHECK(gate != NULL && strncmp(gate, "disabled: ", 10) == 0);
	CHECK(gate != NULL && strstr(gate, argv[1]) != NULL);
	for (size_t i = 0; i < 6; i++)
		CHECK_EQ_INT(val[i], 0);

	/* Gated off: nothing offered, so a preference falls through to default. */
	for (int bits = 128; bits <= 256; bits += 64) {
		char alg[16];
		EVP_CIPHER *c;

		snprintf(alg, sizeof(alg), "AES-%d-GCM", bits);
		c = EVP_CIPHER_fetch(lib, alg, "provider=eip93");
		CHECK(c == NULL);
		EVP_CIPHER_free(c);
		c = EVP_CIPHER_fetch(lib, alg, "?provider=eip93");
		CHECK(c != NULL);
		if (c != NULL)
			CHECK(strcmp(OSSL_PROVIDER_get0_name(EVP_CIPHER_get0_provider(c)),
				     "default") == 0);
		EVP_CIPHER_free(c);
	}
	CHECK(OSSL_PROVIDER_unload(prov));
	CHECK(OSSL_PROVIDER_unload(def));
	OSSL_LIB_CTX_free(lib);
	return check_done("test_provider");
}
