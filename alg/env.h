// SPDX-License-Identifier: Apache-2.0
/*
 * The cipher core's face toward provider/: what every cipher's functions
 * need from the provider instance (struct eip93_alg_env), the engine's
 * limits, and the release of what the core caches in it.  Cipher-independent;
 * the ciphers offered are rows (cipher.h).
 */
#ifndef EIP93_ENV_H
#define EIP93_ENV_H

#include <stdatomic.h>

#include <openssl/core.h>
#include <openssl/types.h>

#include "adapt.h"
#include "../engine/engine.h"
#include "route.h"
#include "stats.h"
#include "sw.h"

/* AES key lengths (16, 24, 32 bytes): the integrity check's AES-ECB, one per length. */
#define EIP93_AES_NKEYLENS 3

/*
 * What the cipher functions need from the provider instance.  The provider
 * context handed to OpenSSL must begin with this structure: the dispatch
 * functions receive that context and read it as a struct eip93_alg_env.
 */
struct eip93_alg_env {
	const struct eip93_sw_impl
		*sw; /* the delegates (eip93_sw_find(), ends with a zeroed one) */
	/* The engine's payload window, per mode (enum eip93_engine_mode). */
	struct eip93_route_limits limits[EIP93_EMODES];
	struct eip93_stats *stats;
	const struct eip93_engine_ops *engine; /* the backend eligible messages go to */
	OSSL_LIB_CTX *libctx;		       /* the delegate's library context */
	char kalg[64];			       /* kernel algorithm the gate bound */
	/*
	 * The SoC driver's AES-CTR and AES-CBC (EIP93_EMODE_CTR, _CBC - 1) as
	 * bound on the gate's road; "": not served by the engine.
	 */
	char skc_kalg[2][64];
	unsigned int max_sockets;    /* process-wide AF_ALG socket cap */
	unsigned int timeout_ms;     /* socket send/receive timeout */
	unsigned int max_faults;     /* wrong engine results after which it is off */
	int verify;		     /* check every engine result (test builds may turn it off) */
	unsigned int tag_check;	     /* kernel AES-GCM: 1 in N tags recomputed (0: none) */
	int ahead;		     /* keystream ahead (AES-GCM CTR-only, alg/gcm/ahead.c) */
	atomic_int engine_available; /* gate open and engine not disabled */
	atomic_uint consecutive_errors; /* engine errors since the last success */
	atomic_uint faults;		/* wrong engine results so far (never reset) */
	_Atomic(EVP_CIPHER *) ecb[EIP93_AES_NKEYLENS]; /* AES-ECB for the integrity check */
	atomic_int disable_claimed;		       /* the one thread that writes the reason */
	atomic_int engine_disabled; /* set (release) once the reason is written */
	char disabled_reason[192];
	/* Called once per env after the first key passes its check (the notice). */
	void (*on_first_engine)(struct eip93_alg_env *env);
	atomic_int first_engine_done;
	struct eip93_adapt *adapt;	 /* adaptive routing's estimates; NULL: fixed routing */
	struct eip93_verdicts *verdicts; /* the key checks passed (verdict.c); NULL until used */
};

/* Consecutive engine errors after which the engine is off for the process. */
#define EIP93_ENGINE_MAX_ERRORS 8
/*
 * Wrong engine results (a failed known-answer check, a failed integrity check,
 * a tag the engine refused that software accepts) after which the engine is
 * off for the process: the default of env->max_faults.
 */
#define EIP93_ENGINE_MAX_FAULTS 8

/*
 * eip93_env_kalg() - the kernel algorithm a key of @mode opens on ("": none;
 * no cipher's keys open on AES-ECB alone: it serves AES-GCM's ECB composition).
 */
static inline const char *eip93_env_kalg(const struct eip93_alg_env *env,
					 enum eip93_engine_mode mode)
{
	if (mode == EIP93_EMODE_AEAD)
		return env->kalg;
	if (mode != EIP93_EMODE_CTR && mode != EIP93_EMODE_CBC)
		return "";
	return env->skc_kalg[mode - EIP93_EMODE_CTR];
}

/* eip93_alg_env_free() - release what the cipher core cached in @env (ctx.c). */
void eip93_alg_env_free(struct eip93_alg_env *env);

/*
 * eip93_verdict_free() - forget (cleansed) the key checks' verdicts @env
 * keeps: every key is checked again at its next open (verdict.c).
 */
void eip93_verdict_free(struct eip93_alg_env *env);

#endif /* EIP93_ENV_H */
