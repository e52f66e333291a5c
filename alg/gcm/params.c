// SPDX-License-Identifier: Apache-2.0
/*
 * The cipher's parameters, dispatch tables and row: cipher-level answers
 * (the same for every AES-GCM), the delegate's gettable/settable lists, the
 * three tables the provider registers, and AES-GCM's row (../cipher.h) that
 * names them.
 */
#include "gcm.h"
#include "gcm_ctx.h"
#include "compose.h"
#include "kat.h"

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/params.h>
#include <openssl/proverr.h>

static OSSL_FUNC_cipher_newctx_fn gcm_newctx128, gcm_newctx192, gcm_newctx256;
static OSSL_FUNC_cipher_get_params_fn gcm_get_params128, gcm_get_params192, gcm_get_params256;
static OSSL_FUNC_cipher_gettable_params_fn gcm_gettable_params;
static OSSL_FUNC_cipher_gettable_ctx_params_fn gcm_gettable_ctx_params;
static OSSL_FUNC_cipher_settable_ctx_params_fn gcm_settable_ctx_params;

static void *gcm_newctx128(void *provctx)
{
	return eip93_gcm_newctx(provctx, 0);
}
static void *gcm_newctx192(void *provctx)
{
	return eip93_gcm_newctx(provctx, 1);
}
static void *gcm_newctx256(void *provctx)
{
	return eip93_gcm_newctx(provctx, 2);
}

/* The context's delegate, or without one the first key size's (NULL: none resolved). */
static const struct eip93_sw_impl *impl_of(void *vctx, void *provctx, void **swctx)
{
	const struct eip93_alg_env *env = provctx;
	const struct gcm_ctx *ctx = vctx;

	*swctx = ctx != NULL ? ctx->base.swctx : NULL;
	return ctx != NULL ? ctx->base.sw : eip93_sw_find(env->sw, eip93_cipher_aes_gcm.names[0]);
}

static const OSSL_PARAM *gcm_gettable_ctx_params(void *vctx, void *provctx)
{
	void *swctx;
	const struct eip93_sw_impl *sw = impl_of(vctx, provctx, &swctx);

	if (sw == NULL || sw->gettable_ctx_params == NULL)
		return NULL;
	return sw->gettable_ctx_params(swctx, sw->provctx);
}

static const OSSL_PARAM *gcm_settable_ctx_params(void *vctx, void *provctx)
{
	void *swctx;
	const struct eip93_sw_impl *sw = impl_of(vctx, provctx, &swctx);

	if (sw == NULL || sw->settable_ctx_params == NULL)
		return NULL;
	return sw->settable_ctx_params(swctx, sw->provctx);
}

/*
 * Cipher-level parameters.  OpenSSL gives this call no provider context, so
 * the values are stated here; they are those of every AES-GCM: GCM mode,
 * AEAD with a custom IV, stream (block size 1), 96-bit default IV; answered
 * in the order of the default provider's ossl_cipher_generic_get_params(),
 * with its error (the differential test compares a failing request too).
 */
static const OSSL_PARAM gcm_known_gettable_params[] = {
	OSSL_PARAM_uint(OSSL_CIPHER_PARAM_MODE, NULL),
	OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
	OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),
	OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_BLOCK_SIZE, NULL),
	OSSL_PARAM_int(OSSL_CIPHER_PARAM_AEAD, NULL),
	OSSL_PARAM_int(OSSL_CIPHER_PARAM_CUSTOM_IV, NULL),
	OSSL_PARAM_int(OSSL_CIPHER_PARAM_CTS, NULL),
	OSSL_PARAM_int(OSSL_CIPHER_PARAM_TLS1_MULTIBLOCK, NULL),
	OSSL_PARAM_int(OSSL_CIPHER_PARAM_HAS_RAND_KEY, NULL),
	OSSL_PARAM_END
};

/*
 * Each answer as ossl_cipher_generic_get_params() gives it: a requested
 * parameter that cannot take its value fails the call there and then, with
 * PROV_R_FAILED_TO_SET_PARAMETER, the answers before it already written.
 */
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
static int gcm_get_params(OSSL_PARAM params[], size_t keylen)
{
	return set_uint(params, OSSL_CIPHER_PARAM_MODE, EVP_CIPH_GCM_MODE) &&
	       set_int(params, OSSL_CIPHER_PARAM_AEAD, 1) &&
	       set_int(params, OSSL_CIPHER_PARAM_CUSTOM_IV, 1) &&
	       set_int(params, OSSL_CIPHER_PARAM_CTS, 0) &&
	       set_int(params, OSSL_CIPHER_PARAM_TLS1_MULTIBLOCK, 0) &&
	       set_int(params, OSSL_CIPHER_PARAM_HAS_RAND_KEY, 0) &&
	       set_size(params, OSSL_CIPHER_PARAM_KEYLEN, keylen) &&
	       set_size(params, OSSL_CIPHER_PARAM_BLOCK_SIZE, 1) &&
	       set_size(params, OSSL_CIPHER_PARAM_IVLEN, EIP93_ROUTE_IVLEN);
}

static int gcm_get_params128(OSSL_PARAM params[])
{
	return gcm_get_params(params, 16);
}
static int gcm_get_params192(OSSL_PARAM params[])
{
	return gcm_get_params(params, 24);
}
static int gcm_get_params256(OSSL_PARAM params[])
{
	return gcm_get_params(params, 32);
}

static const OSSL_PARAM *gcm_gettable_params(void *provctx)
{
	(void)provctx;
	return gcm_known_gettable_params;
}

#define FN(id, f)                                                                                  \
	{                                                                                          \
		id, (void (*)(void))(f)                                                            \
	}
#define GCM_TABLE(bits)                                                                            \
	{                                                                                          \
		FN(OSSL_FUNC_CIPHER_NEWCTX, gcm_newctx##bits),                                     \
			FN(OSSL_FUNC_CIPHER_FREECTX, eip93_gcm_freectx),                           \
			FN(OSSL_FUNC_CIPHER_DUPCTX, eip93_gcm_dupctx),                             \
			FN(OSSL_FUNC_CIPHER_ENCRYPT_INIT, eip93_gcm_einit),                        \
			FN(OSSL_FUNC_CIPHER_DECRYPT_INIT, eip93_gcm_dinit),                        \
			FN(OSSL_FUNC_CIPHER_UPDATE, eip93_gcm_update),                             \
			FN(OSSL_FUNC_CIPHER_FINAL, eip93_gcm_final),                               \
			FN(OSSL_FUNC_CIPHER_CIPHER, eip93_gcm_cipher),                             \
			FN(OSSL_FUNC_CIPHER_GET_PARAMS, gcm_get_params##bits),                     \
			FN(OSSL_FUNC_CIPHER_GETTABLE_PARAMS, gcm_gettable_params),                 \
			FN(OSSL_FUNC_CIPHER_GET_CTX_PARAMS, eip93_gcm_get_ctx_params),             \
			FN(OSSL_FUNC_CIPHER_SET_CTX_PARAMS, eip93_gcm_set_ctx_params),             \
			FN(OSSL_FUNC_CIPHER_GETTABLE_CTX_PARAMS, gcm_gettable_ctx_params),         \
			FN(OSSL_FUNC_CIPHER_SETTABLE_CTX_PARAMS, gcm_settable_ctx_params),         \
		{                                                                                  \
			0, NULL                                                                    \
		}                                                                                  \
	}

static const OSSL_DISPATCH gcm_functions[3][15] = { GCM_TABLE(128), GCM_TABLE(192),
						    GCM_TABLE(256) };

const struct eip93_cipher eip93_cipher_aes_gcm = {
	.name = "AES-GCM",
	.description = "AES-GCM: 4-32 KiB messages on the EIP93 hybrid GCM (AF_ALG), "
		       "the rest in the default provider",
	.nkeys = 3,
	.names = { "AES-128-GCM", "AES-192-GCM", "AES-256-GCM" },
	.functions = { gcm_functions[0], gcm_functions[1], gcm_functions[2] },
	.key_init = eip93_compose_key_init,
	.key_free = eip93_compose_key_free,
	.key_check = eip93_gcm_key_check,
};
