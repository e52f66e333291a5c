// SPDX-License-Identifier: Apache-2.0
/*
 * The ciphers the provider offers: a list of cipher rows (alg/cipher.h),
 * their delegates resolved by the rows' names, and the OSSL_ALGORITHM table
 * built from them.
 */
#ifndef EIP93_ALGS_H
#define EIP93_ALGS_H

#include <openssl/core.h>

#include "../alg/env.h"
#include "../alg/sw.h"

/* Entries of the table at most (every key size of every row), before its end. */
#define EIP93_ALGS_MAX EIP93_SW_MAX

/*
 * eip93_algs_sw_open() - eip93_sw_open() over the names of every row (the
 * delegate of each key size of each cipher offered), in row order.
 */
int eip93_algs_sw_open(struct eip93_sw_lib *lib, const char *propq, const char *self);

/*
 * eip93_algs_build() - fill @table (EIP93_ALGS_MAX + 1 entries) with the
 * rows capable on @env (asked once the gate has opened), one entry per key
 * size: the delegate's names from @lib, the property definition @props, the
 * row's dispatch table and description; then the end.  Returns the entries
 * filled.
 */
size_t eip93_algs_build(OSSL_ALGORITHM *table, const struct eip93_sw_lib *lib,
			const struct eip93_alg_env *env, const char *props);

#endif /* EIP93_ALGS_H */
