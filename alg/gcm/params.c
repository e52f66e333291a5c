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
#include "../cparams.h"

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/params.h>
#include <openssl/proverr.h>

static OSSL_FUNC_cipher_newctx_fn gcm_newctx128, gcm_newctx192, gcm_newctx256;
static OSSL_FUNC_cipher_get_params_fn gcm_get_params128, gcm_get_params192, gcm_get_params256;
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

static const OSSL_PARAM *gcm_gettable_ctx_params(void *vctx, void *provctx)
{
	return eip93_cipher_gettable_ctx(vctx, provctx, &eip93_cipher_aes_gcm);
}

static const OSSL_PARAM *gcm_settable_ctx_params(void *vctx, void *provctx)
{
	return eip93_cipher_settable_ctx(vctx, provctx, &eip93_cipher_aes_gcm);
}

/*
 * Cipher-level parameters.  OpenSSL gives this call no provider context, so
 * the values are stated here; they are those of every AES-GCM: GCM mode,
 * AEAD with a custom IV, stream (block size 1), 96-bit default IV.
 */
static const struct eip93_cipher_consts gcm_consts = {
	.mode = EVP_CIPH_GCM_MODE, .aead = 1, .custom_iv = 1, .blksz = 1, .ivlen = EIP93_ROUTE_IVLEN
};

static int gcm_get_params128(OSSL_PARAM params[])
{
	return eip93_cipher_get_params(params, &gcm_consts, 16);
}
static int gcm_get_params192(OSSL_PARAM params[])
{
	return eip93_cipher_get_params(params, &gcm_consts, 24);
}
static int gcm_get_params256(OSSL_PARAM params[])
{
	return eip93_cipher_get_params(params, &gcm_consts, 32);
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
			FN(OSSL_FUNC_CIPHER_GETTABLE_PARAMS, eip93_cipher_gettable_params),        \
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
	.engine_mode = EIP93_EMODE_AEAD,
	.key_init = eip93_compose_key_init,
	.key_free = eip93_compose_key_free,
	.key_check = eip93_gcm_key_check,
};
