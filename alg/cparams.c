// SPDX-License-Identifier: Apache-2.0
/* The parameters every cipher row answers alike (cparams.h). */
#include "cparams.h"

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/params.h>
#include <openssl/proverr.h>

/* OpenSSL 3.6's cipher-level flag (not in 3.0's or 3.5's headers). */
#ifndef OSSL_CIPHER_PARAM_ENCRYPT_THEN_MAC
#define OSSL_CIPHER_PARAM_ENCRYPT_THEN_MAC "encrypt-then-mac"
#endif

/*
 * The default provider's list: 3.6 added the encrypt-then-mac flag, so the
 * libcrypto the provider runs on decides (a module built against 3.0 or
 * 3.5 and loaded by 3.6 or later, the same libcrypto.so.3, answers as that
 * default provider does).
 */
#define GENERIC_GETTABLE                                                                           \
	OSSL_PARAM_uint(OSSL_CIPHER_PARAM_MODE, NULL),                                             \
		OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),                                 \
		OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),                                  \
		OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_BLOCK_SIZE, NULL),                             \
		OSSL_PARAM_int(OSSL_CIPHER_PARAM_AEAD, NULL),                                      \
		OSSL_PARAM_int(OSSL_CIPHER_PARAM_CUSTOM_IV, NULL),                                 \
		OSSL_PARAM_int(OSSL_CIPHER_PARAM_CTS, NULL),                                       \
		OSSL_PARAM_int(OSSL_CIPHER_PARAM_TLS1_MULTIBLOCK, NULL),                           \
		OSSL_PARAM_int(OSSL_CIPHER_PARAM_HAS_RAND_KEY, NULL)
static const OSSL_PARAM known_gettable_params[] = {
	GENERIC_GETTABLE, OSSL_PARAM_int(OSSL_CIPHER_PARAM_ENCRYPT_THEN_MAC, NULL), OSSL_PARAM_END
};
static const OSSL_PARAM known_gettable_params_35[] = { GENERIC_GETTABLE, OSSL_PARAM_END };

/* Does the running libcrypto's default provider answer encrypt-then-mac (3.6 on)? */
static int runtime_has_etm(void)
{
	unsigned int major = OPENSSL_version_major(), minor = OPENSSL_version_minor();

	return major > 3 || (major == 3 && minor >= 6);
}

static int set_uint(OSSL_PARAM params[], const char *key, unsigned int v)
{
	OSSL_PARAM *p = OSSL_PARAM_locate(params, key);

	if (p != NULL && !OSSL_PARAM_set_uint(p, v)) {
		ERR_raise(ERR_LIB_PROV, PROV_R_FAILED_TO_SET_PARAMETER);
		return 0;
	}
	return 1;
}

static int set_int(OSSL_PARAM params[], const char *key, int v)
{
	OSSL_PARAM *p = OSSL_PARAM_locate(params, key);

	if (p != NULL && !OSSL_PARAM_set_int(p, v)) {
		ERR_raise(ERR_LIB_PROV, PROV_R_FAILED_TO_SET_PARAMETER);
		return 0;
	}
	return 1;
}

static int set_size(OSSL_PARAM params[], const char *key, size_t v)
{
	OSSL_PARAM *p = OSSL_PARAM_locate(params, key);

	if (p != NULL && !OSSL_PARAM_set_size_t(p, v)) {
		ERR_raise(ERR_LIB_PROV, PROV_R_FAILED_TO_SET_PARAMETER);
		return 0;
	}
	return 1;
}

/* In the default provider's order (the flags first, then the sizes). */
int eip93_cipher_get_params(OSSL_PARAM params[], const struct eip93_cipher_consts *c, size_t keylen)
{
	return set_uint(params, OSSL_CIPHER_PARAM_MODE, c->mode) &&
	       set_int(params, OSSL_CIPHER_PARAM_AEAD, c->aead) &&
	       set_int(params, OSSL_CIPHER_PARAM_CUSTOM_IV, c->custom_iv) &&
	       set_int(params, OSSL_CIPHER_PARAM_CTS, 0) &&
	       set_int(params, OSSL_CIPHER_PARAM_TLS1_MULTIBLOCK, 0) &&
	       set_int(params, OSSL_CIPHER_PARAM_HAS_RAND_KEY, 0) &&
	       (!runtime_has_etm() || set_int(params, OSSL_CIPHER_PARAM_ENCRYPT_THEN_MAC, 0)) &&
	       set_size(params, OSSL_CIPHER_PARAM_KEYLEN, keylen) &&
	       set_size(params, OSSL_CIPHER_PARAM_BLOCK_SIZE, c->blksz) &&
	       set_size(params, OSSL_CIPHER_PARAM_IVLEN, c->ivlen);
}

const OSSL_PARAM *eip93_cipher_gettable_params(void *provctx)
{
	(void)provctx;
	return runtime_has_etm() ? known_gettable_params : known_gettable_params_35;
}

/* The context's delegate, or without one the row's first key size's (NULL: none resolved). */
static const struct eip93_sw_impl *impl_of(const struct eip93_cctx *ctx, void *provctx,
					   const struct eip93_cipher *row, void **swctx)
{
	const struct eip93_alg_env *env = provctx;

	*swctx = ctx != NULL ? ctx->swctx : NULL;
	return ctx != NULL ? ctx->sw : eip93_sw_find(env->sw, row->names[0]);
}

const OSSL_PARAM *eip93_cipher_gettable_ctx(const struct eip93_cctx *vctx, void *provctx,
					    const struct eip93_cipher *row)
{
	void *swctx;
	const struct eip93_sw_impl *sw = impl_of(vctx, provctx, row, &swctx);

	if (sw == NULL || sw->gettable_ctx_params == NULL)
		return NULL;
	/* (cppcheck cannot see OpenSSL's function types: the call returns a pointer) */
	// cppcheck-suppress CastIntegerToAddressAtReturn
	return sw->gettable_ctx_params(swctx, sw->provctx);
}

const OSSL_PARAM *eip93_cipher_settable_ctx(const struct eip93_cctx *vctx, void *provctx,
					    const struct eip93_cipher *row)
{
	void *swctx;
	const struct eip93_sw_impl *sw = impl_of(vctx, provctx, row, &swctx);

	if (sw == NULL || sw->settable_ctx_params == NULL)
		return NULL;
	// cppcheck-suppress CastIntegerToAddressAtReturn
	return sw->settable_ctx_params(swctx, sw->provctx);
}
