// SPDX-License-Identifier: Apache-2.0
/*
 * What every cipher row answers alike (cparams.c): the cipher-level
 * parameters in the default provider's order and with its errors, and the
 * delegate's gettable and settable lists.
 */
#ifndef EIP93_CPARAMS_H
#define EIP93_CPARAMS_H

#include <stddef.h>

#include <openssl/core.h>

#include "cipher.h"
#include "ctx.h"

/* A cipher's constants, as ossl_cipher_generic_get_params() is handed them. */
struct eip93_cipher_consts {
	unsigned int mode; /* EVP_CIPH_*_MODE */
	int aead, custom_iv;
	size_t blksz, ivlen;
};

/*
 * The cipher-level answers for a key of @keylen bytes, in the default
 * provider's order: a requested parameter that cannot take its value fails
 * the call there, with PROV_R_FAILED_TO_SET_PARAMETER, the answers before
 * it already written.
 */
int eip93_cipher_get_params(OSSL_PARAM params[], const struct eip93_cipher_consts *c,
			    size_t keylen);
/* The parameters eip93_cipher_get_params() answers. */
const OSSL_PARAM *eip93_cipher_gettable_params(void *provctx);
/* The delegate's lists, of @vctx's delegate or else of @row's first key size. */
const OSSL_PARAM *eip93_cipher_gettable_ctx(const struct eip93_cctx *vctx, void *provctx,
					    const struct eip93_cipher *row);
const OSSL_PARAM *eip93_cipher_settable_ctx(const struct eip93_cctx *vctx, void *provctx,
					    const struct eip93_cipher *row);

#endif /* EIP93_CPARAMS_H */
