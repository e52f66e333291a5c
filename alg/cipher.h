// SPDX-License-Identifier: Apache-2.0
/*
 * A cipher row: one cipher the provider offers, as provider/algs.c builds
 * the OSSL_ALGORITHM table from it and as the core (key.c) reaches the
 * cipher's own key steps.  Each cipher's room (alg/gcm/, ...) defines its
 * row; a new cipher is a sibling room and one line in provider/algs.c.
 */
#ifndef EIP93_CIPHER_H
#define EIP93_CIPHER_H

#include <stddef.h>

#include <openssl/core.h>

#include "../engine/engine.h"

/* Key sizes a row may offer (AES: 128, 192, 256). */
#define EIP93_CIPHER_MAXKEYS 3

struct eip93_cctx;
struct eip93_alg_env;

struct eip93_cipher {
	const char *name;	 /* in texts, e.g. "AES-GCM" */
	const char *description; /* the OSSL_ALGORITHM's algorithm_description */
	size_t nkeys;		 /* key sizes offered: names[0 .. nkeys) */
	/*
	 * Per key size: the delegate's cipher is fetched under this name
	 * (sw.c), and its own names are the ones registered.
	 */
	const char *names[EIP93_CIPHER_MAXKEYS];
	const OSSL_DISPATCH *functions[EIP93_CIPHER_MAXKEYS]; /* per key size: what is registered */
	/*
	 * What the kernel algorithm its keys open on computes: AEAD (the one
	 * the gate bound, env->kalg) or an skcipher mode (the SoC driver's
	 * algorithm of that mode the provider found bound on the gate's road,
	 * eip93_env_kalg()).
	 */
	enum eip93_engine_mode engine_mode;
	/*
	 * Offered?  Asked when the table is built, once the gate has opened
	 * (a closed gate offers nothing): what this build, this libcrypto and
	 * the engine found on the gate's road can carry.  NULL: yes.
	 */
	int (*capable)(const struct eip93_alg_env *env);

	/*
	 * key.c's hooks, on the base context the cipher's context begins with:
	 * the per-key setup after the key's AES-ECB (verify.c) is ready, 0 or
	 * -errno (NULL: none); its release (NULL: none); the known-answer
	 * check of a freshly opened engine key, 0, -EBADMSG (a wrong answer)
	 * or the engine's -errno.
	 */
	int (*key_init)(struct eip93_cctx *ctx);
	void (*key_free)(struct eip93_cctx *ctx);
	int (*key_check)(struct eip93_cctx *ctx);
};

#endif /* EIP93_CIPHER_H */
