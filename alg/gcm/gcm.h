// SPDX-License-Identifier: Apache-2.0
/*
 * AES-GCM, as the rest of the project sees it: its cipher row (what the
 * provider offers, provider/algs.c) and the composition self-test the gate
 * asks.  Everything else of AES-GCM is private to alg/gcm/ (gcm_ctx.h).
 */
#ifndef EIP93_GCM_H
#define EIP93_GCM_H

#include "../cipher.h"

/* AES-128/192/256-GCM (params.c). */
extern const struct eip93_cipher eip93_cipher_aes_gcm;

/* Kernel AES-GCM compositions: 1 in this many tags recomputed (env->tag_check's default). */
#define EIP93_TAG_CHECK_DEFAULT 64

/*
 * eip93_compose_selftest() (selftest.c) - does this libcrypto's GCM128 leave whole blocks
 * to a stream function (not so when built with OPENSSL_SMALL_FOOTPRINT)?
 * The CTR-only composition needs it; 0 or -ENOTSUP.
 */
int eip93_compose_selftest(void);

#endif /* EIP93_GCM_H */
