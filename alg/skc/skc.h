// SPDX-License-Identifier: Apache-2.0
/*
 * AES-CTR and AES-CBC, as the rest of the project sees them: their cipher
 * rows (what the provider offers, provider/algs.c).  Everything else is
 * private to alg/skc/ (skc_ctx.h).
 */
#ifndef EIP93_SKC_H
#define EIP93_SKC_H

#include "../cipher.h"

/* AES-128/192/256-CTR and -CBC (params.c). */
extern const struct eip93_cipher eip93_cipher_aes_ctr;
extern const struct eip93_cipher eip93_cipher_aes_cbc;

#endif /* EIP93_SKC_H */
