// SPDX-License-Identifier: Apache-2.0
/*
 * AES-GCM cipher context: the dispatch functions OpenSSL calls.
 *
 * The context wraps the software delegate's context, which owns all GCM
 * semantics (IV state machine, tag rules, TLS record handling, errors) and
 * sees every call.  After each delegate call the shadow state (shadow.c)
 * moves, so the context always knows what the delegate holds; at the first
 * data of a message (or per TLS 1.2 record) the routing rule (route.c)
 * decides whether the engine does the data (offload.c, tls12.c).
 */
#include "ctx.h"

#include <string.h>

#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/params.h>
#include <openssl/proverr.h>

void eip93_shadow_ev(struct gcm_ctx *ctx, enum eip93_shadow_event ev, const unsigned char *data,
		     size_t len)
{
	struct eip93_shadow_ev e = { .ev = ev, .data = data, .len = len };

	eip93_shadow_move(&ctx->sh, &e);
}

void *eip93_gcm_newctx(void *provctx, enum eip93_keysize ks)
{
	struct eip93_alg_env *env = provctx;
	struct gcm_ctx *ctx;

	ctx = OPENSSL_zalloc(sizeof(*ctx));
	if (ctx == NULL)
		return NULL;
	ctx->env = env;
	ctx->sw = &env->sw[ks];
	eip93_shadow_init(&ctx->sh);
	eip93_engine_key_init(&ctx->key.ek);
	ctx->swctx = ctx->sw->newctx(ctx->sw->provctx);
	if (ctx->swctx == NULL) {
		OPENSSL_free(ctx);
		return NULL;
	}
	return ctx;
}

void eip93_gcm_freectx(void *vctx)
{
	struct gcm_ctx *ctx = vctx;

	if (ctx == NULL)
		return;
	eip93_key_forget(ctx);
	eip93_offload_drop(ctx);
	ctx->sw->freectx(ctx->swctx);
	OPENSSL_clear_free(ctx, sizeof(*ctx));
}

/*
 * Field by field: the engine key (sockets, and the links other threads'
 * registrations change) is never read from the source; the copy opens its
 * own when it needs them.
 */
void *eip93_gcm_dupctx(void *vctx)
{
	const struct gcm_ctx *src = vctx;
	struct gcm_ctx *dst;

	if (src->sw->dupctx == NULL)
		return NULL;
	dst = OPENSSL_zalloc(sizeof(*dst));
	if (dst == NULL)
		return NULL;
	dst->env = src->env;
	dst->sw = src->sw;
	dst->sh = src->sh;
	memcpy(dst->key.bytes, src->key.bytes, sizeof(dst->key.bytes));
	dst->key.len = src->key.len;
	dst->key.set = src->key.set;
	dst->key.failed = src->key.failed;
	eip93_engine_key_init(&dst->key.ek);
	memcpy(dst->mtag, src->mtag, sizeof(dst->mtag));
	dst->engine_rejected = src->engine_rejected;
	if (src->ct != NULL) {
		dst->ct = OPENSSL_memdup(src->ct, src->ctlen);
		if (dst->ct == NULL)
			goto err;
		dst->ctlen = src->ctlen;
	}
	dst->swctx = src->sw->dupctx(src->swctx);
	if (dst->swctx == NULL)
		goto err;
	return dst;
err:
	eip93_offload_drop(dst);
	OPENSSL_clear_free(dst, sizeof(*dst));
	return NULL;
}

/* After a refused call: the delegate's IV length is whatever it took; ask it. */
static void resync_ivlen(struct gcm_ctx *ctx)
{
	size_t ivlen = 0;
	OSSL_PARAM p[2];

	p[0] = OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, &ivlen);
	p[1] = OSSL_PARAM_construct_end();
	ERR_set_mark();
	if (ctx->sw->get_ctx_params(ctx->swctx, p) && ivlen != 0)
		eip93_shadow_ev(ctx, EIP93_EV_IVLEN, NULL, ivlen);
	ERR_pop_to_mark();
}

/* Does a parameter set carry a TLS record AAD (which the delegate may take even when refusing)? */
static int has_tls_aad(const OSSL_PARAM params[])
{
	return params != NULL &&
	       OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_AEAD_TLS1_AAD) != NULL;
}

/* Does a parameter set carry a tag (which the delegate copies in even when refusing it)? */
static int has_tag(const OSSL_PARAM params[])
{
	return params != NULL &&
	       OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_AEAD_TAG) != NULL;
}

/* The delegate accepted @params: move the shadow state in the order it applies them. */
static void shadow_params(struct gcm_ctx *ctx, const OSSL_PARAM params[])
{
	static const char *const order[] = { OSSL_CIPHER_PARAM_AEAD_TAG,
					     OSSL_CIPHER_PARAM_AEAD_IVLEN,
					     OSSL_CIPHER_PARAM_AEAD_TLS1_AAD,
					     OSSL_CIPHER_PARAM_AEAD_TLS1_IV_FIXED,
					     OSSL_CIPHER_PARAM_AEAD_TLS1_SET_IV_INV };
	static const enum eip93_shadow_event evs[] = { EIP93_EV_TAG, EIP93_EV_IVLEN,
						       EIP93_EV_TLS_AAD, EIP93_EV_IV_FIXED,
						       EIP93_EV_IV_INV };
	const OSSL_PARAM *p;
	size_t sz;

	if (params == NULL || params[0].key == NULL)
		return;
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		p = OSSL_PARAM_locate_const(params, order[i]);
		if (p == NULL)
			continue;
		if (evs[i] == EIP93_EV_IVLEN) {
			if (OSSL_PARAM_get_size_t(p, &sz))
				eip93_shadow_ev(ctx, EIP93_EV_IVLEN, NULL, sz);
		} else if (p->data != NULL) {
			eip93_shadow_ev(ctx, evs[i], p->data, p->data_size);
		}
	}
}

/*
 * Only an IV starts a new message.  An init without one (key only, or
 * nothing: a change of direction) continues the current message in the
 * delegate, so an engine message is replayed into it first.
 */
static int gcm_init(struct gcm_ctx *ctx, int enc, const unsigned char *key, size_t keylen,
		    const unsigned char *iv, size_t ivlen, const OSSL_PARAM params[])
{
	struct eip93_shadow_ev e = { .enc = enc, .data = iv, .len = ivlen };
	int ok;

	if (!eip93_offload_replay(ctx))
		return 0;
	if (enc)
		ok = ctx->sw->einit(ctx->swctx, key, keylen, iv, ivlen, params);
	else
		ok = ctx->sw->dinit(ctx->swctx, key, keylen, iv, ivlen, params);
	if (!ok) {
		/* The delegate may have taken the IV and the key before a parameter failed. */
		e.ev = EIP93_EV_INIT_FAILED;
		e.may_tls = has_tls_aad(params);
		e.may_tag = has_tag(params);
		eip93_shadow_move(&ctx->sh, &e);
		resync_ivlen(ctx);
		if (key != NULL)
			eip93_key_forget(ctx);
		return 0;
	}
	if (key != NULL)
		eip93_key_take(ctx, key, keylen);
	if (iv != NULL)
		ctx->engine_rejected = 0;
	e.ev = EIP93_EV_INIT;
	e.has_key = key != NULL;
	eip93_shadow_move(&ctx->sh, &e);
	shadow_params(ctx, params);
	return 1;
}

int eip93_gcm_einit(void *vctx, const unsigned char *key, size_t keylen, const unsigned char *iv,
		    size_t ivlen, const OSSL_PARAM params[])
{
	return gcm_init(vctx, 1, key, keylen, iv, ivlen, params);
}

int eip93_gcm_dinit(void *vctx, const unsigned char *key, size_t keylen, const unsigned char *iv,
		    size_t ivlen, const OSSL_PARAM params[])
{
	return gcm_init(vctx, 0, key, keylen, iv, ivlen, params);
}

/* A message ends in software: count one without data, check a refused engine tag. */
static int sw_ended(struct gcm_ctx *ctx, int ok)
{
	if (ctx->sh.msg == EIP93_MSG_IDLE && ctx->sh.tls == EIP93_TLS_NONE)
		eip93_count_sw(ctx, eip93_offload_reason_empty(ctx));
	if (ok && ctx->engine_rejected)
		eip93_engine_fault(ctx, "a tag the engine refused and software accepted");
	ctx->engine_rejected = 0;
	eip93_shadow_ev(ctx, EIP93_EV_FINAL, NULL, 0);
	return ok;
}

int eip93_gcm_update(void *vctx, unsigned char *out, size_t *outl, size_t outsize,
		     const unsigned char *in, size_t inl)
{
	struct gcm_ctx *ctx = vctx;
	int ok;

	/* The delegate ignores an empty update entirely, a pending record AAD included. */
	if (inl == 0)
		return ctx->sw->update(ctx->swctx, out, outl, outsize, in, inl);
	if (ctx->sh.tls != EIP93_TLS_NONE)
		return eip93_tls12_record(ctx, ctx->sw->update, 0, out, outl, outsize, in, inl);
	if (!eip93_offload_replay(ctx))
		return 0;
	if (in != NULL && out != NULL && ctx->sh.msg == EIP93_MSG_IDLE)
		return eip93_offload_first_data(ctx, ctx->sw->update, out, outl, outsize, in, inl);
	ok = ctx->sw->update(ctx->swctx, out, outl, outsize, in, inl);
	if (in == NULL)
		return sw_ended(ctx, ok); /* the delegate takes no input as its final */
	if (out != NULL)
		ctx->engine_rejected = 0; /* more data: the engine saw another message */
	if (ok)
		eip93_shadow_ev(ctx, out == NULL ? EIP93_EV_AAD : EIP93_EV_DATA, in, inl);
	else if (out != NULL)
		eip93_shadow_ev(ctx, EIP93_EV_DATA, NULL, inl);
	return ok;
}

int eip93_gcm_final(void *vctx, unsigned char *out, size_t *outl, size_t outsize)
{
	struct gcm_ctx *ctx = vctx;

	if (ctx->sh.msg == EIP93_MSG_ENGINE)
		return eip93_offload_final(ctx, out, outl, outsize);
	return sw_ended(ctx, ctx->sw->final(ctx->swctx, out, outl, outsize));
}

int eip93_gcm_cipher(void *vctx, unsigned char *out, size_t *outl, size_t outsize,
		     const unsigned char *in, size_t inl)
{
	struct gcm_ctx *ctx = vctx;
	int ok;

	if (ctx->sw->cipher == NULL)
		return 0;
	if (ctx->sh.tls != EIP93_TLS_NONE)
		return eip93_tls12_record(ctx, ctx->sw->cipher, 1, out, outl, outsize, in, inl);
	if (in == NULL) {
		if (ctx->sh.msg == EIP93_MSG_ENGINE) {
			ok = eip93_offload_final(ctx, out, outl, outsize);
			if (ok)
				*outl = 0;
			return ok;
		}
		return sw_ended(ctx, ctx->sw->cipher(ctx->swctx, out, outl, outsize, in, inl));
	}
	/* One-shot data or AAD: the delegate's rules (and outl = inl) apply. */
	if (!eip93_offload_replay(ctx))
		return 0;
	if (out != NULL && ctx->sh.msg == EIP93_MSG_IDLE && inl > 0)
		return eip93_offload_first_data(ctx, ctx->sw->cipher, out, outl, outsize, in, inl);
	ok = ctx->sw->cipher(ctx->swctx, out, outl, outsize, in, inl);
	if (out != NULL && inl > 0)
		ctx->engine_rejected = 0; /* more data: the engine saw another message */
	if (ok)
		eip93_shadow_ev(ctx, out == NULL ? EIP93_EV_AAD : EIP93_EV_DATA, in, inl);
	else if (out != NULL)
		eip93_shadow_ev(ctx, EIP93_EV_DATA, NULL, inl);
	return ok;
}

int eip93_gcm_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
	struct gcm_ctx *ctx = vctx;
	const OSSL_PARAM *gen =
		params != NULL ? OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_AEAD_TLS1_GET_IV_GEN)
			       : NULL;

	/* Generating an IV restarts the delegate's GCM state: bring it up to date first. */
	if (gen != NULL && !eip93_offload_replay(ctx))
		return 0;
	if (!ctx->sw->get_ctx_params(ctx->swctx, params)) {
		if (gen != NULL)
			eip93_shadow_ev(ctx, EIP93_EV_PARAMS_FAILED, NULL, 0);
		return 0;
	}
	if (gen != NULL && gen->data != NULL)
		eip93_shadow_ev(ctx, EIP93_EV_IV_GEN, gen->data, gen->data_size);
	return 1;
}

/*
 * OpenSSL 3.0's GCM takes a TLS fixed IV longer than the IV itself, computes
 * the invocation field's length as a negative number in unsigned arithmetic
 * and asks the DRBG for about 2^64 bytes when encrypting: the caller hangs.
 * Refuse it as the invalid IV length it is.
 */
static int fixed_iv_too_long(const struct gcm_ctx *ctx, const OSSL_PARAM params[])
{
	const OSSL_PARAM *p;

	if (params == NULL)
		return 0;
	p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_AEAD_TLS1_IV_FIXED);
	return p != NULL && p->data_size != (size_t)-1 && p->data_size > ctx->sh.ivlen;
}

int eip93_gcm_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
	struct gcm_ctx *ctx = vctx;
	struct eip93_shadow_ev e = { .ev = EIP93_EV_PARAMS_FAILED };

	if (fixed_iv_too_long(ctx, params)) {
		ERR_raise(ERR_LIB_PROV, PROV_R_INVALID_IV_LENGTH);
		return 0;
	}
	if (params != NULL && params[0].key != NULL && !eip93_offload_replay(ctx))
		return 0;
	if (!ctx->sw->set_ctx_params(ctx->swctx, params)) {
		/* The delegate applies parameters one by one: some may have taken. */
		e.may_tls = has_tls_aad(params);
		e.may_tag = has_tag(params);
		eip93_shadow_move(&ctx->sh, &e);
		resync_ivlen(ctx);
		return 0;
	}
	if (has_tag(params))
		ctx->engine_rejected = 0; /* software will judge another tag */
	shadow_params(ctx, params);
	return 1;
}
