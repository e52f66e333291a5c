// SPDX-License-Identifier: Apache-2.0
/*
 * What eip93-diff asks of its surroundings before the cases: a
 * provider's UTF-8 parameters, the alias check (--alias-check), and
 * whether the kernel's AEAD can be compared with.
 */
#include "diff.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#ifndef EIP93_DIFF_NO_KCAPI
#include <kcapi.h>
#endif
#include <openssl/err.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#ifndef AF_ALG
#define AF_ALG 38
#endif

int read_utf8_param(OSSL_PROVIDER *p, const char *name, char *out, size_t outlen)
{
	char *ptr = NULL;
	OSSL_PARAM q[2];

	out[0] = '\0';
	q[0] = OSSL_PARAM_construct_utf8_ptr(name, &ptr, 0);
	q[1] = OSSL_PARAM_construct_end();
	if (OSSL_PROVIDER_get_params(p, q) && OSSL_PARAM_modified(&q[0]) && ptr != NULL) {
		snprintf(out, outlen, "%s", ptr);
		return 1;
	}
	ERR_clear_error();
	q[0] = OSSL_PARAM_construct_utf8_string(name, out, outlen);
	if (OSSL_PROVIDER_get_params(p, q) && OSSL_PARAM_modified(&q[0]))
		return 1;
	ERR_clear_error();
	out[0] = '\0';
	return 0;
}

/*
 * A provider section under another name, e.g.
 * [hw] module = eip93.so, fallback-properties = provider=eip93, makes the
 * module load itself as its own software delegate.  It must refuse any
 * fallback that resolves to this module, whatever its name: then P offers
 * no cipher and its gate says why.  Returns 0 when refused.
 */
int alias_check(OSSL_LIB_CTX *lib, const char *name)
{
	OSSL_PROVIDER *p = OSSL_PROVIDER_load(lib, name);
	EVP_CIPHER *c;
	char gate[512], props[96];
	int rc;

	if (p == NULL) {
		printf("FAIL: provider %s is not configured (--config?)\n", name);
		ERR_print_errors_fp(stdout);
		return 1;
	}
	if (!read_utf8_param(p, "eip93-gate", gate, sizeof(gate)))
		snprintf(gate, sizeof(gate), "(no eip93-gate: not the eip93 module?)");
	printf("provider %s gate: %s\n", name, gate);
	/* eip93 names its algorithms provider=eip93 whatever its section is called. */
	snprintf(props, sizeof(props), "provider=eip93");
	c = EVP_CIPHER_fetch(lib, "AES-128-GCM", props);
	if (c != NULL && strcmp(OSSL_PROVIDER_get0_name(EVP_CIPHER_get0_provider(c)), name) == 0) {
		printf("FAIL: provider %s (the eip93 module) offers AES-128-GCM although its "
		       "fallback-properties resolve to the eip93 module itself\n",
		       name);
		rc = 1;
	} else {
		printf("ok: provider %s refuses a fallback that resolves to its own module\n",
		       name);
		rc = 0;
	}
	EVP_CIPHER_free(c);
	ERR_clear_error();
	OSSL_PROVIDER_unload(p);
	printf("%d passed, %d failed\n", !rc, rc);
	return rc;
}

/* Returns 1 if the kernel comparisons can run, 0 if skipped, -1 on error. */
int probe_kernel(struct harness *h)
{
#ifndef EIP93_DIFF_NO_KCAPI
	struct kcapi_handle *kh = NULL;
	int rc;
#endif
	int fd;

	if (h->no_kernel) {
		printf("kernel comparisons: off (--no-kernel: on the host the engine "
		       "is the user-space fake)\n");
		return 0;
	}
	fd = socket(AF_ALG, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		int err = errno;

		if (err == EAFNOSUPPORT && h->self_check) {
			printf("kernel comparisons: SKIPPED: socket(AF_ALG) fails with "
			       "EAFNOSUPPORT (this kernel has no AF_ALG); run inside the "
			       "test guest to compare with gcm(aes)\n");
			return 0;
		}
		printf("FAIL: socket(AF_ALG): %s\n", strerror(err));
		return -1;
	}
	close(fd);
#ifdef EIP93_DIFF_NO_KCAPI
	/* A musl build without libkcapi (test/diff/CMakeLists.txt). */
	if (h->self_check) {
		printf("kernel comparisons: SKIPPED: this eip93-diff is built without libkcapi "
		       "(a musl build); the glibc build compares with %s\n",
		       h->kernel_alg);
		return 0;
	}
	printf("FAIL: kernel comparisons: this eip93-diff is built without libkcapi (a musl "
	       "build): run it with --no-kernel, or use the glibc build\n");
	return -1;
#else
	rc = kcapi_aead_init(&kh, h->kernel_alg, 0);
	if (rc < 0) {
		printf("FAIL: kernel %s through libkcapi: %d (%s)%s\n", h->kernel_alg, rc,
		       strerror(-rc),
		       rc == -EPROTONOSUPPORT ? ": libkcapi needs NETLINK_CRYPTO (load crypto_user)"
					      : "");
		return -1;
	}
	kcapi_aead_destroy(kh);
	printf("kernel comparisons: on (AF_ALG aead %s through libkcapi; "
	       "12-byte IV, tags 4/8/12..16, up to %zu bytes in)\n",
	       h->kernel_alg, kc_limit());
	return 1;
#endif
}
