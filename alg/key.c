// SPDX-License-Identifier: Apache-2.0
/*
 * The cipher context's key: kept for the lazy engine open, verified by a
 * known-answer check when its engine key opens (unless the context it was
 * copied from, or the instance's verdicts, verdict.c, say these key bytes
 * passed in this process), forgotten (cleansed) when replaced.  What opening and checking it showed is a runtime outcome
 * (route.h), accounted by account.c.
 */
#include "ctx.h"
#include "../detect/sandbox.h"

#include <errno.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>

#define KAT_LEN 16384 /* the shape of a full TLS record */
#define KAT_SHORT 512 /* the bad-tag check's message */
#define KAT_PAGE 4096
#define KAT_BEFORE_PAGE 96 /* the message starts this far before a page boundary */
#define KAT_AAD 13
#define KAT_CTR_BLKS ((size_t)32) /* the CTR-only check: 512 bytes */

void eip93_key_forget(struct gcm_ctx *ctx)
{
	ctx->env->engine->key_close(&ctx->key.ek);
	eip93_compose_key_free(ctx);
	eip93_verify_key_free(ctx);
	OPENSSL_cleanse(ctx->key.bytes, sizeof(ctx->key.bytes));
	ctx->key.set = 0;
	ctx->key.failed = 0;
	ctx->key.verified_pid = 0;
}

void eip93_key_take(struct gcm_ctx *ctx, const unsigned char *key, size_t keylen)
{
	struct gcm_key *k = &ctx->key;

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

/* AES-GCM encryption by the delegate in a context of its own, with the context's key. */
int eip93_key_sw_seal(struct gcm_ctx *ctx, const unsigned char *iv, const unsigned char *aad,
		      size_t aadlen, const unsigned char *in, size_t len, unsigned char *out,
		      unsigned char *tag)
{
	const struct eip93_sw_impl *sw = ctx->sw;
	OSSL_PARAM p[2];
	size_t n = 0, n2 = 0;
	void *t = sw->newctx(sw->provctx);
	int ok;

	if (t == NULL)
		return 0;
	p[0] = OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, tag,
						 EIP93_ENGINE_TAGLEN);
	p[1] = OSSL_PARAM_construct_end();
	ok = sw->einit(t, ctx->key.bytes, ctx->key.len, iv, EIP93_ENGINE_IVLEN, NULL) &&
	     sw->update(t, NULL, &n, aadlen, aad, aadlen) && sw->update(t, out, &n, len, in, len) &&
	     sw->final(t, out + n, &n2, 0) && sw->get_ctx_params(t, p);
	sw->freectx(t);
	return ok;
}

/*
 * The known answers: a 16 KiB message in place across a page boundary (the
 * shape of real traffic) sealed by the engine and compared with the
 * delegate, opened back in place, and a 512-byte message whose tag has one
 * bit flipped, which must be refused.  Three engine calls.  Returns 0,
 * -EBADMSG (a wrong answer) or the engine's -errno.
 */
static int key_check(struct gcm_ctx *ctx)
{
	unsigned char aad[KAT_AAD], iv[EIP93_ENGINE_IVLEN], tag_e[16], tag_s[16], tag_short[16];
	unsigned char back[KAT_SHORT], *raw, *buf, *ref;
	size_t rawlen = 2 * KAT_LEN + 3 * KAT_PAGE;
	int ret;

	raw = OPENSSL_malloc(rawlen);
	if (raw == NULL)
		return -ENOMEM;
	buf = raw + KAT_PAGE - ((uintptr_t)raw % KAT_PAGE) + KAT_PAGE - KAT_BEFORE_PAGE;
	ref = buf + KAT_LEN + KAT_BEFORE_PAGE;
	for (size_t i = 0; i < KAT_LEN; i++)
		buf[i] = (unsigned char)(i * 7 + 3);
	for (size_t i = 0; i < sizeof(aad); i++)
		aad[i] = (unsigned char)(0xa0 + i);
	for (size_t i = 0; i < sizeof(iv); i++)
		iv[i] = (unsigned char)(0x5c ^ i);

	ret = -ENOMEM;
	if (!eip93_key_sw_seal(ctx, iv, aad, KAT_AAD, buf, KAT_LEN, ref, tag_s) ||
	    !eip93_key_sw_seal(ctx, iv, aad, KAT_AAD, buf, KAT_SHORT, back, tag_short))
		goto out;
	ret = eip93_engine_request(ctx, 1, iv, aad, KAT_AAD, buf, KAT_LEN, buf, tag_e);
	if (ret < 0)
		goto out;
	ret = -EBADMSG;
	if (CRYPTO_memcmp(buf, ref, KAT_LEN) != 0 || CRYPTO_memcmp(tag_e, tag_s, 16) != 0)
		goto out;
	ret = eip93_engine_request(ctx, 0, iv, aad, KAT_AAD, buf, KAT_LEN, buf, tag_e);
	if (ret < 0)
		goto out;
	for (size_t i = 0; i < KAT_LEN; i++) {
		if (buf[i] != (unsigned char)(i * 7 + 3)) {
			ret = -EBADMSG;
			goto out;
		}
	}
	tag_short[5] ^= 0x10;
	ret = eip93_engine_request(ctx, 0, iv, aad, KAT_AAD, ref, KAT_SHORT, back, tag_short);
	ret = ret == -EBADMSG ? 0 : ret < 0 ? ret : -EBADMSG;
out:
	OPENSSL_cleanse(back, sizeof(back));
	OPENSSL_clear_free(raw, rawlen);
	return ret;
}

/*
 * The CTR-only composition's known answer: one engine AES-CTR request of
 * KAT_CTR bytes in place across a page boundary, compared block by block
 * with the key's software AES.  The tag never comes from the engine and
 * every message's keystream is sampled before release (verify.c), so what
 * is left to find before the first message is a fault of the key itself
 * (its schedule or length in the engine), which makes every block wrong.
 * One request; returns 0, -EBADMSG (a wrong answer) or the engine's -errno.
 */
static int ctr_key_check(struct gcm_ctx *ctx)
{
	unsigned char page[KAT_PAGE + KAT_CTR_BLKS * 16], cb[KAT_CTR_BLKS][16], *buf;
	uintptr_t a = (uintptr_t)page + KAT_BEFORE_PAGE;
	int ret, n, ok = 1;

	/* KAT_BEFORE_PAGE bytes before the first page boundary after page + KAT_BEFORE_PAGE */
	buf = page + (KAT_PAGE - a % KAT_PAGE);
	for (size_t i = 0; i < KAT_CTR_BLKS; i++) {
		for (size_t j = 0; j < 12; j++)
			cb[i][j] = (unsigned char)(0x5c ^ j);
		cb[i][12] = cb[i][13] = 0;
		cb[i][14] = (unsigned char)((2 + i) >> 8);
		cb[i][15] = (unsigned char)(2 + i);
	}
	memset(buf, 0, KAT_CTR_BLKS * 16);
	ret = eip93_engine_ctr(ctx, cb[0], buf, buf, KAT_CTR_BLKS * 16);
	/* Over zeros, the engine's output is its keystream: AES of the counter blocks. */
	if (ret == 0) {
		ok = EVP_EncryptUpdate(ctx->key.ecb, cb[0], &n, cb[0], (int)sizeof(cb)) &&
		     n == (int)sizeof(cb);
		ret = !ok ? -ENOMEM : CRYPTO_memcmp(buf, cb, sizeof(cb)) != 0 ? -EBADMSG : 0;
	}
	OPENSSL_cleanse(page, sizeof(page));
	OPENSSL_cleanse(cb, sizeof(cb));
	return ret;
}

enum eip93_sw_reason eip93_key_ready(struct gcm_ctx *ctx)
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
	cfg.kalg = env->kalg;
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
	if (r == 0)
		r = eip93_compose_key_init(ctx);
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
			r = ctx->key.ek.is_ctr ? ctr_key_check(ctx) : key_check(ctx);
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
