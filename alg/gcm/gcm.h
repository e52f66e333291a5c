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
 * eip93_compose_selftest() (selftest.c) - does the CTR-only composition's
 * software half (route.c) give GCM128's own results on this libcrypto?
 * 0, -ENOTSUP (it does not: the composition is not offered) or -ENOMEM.
 */
int eip93_compose_selftest(void);

#endif /* EIP93_GCM_H */
