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

/*
 * The delegate runs its own record path over an empty record (explicit IV ||
 * 16 tag bytes): encrypting it hands out the explicit IV and counts on,
 * decrypting it takes @rec's explicit IV; either way it sets its tag length,
 * finishes the IV and ends the pending record, exactly as the real record
 * would have (an empty record's tag is refused when decrypting: its state is
 * the same; the record AAD in its buffer is only read).  Returns the
 * delegate's answer; @rec gets the explicit IV.
 */
static int delegate_record(struct gcm_ctx *ctx, void *swctx, unsigned char *rec)
{
	unsigned char dummy[EIV + TAG] = { 0 };
	size_t n = 0;
	int ok;

	if (!ctx->sh.enc)
		memcpy(dummy, rec, EIV);
	ERR_set_mark();
	ok = ctx->sw->cipher(swctx, dummy, &n, sizeof(dummy), dummy, sizeof(dummy));
	ERR_pop_to_mark();
	if (ctx->sh.enc && ok)
		memcpy(rec, dummy, EIV);
	return ok;
}

/*
 * Engine encryption of a record in place.  The delegate's empty record runs
 * first, on a copy of the delegate: it decides, as for the real one (whose
 * refusal does not depend on the payload), and hands out the explicit IV.
 * The copy becomes the delegate only when the engine's record is released;
 * otherwise the delegate never saw this record and software makes it (or
 * refuses it, with its own errors) from exactly the state the caller left.
 * Returns 0, REFUSED, WRONG or -errno (then nothing changed).
 */
#define REFUSED 2
static int record_seal(struct gcm_ctx *ctx, unsigned char *rec, size_t len)
{
	unsigned char iv[EIP93_ENGINE_IVLEN], tag[TAG], eiv[EIV], *body = rec + EIV, *buf;
	void *copy = ctx->sw->dupctx != NULL ? ctx->sw->dupctx(ctx->swctx) : NULL;
	int r;

	if (copy == NULL)
		return -ENOMEM;
	if (!delegate_record(ctx, copy, eiv)) {
		ctx->sw->freectx(copy);
		return REFUSED;
	}
	buf = NULL;
	r = -EINVAL;
	if (eip93_shadow_tls_iv(&ctx->sh, eiv, iv) < 0)
		goto fail;
	r = -ENOMEM;
	buf = OPENSSL_malloc(len);
	if (buf == NULL)
		goto fail;
	r = eip93_engine_aead(ctx, 1, iv, ctx->sh.tls_aad, sizeof(ctx->sh.tls_aad), body, len, buf,
			      tag);
	if (r == 0 && eip93_verify_keystream(ctx, iv, sizeof(ctx->sh.tls_aad), body, buf, len) != 0)
		r = EIP93_ENGINE_WRONG;
	if (r == 0) {
		memcpy(rec, eiv, EIV);
		memcpy(body, buf, len);
		memcpy(body + len, tag, TAG);
		OPENSSL_free(buf); /* ciphertext only */
		ctx->sw->freectx(ctx->swctx);
		ctx->swctx = copy;
		return 0;
	}
	OPENSSL_clear_free(buf, len);
fail:
	ctx->sw->freectx(copy);
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
	if (r == 0 &&
	    eip93_verify_keystream(ctx, iv, sizeof(ctx->sh.tls_aad), copy, body, len) != 0)
		r = EIP93_ENGINE_WRONG;
	/* The empty record's tag is refused, as planned: the state is a real record's. */
	if (r == 0)
		(void)delegate_record(ctx, ctx->swctx, rec);
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

	m.engine_available =
		atomic_load_explicit(&ctx->env->engine_available, memory_order_relaxed);
	m.key_set = ctx->key.set;
	m.key_failed = ctx->key.failed;
	m.enc = ctx->sh.enc;
	m.ivlen = ctx->sh.ivlen;
	m.tls = 1;
	/* Decrypting, the delegate takes the explicit IV only with IV generation on. */
	m.tls_ok = ctx->sh.tls == EIP93_TLS_SET && in == out && in != NULL && inl >= EIV + TAG &&
		   eip93_shadow_tls_iv(&ctx->sh, in, probe_iv) == 0 && (ctx->sh.enc || ctx->sh.gen);
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
		if (e == -EINVAL || e == REFUSED)
			r = EIP93_SW_TLS;
		else
			r = eip93_engine_outcome(ctx, e, "tls record");
	}
	eip93_count_sw(ctx, r);
	if (r == EIP93_SW_ADAPT)
		eip93_adapt_clock(&at); /* adaptive routing: a software sample */
	ok = sw_op(ctx->swctx, out, outl, outsize, in, inl);
	if (r == EIP93_SW_ADAPT)
		eip93_adapt_end(&at, ok);
	if (ok && ctx->engine_rejected)
		eip93_engine_fault(ctx,
				   "a TLS record tag the engine refused and software accepted");
	ctx->engine_rejected = 0;
	eip93_shadow_ev(ctx, EIP93_EV_TLS_RECORD, NULL, 0);
	return ok;
}
