// SPDX-License-Identifier: Apache-2.0
/*
 * AES-GCM as OpenSSL callers see it.  This file's dispatch tables are what
 * the provider registers; every call reaches the software delegate unless
 * the routing decision sends a message to the engine.
 */
#ifndef EIP93_GCM_H
#define EIP93_GCM_H

#include <stdatomic.h>

#include <openssl/core.h>
#include <openssl/types.h>

#include "adapt.h"
#include "../engine/engine.h"
#include "route.h"
#include "stats.h"
#include "sw.h"

/*
 * What the cipher functions need from the provider instance.  The provider
 * context handed to OpenSSL must begin with this structure: the dispatch
 * functions below receive that context and read it as a struct eip93_alg_env.
 */
struct eip93_alg_env {
	const struct eip93_sw_impl *sw; /* [EIP93_NKEYSIZES] */
	struct eip93_route_limits limits;
	struct eip93_stats *stats;
	const struct eip93_engine_ops *engine; /* the backend eligible messages go to */
	OSSL_LIB_CTX *libctx;		       /* the delegate's library context */
	char kalg[64];			       /* kernel algorithm the gate bound */
	unsigned int max_sockets;	       /* process-wide AF_ALG socket cap */
	unsigned int timeout_ms;	       /* socket send/receive timeout */
	unsigned int max_faults;	       /* wrong engine results after which it is off */
	int verify;		     /* check every engine result (test builds may turn it off) */
	unsigned int tag_check;	     /* kernel AES-GCM: 1 in N tags recomputed (0: none) */
	atomic_int engine_available; /* gate open and engine not disabled */
	atomic_uint consecutive_errors;		    /* engine errors since the last success */
	atomic_uint faults;			    /* wrong engine results so far (never reset) */
	_Atomic(EVP_CIPHER *) ecb[EIP93_NKEYSIZES]; /* AES-ECB for the integrity check */
	atomic_int disable_claimed;		    /* the one thread that writes the reason */
	atomic_int engine_disabled;		    /* set (release) once the reason is written */
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
 * Kernel AES-GCM compositions: the tags of a key's first this many engine
 * messages are recomputed in software, then 1 in env->tag_check (default).
 */
#define EIP93_TAG_CHECK_FIRST 4
#define EIP93_TAG_CHECK_DEFAULT 64

extern const OSSL_DISPATCH eip93_gcm_functions[EIP93_NKEYSIZES][24];

/*
 * eip93_compose_selftest() - does this libcrypto's GCM128 leave whole blocks
 * to a stream function (not so when built with OPENSSL_SMALL_FOOTPRINT)?
 * The CTR-only composition needs it; 0 or -ENOTSUP.
 */
int eip93_compose_selftest(void);

/* eip93_alg_env_free() - release what the cipher code cached in @env. */
void eip93_alg_env_free(struct eip93_alg_env *env);

/*
 * eip93_verdict_free() - forget (cleansed) the key checks' verdicts @env
 * keeps: every key is checked again at its next open.
 */
void eip93_verdict_free(struct eip93_alg_env *env);

#endif /* EIP93_GCM_H */
