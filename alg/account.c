// SPDX-License-Identifier: Apache-2.0
/*
 * Accounting of what the engine did: messages and bytes on each path,
 * software messages by reason, engine errors classified by what they say
 * about the engine (route.h: a resource error says nothing), and faults
 * (wrong results).  Repeated errors or faults switch the engine off for
 * the process, with the reason kept for the status (docs/contract.md
 * "Switching on").
 */
#include "account.h"

#include <errno.h>
#include <stdatomic.h>
#include <string.h>

#include <openssl/bio.h>

void eip93_count_replay(struct eip93_cctx *ctx, size_t len)
{
	struct eip93_stats *st = ctx->env->stats;
	const struct eip93_route_run o = { .stage = EIP93_STAGE_REPLAY };

	atomic_fetch_sub_explicit(&st->engine_messages, 1, memory_order_relaxed);
	atomic_fetch_sub_explicit(&st->engine_bytes, len, memory_order_relaxed);
	eip93_count_sw(ctx, eip93_route_outcome(&o));
}

/* Switch the engine off for the process; the first caller writes why. */
static void engine_disable(struct eip93_alg_env *env, const char *fmt, unsigned int n,
			   const char *where, const char *what)
{
	if (atomic_exchange(&env->disable_claimed, 1))
		return;
	BIO_snprintf(env->disabled_reason, sizeof(env->disabled_reason), fmt, n, where, what);
	atomic_store(&env->engine_available, 0);
	atomic_store_explicit(&env->engine_disabled, 1, memory_order_release);
}

enum eip93_sw_reason eip93_account_error(struct eip93_cctx *ctx, int err, const char *where)
{
	struct eip93_alg_env *env = ctx->env;
	unsigned int n;

	/* Errors that say nothing about the engine: it keeps its standing. */
	if (eip93_route_resource_error(err))
		return EIP93_SW_ERROR;
	env->engine->key_close(&ctx->key.ek);
	ctx->key.verified_pid = 0; /* reopened after an engine error: checked again */
	eip93_stat_add(&env->stats->engine_errors, 1);
	n = atomic_fetch_add(&env->consecutive_errors, 1) + 1;
	if (n >= EIP93_ENGINE_MAX_ERRORS)
		engine_disable(
			env,
			strcmp(env->engine->name, "cryptodev") == 0
				? "engine: %u consecutive /dev/crypto errors (last: %s: %s); "
				  "software only for this process"
				: "engine: %u consecutive AF_ALG errors (last: %s: %s); "
				  "software only for this process",
			n, where, strerror(-err));
	return EIP93_SW_ERROR;
}

void eip93_account_fault(struct eip93_cctx *ctx, const char *what)
{
	struct eip93_alg_env *env = ctx->env;
	unsigned int n;

	ctx->key.failed = 1;
	ctx->key.ek.no_reuse = 1; /* a transform that computed a wrong result is never reused */
	env->engine->key_close(&ctx->key.ek);
	eip93_stat_add(&env->stats->engine_faults, 1);
	n = atomic_fetch_add(&env->faults, 1) + 1;
	if (n >= env->max_faults)
		engine_disable(env,
			       "engine: %u wrong results (last: %s: %s); "
			       "software only for this process",
			       n, "fault", what);
}

enum eip93_sw_reason eip93_account_outcome(struct eip93_cctx *ctx, int e, const char *where)
{
	const struct eip93_route_run o = { .stage = EIP93_STAGE_ENGINE, .err = e };
	enum eip93_sw_reason r = eip93_route_outcome(&o);

	if (r == EIP93_SW_FAULT) {
		eip93_account_fault(ctx, where);
	} else if (r == EIP93_SW_REFUSED) {
		/*
		 * The delegate decides, as it would have; if it accepts the same
		 * message, tag and direction, the engine was wrong (the cipher's
		 * dispatch, e.g. gcm/gcm.c).
		 */
		ctx->engine_rejected = 1;
		atomic_store_explicit(&ctx->env->consecutive_errors, 0, memory_order_relaxed);
	} else if (r == EIP93_SW_ERROR) {
		(void)eip93_account_error(ctx, e, where);
	}
	return r; /* EIP93_SW_TLS: a record the engine could not take says nothing of it */
}
