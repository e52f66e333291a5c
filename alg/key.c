// SPDX-License-Identifier: Apache-2.0
/*
 * The base context's key: kept for the lazy engine open, verified by the
 * cipher's known-answer check (its row's key_check) when its engine key
 * opens (unless the context it was copied from, or the instance's verdicts,
 * verdict.c, say these key bytes passed in this process), forgotten
 * (cleansed) when replaced.  What opening and checking it showed is a
 * runtime outcome (route.h), accounted by account.c.
 */
#include "key.h"
#include "account.h"
#include "verdict.h"
#include "verify.h"
#include "../detect/sandbox.h"

#include <errno.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#include <openssl/crypto.h>

void eip93_key_forget(struct eip93_cctx *ctx)
{
	ctx->env->engine->key_close(&ctx->key.ek);
	if (ctx->cipher->key_free != NULL)
		ctx->cipher->key_free(ctx);
	eip93_verify_key_free(ctx);
	OPENSSL_cleanse(ctx->key.bytes, sizeof(ctx->key.bytes));
	ctx->key.set = 0;
	ctx->key.failed = 0;
	ctx->key.verified_pid = 0;
}

void eip93_key_take(struct eip93_cctx *ctx, const unsigned char *key, size_t keylen)
{
	struct eip93_key *k = &ctx->key;

	if (k->set && keylen == k->len && keylen <= sizeof(k->bytes) &&
	    CRYPTO_memcmp(key, k->bytes, keylen) == 0)
		return; /* same key: keep the verified engine key */
	eip93_key_forget(ctx);
	if (keylen == 16 || keylen == 24 || keylen == 32) {
		memcpy(k->bytes, key, keylen);
		k->len = keylen;
		k->set = 1;
	}
}

enum eip93_sw_reason eip93_key_ready(struct eip93_cctx *ctx)
{
	struct eip93_alg_env *env = ctx->env;
	struct eip93_stats *st = env->stats;
	struct eip93_engine_cfg cfg;
	struct eip93_route_run o = { .stage = EIP93_STAGE_SANDBOX };
	struct eip93_verdict_query q;
	enum eip93_sw_reason why;
	int r, verified, checked = 0;

	if (env->engine->key_is_open(&ctx->key.ek))
		return EIP93_SW_NONE;
	if (eip93_sandboxed())
		return eip93_route_outcome(
			&o); /* no socket() in a sandbox; tried at the next key */
	cfg.kalg = eip93_env_kalg(env, ctx->cipher->engine_mode);
	cfg.max_sockets = env->max_sockets;
	cfg.timeout_ms = env->timeout_ms;
	cfg.libctx = env->libctx;
	r = env->engine->key_open(&ctx->key.ek, &cfg, ctx->key.bytes, ctx->key.len);
	if (r < 0) {
		o.stage = EIP93_STAGE_OPEN;
		o.err = r;
		o.at_cap = env->engine->resources() + 2 > env->max_sockets;
		why = eip93_route_outcome(&o);
		if (why == EIP93_SW_ERROR)
			(void)eip93_account_error(ctx, r, "open");
		return why;
	}
	r = eip93_verify_key_init(ctx);
	if (r == 0 && ctx->cipher->key_init != NULL)
		r = ctx->cipher->key_init(ctx);
	/*
	 * A copy of a context whose key passed keeps that verdict, and so does
	 * any context whose key bytes passed in this process on this instance
	 * since its last engine error or fault (verdict.c): the same key bytes
	 * on the same engine (its own sockets; every result is still checked,
	 * verify.c).  A copy-per-message caller pays one check, whether or not
	 * the context it copies ever ran a message.
	 */
	verified = ctx->key.verified_pid == (int)getpid();
	if (r == 0 && !verified) {
		verified = eip93_verdict_find(ctx, &q);
		if (!verified) {
			r = ctx->cipher->key_check(ctx);
			checked = 1;
			eip93_verdict_keep(ctx, &q, r == 0); /* kept if passed, else forgotten */
		} else {
			OPENSSL_cleanse(&q, sizeof(q));
		}
	}
	if (r < 0) {
		o.stage = EIP93_STAGE_KEYCHECK;
		o.err = r;
		why = eip93_route_outcome(&o);
		if (why == EIP93_SW_ERROR) {
			env->engine->key_close(&ctx->key.ek); /* tried again at the next message */
			return why;
		}
		eip93_stat_add(&st->key_checks_failed, 1);
		if (r == -EBADMSG) {
			/* A wrong answer: this key stays in software, and the engine is suspect. */
			eip93_account_fault(ctx, "known-answer check");
		} else {
			ctx->key.failed = 1;
			(void)eip93_account_error(ctx, r, "key check");
		}
		return why;
	}
	if (checked)
		eip93_stat_add(&st->key_checks_passed, 1);
	ctx->key.verified_pid = (int)getpid();
	atomic_store_explicit(&env->consecutive_errors, 0, memory_order_relaxed);
	if (env->on_first_engine != NULL && !atomic_exchange(&env->first_engine_done, 1))
		env->on_first_engine(env);
	return EIP93_SW_NONE;
}
