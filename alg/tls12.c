// SPDX-License-Identifier: Apache-2.0
/*
 * A TLS 1.2 GCM record on the engine: explicit IV (8) || payload || tag (16),
 * in place, after EVP_CTRL_AEAD_TLS1_AAD, through one update or the
 * one-shot EVP_Cipher.  The delegate keeps doing what its own record path
 * does to its state: it hands out the explicit IV (encrypting) or takes it
 * (decrypting), and ends the pending record; the engine does the payload.
 * The engine's result is verified before it is released.
 */
#include "ctx.h"

#include <errno.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/params.h>

#define EIV 8
#define TAG 16
#define WRONG 1 /* the engine's result failed its integrity check */

/* Put the delegate in the state its own record processing leaves. */
static void sync_delegate(struct gcm_ctx *ctx, const unsigned char *explicit_iv)
{
	unsigned char dummy[1] = { 0 };
	size_t n = 0;

	ERR_set_mark();
	if (!ctx->sh.enc) {
		OSSL_PARAM p[2];

		p[0] = OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_SET_IV_INV,
							 (void *)explicit_iv, EIV);
		p[1] = OSSL_PARAM_construct_end();
		(void)ctx->sw->set_ctx_params(ctx->swctx, p);
	}
	/* A record too short to process ends the delegate's pending record, nothing else. */
	if (ctx->sw->cipher != NULL)
		(void)ctx->sw->cipher(ctx->swctx, dummy, &n, 0, dummy, 0);
	ERR_pop_to_mark();
}

/* Give the delegate back the IV it handed out, after an engine encryption failed. */
static void unget_iv(struct gcm_ctx *ctx, const unsigned char *full_iv)
{
	OSSL_PARAM p[2];

	p[0] = OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_IV_FIXED,
						 (void *)full_iv, (size_t)-1);
	p[1] = OSSL_PARAM_construct_end();
	ERR_set_mark();
	(void)ctx->sw->set_ctx_params(ctx->swctx, p);
	ERR_pop_to_mark();
}

/* Engine encryption of a record in place; 0, WRONG or -errno (then nothing changed). */
static int record_seal(struct gcm_ctx *ctx, unsigned char *rec, size_t len)
{
	unsigned char iv[EIP93_ENGINE_IVLEN], tag[TAG], *body = rec + EIV, *buf;
	OSSL_PARAM p[2];
	int r;

	buf = OPENSSL_malloc(len);
	if (buf == NULL)
		return -ENOMEM;
	/* The delegate hands out the explicit IV and counts on, as in its own record path. */
	p[0] = OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_GET_IV_GEN, rec, EIV);
	p[1] = OSSL_PARAM_construct_end();
	ERR_set_mark();
	r = ctx->sw->get_ctx_params(ctx->swctx, p);
	ERR_pop_to_mark();
	if (!r || eip93_shadow_tls_iv(&ctx->sh, rec, iv) < 0) {
		OPENSSL_free(buf);
		return -EINVAL;
	}
	r = eip93_engine_aead(ctx, 1, iv, ctx->sh.tls_aad, sizeof(ctx->sh.tls_aad), body, len, buf,
			      tag);
	if (r == 0 && eip93_verify_keystream(ctx, iv, sizeof(ctx->sh.tls_aad), body, buf, len) != 0)
		r = WRONG;
	if (r == 0) {
		memcpy(body, buf, len);
		memcpy(body + len, tag, TAG);
		sync_delegate(ctx, rec);
		OPENSSL_free(buf); /* ciphertext only */
	} else {
		unget_iv(ctx, iv);
		OPENSSL_clear_free(buf, len);
	}
	return r;
}

/* Engine decryption of a record in place; 0, WRONG or -errno (then the record is restored). */
static int record_open(struct gcm_ctx *ctx, unsigned char *rec, size_t len)
{
	unsigned char iv[EIP93_ENGINE_IVLEN], *body = rec + EIV, *copy;
	int r;

	if (eip93_shadow_tls_iv(&ctx->sh, rec, iv) < 0)
		return -EINVAL;
	copy = OPENSSL_memdup(body, len);
	if (copy == NULL)
		return -ENOMEM;
	r = eip93_engine_aead(ctx, 0, iv, ctx->sh.tls_aad, sizeof(ctx->sh.tls_aad), body, len, body,
			      body + len);
	if (r == 0 && eip93_verify_keystream(ctx, iv, sizeof(ctx->sh.tls_aad), copy, body, len) != 0)
		r = WRONG;
	if (r == 0)
		sync_delegate(ctx, rec);
	else
		memcpy(body, copy, len);
	OPENSSL_free(copy); /* ciphertext only */
	return r;
}

int eip93_tls12_record(struct gcm_ctx *ctx, eip93_sw_op_fn sw_op, int oneshot, unsigned char *out,
		       size_t *outl, size_t outsize, const unsigned char *in, size_t inl)
{
	struct eip93_route_msg m = { 0 };
	struct eip93_adapt_tok at = { 0 };
	size_t len = inl >= EIV + TAG ? inl - EIV - TAG : 0;
	unsigned char probe_iv[EIP93_ENGINE_IVLEN];
	enum eip93_sw_reason r;
	int e, ok;

	m.engine_available = atomic_load_explicit(&ctx->env->engine_available,
						  memory_order_relaxed);
	m.key_set = ctx->key.set;
	m.key_failed = ctx->key.failed;
	m.enc = ctx->sh.enc;
	m.ivlen = ctx->sh.ivlen;
	m.tls = 1;
	m.tls_ok = ctx->sh.tls == EIP93_TLS_SET && in == out && in != NULL &&
		   inl >= EIV + TAG && eip93_shadow_tls_iv(&ctx->sh, in, probe_iv) == 0;
	m.taglen = TAG;
	m.aadlen = sizeof(ctx->sh.tls_aad);
	m.len = len;
	m.room = outsize >= inl;
	r = eip93_route(&ctx->env->limits, &m);
	/* adaptive routing: the estimate is the rule's last fact, asked of eligible ones only */
	if (r == EIP93_SW_NONE && eip93_adapt_begin(ctx, len, &at)) {
		m.adapt_sw = 1;
		r = eip93_route(&ctx->env->limits, &m);
	}
	if (r == EIP93_SW_NONE)
		r = eip93_key_ready(ctx);
	if (r == EIP93_SW_NONE) {
		eip93_adapt_clock(&at); /* adaptive routing */
		e = ctx->sh.enc ? record_seal(ctx, out, len) : record_open(ctx, out, len);
		eip93_adapt_end(&at, e == 0); /* adaptive routing */
		if (e == 0) {
			eip93_count_engine(ctx, len);
			eip93_shadow_ev(ctx, EIP93_EV_TLS_RECORD, NULL, 0);
			*outl = oneshot || ctx->sh.enc ? inl : len;
			return 1;
		}
		if (e == WRONG) {
			eip93_engine_fault(ctx, "keystream check of a TLS record");
			r = EIP93_SW_FAULT;
		} else if (e == -EBADMSG) {
			ctx->engine_rejected = 1;
			r = EIP93_SW_REPLAY;
			atomic_store_explicit(&ctx->env->consecutive_errors, 0, memory_order_relaxed);
		} else if (e == -EINVAL) {
			r = EIP93_SW_TLS; /* the delegate refuses to generate an IV: it says so */
		} else {
			r = eip93_engine_failed(ctx, e, "tls record");
		}
	}
	eip93_count_sw(ctx, r);
	if (r == EIP93_SW_ADAPT)
		eip93_adapt_clock(&at); /* adaptive routing: a software sample */
	ok = sw_op(ctx->swctx, out, outl, outsize, in, inl);
	if (r == EIP93_SW_ADAPT)
		eip93_adapt_end(&at, ok);
	if (ok && ctx->engine_rejected)
		eip93_engine_fault(ctx, "a TLS record tag the engine refused and software accepted");
	ctx->engine_rejected = 0;
	eip93_shadow_ev(ctx, EIP93_EV_TLS_RECORD, NULL, 0);
	return ok;
}
