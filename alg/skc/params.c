// SPDX-License-Identifier: Apache-2.0
/*
 * AES-CTR's and AES-CBC's dispatch tables and rows (../cipher.h): the
 * cipher-level answers (those of the default provider's generic AES-CTR and
 * AES-CBC), the delegate's lists, and the six tables the provider registers.
 */
#include "skc.h"
#include "skc_ctx.h"
#include "../cparams.h"

#include <openssl/core_names.h>
#include <openssl/evp.h>

#define NEWCTX(mode, cbc, bits, ks)                                                                \
	static void *mode##_newctx##bits(void *provctx)                                            \
	{                                                                                          \
		return eip93_skc_newctx(provctx, cbc, ks);                                         \
	}
NEWCTX(ctr, 0, 128, 0)
NEWCTX(ctr, 0, 192, 1)
NEWCTX(ctr, 0, 256, 2)
NEWCTX(cbc, 1, 128, 0)
NEWCTX(cbc, 1, 192, 1)
NEWCTX(cbc, 1, 256, 2)

/* Stream (block size 1) and block (16): both with a 16-byte IV, neither AEAD. */
static const struct eip93_cipher_consts ctr_consts = { .mode = EVP_CIPH_CTR_MODE,
						       .blksz = 1,
						       .ivlen = EIP93_SKC_BLK };
static const struct eip93_cipher_consts cbc_consts = { .mode = EVP_CIPH_CBC_MODE,
						       .blksz = EIP93_SKC_BLK,
						       .ivlen = EIP93_SKC_BLK };

#define GET_PARAMS(mode, bits)                                                                     \
	static int mode##_get_params##bits(OSSL_PARAM params[])                                    \
	{                                                                                          \
		return eip93_cipher_get_params(params, &mode##_consts, (bits) / 8);                \
	}
GET_PARAMS(ctr, 128)
GET_PARAMS(ctr, 192)
GET_PARAMS(ctr, 256)
GET_PARAMS(cbc, 128)
GET_PARAMS(cbc, 192)
GET_PARAMS(cbc, 256)

static const OSSL_PARAM *ctr_gettable_ctx(void *vctx, void *provctx)
{
	return eip93_cipher_gettable_ctx(vctx, provctx, &eip93_cipher_aes_ctr);
}
static const OSSL_PARAM *ctr_settable_ctx(void *vctx, void *provctx)
{
	return eip93_cipher_settable_ctx(vctx, provctx, &eip93_cipher_aes_ctr);
}
static const OSSL_PARAM *cbc_gettable_ctx(void *vctx, void *provctx)
{
	return eip93_cipher_gettable_ctx(vctx, provctx, &eip93_cipher_aes_cbc);
}
static const OSSL_PARAM *cbc_settable_ctx(void *vctx, void *provctx)
{
	return eip93_cipher_settable_ctx(vctx, provctx, &eip93_cipher_aes_cbc);
}

#define FN(id, f)                                                                                  \
	{                                                                                          \
		id, (void (*)(void))(f)                                                            \
	}
#define SKC_TABLE(mode, bits)                                                                      \
	{                                                                                          \
		FN(OSSL_FUNC_CIPHER_NEWCTX, mode##_newctx##bits),                                  \
			FN(OSSL_FUNC_CIPHER_FREECTX, eip93_skc_freectx),                           \
			FN(OSSL_FUNC_CIPHER_DUPCTX, eip93_skc_dupctx),                             \
			FN(OSSL_FUNC_CIPHER_ENCRYPT_INIT, eip93_skc_einit),                        \
			FN(OSSL_FUNC_CIPHER_DECRYPT_INIT, eip93_skc_dinit),                        \
			FN(OSSL_FUNC_CIPHER_UPDATE, eip93_skc_update),                             \
			FN(OSSL_FUNC_CIPHER_FINAL, eip93_skc_final),                               \
			FN(OSSL_FUNC_CIPHER_CIPHER, eip93_skc_cipher),                             \
			FN(OSSL_FUNC_CIPHER_GET_PARAMS, mode##_get_params##bits),                  \
			FN(OSSL_FUNC_CIPHER_GETTABLE_PARAMS, eip93_cipher_gettable_params),        \
			FN(OSSL_FUNC_CIPHER_GET_CTX_PARAMS, eip93_skc_get_ctx_params),             \
			FN(OSSL_FUNC_CIPHER_SET_CTX_PARAMS, eip93_skc_set_ctx_params),             \
			FN(OSSL_FUNC_CIPHER_GETTABLE_CTX_PARAMS, mode##_gettable_ctx),             \
			FN(OSSL_FUNC_CIPHER_SETTABLE_CTX_PARAMS, mode##_settable_ctx),             \
		{                                                                                  \
			0, NULL                                                                    \
		}                                                                                  \
	}

static const OSSL_DISPATCH ctr_functions[3][15] = { SKC_TABLE(ctr, 128), SKC_TABLE(ctr, 192),
						    SKC_TABLE(ctr, 256) };
static const OSSL_DISPATCH cbc_functions[3][15] = { SKC_TABLE(cbc, 128), SKC_TABLE(cbc, 192),
						    SKC_TABLE(cbc, 256) };

/* Offered when the SoC driver's algorithm of the mode bound on the gate's road. */
static int ctr_capable(const struct eip93_alg_env *env)
{
	return eip93_env_kalg(env, EIP93_EMODE_CTR)[0] != '\0';
}
static int cbc_capable(const struct eip93_alg_env *env)
{
	return eip93_env_kalg(env, EIP93_EMODE_CBC)[0] != '\0';
}

const struct eip93_cipher eip93_cipher_aes_ctr = {
	.name = "AES-CTR",
	.description = "AES-CTR: whole-block messages in the window on the EIP93 engine, "
		       "the rest in the default provider",
	.nkeys = 3,
	.names = { "AES-128-CTR", "AES-192-CTR", "AES-256-CTR" },
	.functions = { ctr_functions[0], ctr_functions[1], ctr_functions[2] },
	.engine_mode = EIP93_EMODE_CTR,
	.capable = ctr_capable,
	.key_init = eip93_skc_key_init,
	.key_free = eip93_skc_key_free,
	.key_check = eip93_skc_key_check,
};

const struct eip93_cipher eip93_cipher_aes_cbc = {
	.name = "AES-CBC",
	.description = "AES-CBC: whole-block messages in the window on the EIP93 engine, "
		       "the rest in the default provider",
	.nkeys = 3,
	.names = { "AES-128-CBC", "AES-192-CBC", "AES-256-CBC" },
	.functions = { cbc_functions[0], cbc_functions[1], cbc_functions[2] },
	.engine_mode = EIP93_EMODE_CBC,
	.capable = cbc_capable,
	.key_init = eip93_skc_key_init,
	.key_free = eip93_skc_key_free,
	.key_check = eip93_skc_key_check,
};
