// SPDX-License-Identifier: Apache-2.0
/*
 * AES-CTR and AES-CBC cipher context: the dispatch functions OpenSSL calls.
 * The context wraps the software delegate's context, which owns every rule
 * of the mode (IV, padding, buffering, TLS records, errors) and sees every
 * call; the shadow (skc_ctx.h) follows it, and data that the engine can
 * continue goes there (offload.c).  After an engine message the delegate's
 * own original IV is the one the message ended on (it was re-initialised
 * with it): "iv" is then answered here, and an init without an IV that makes
 * CBC start again from the original one is given that IV.
 */
#include "skc_ctx.h"
#include "skc.h"
#include "../key.h"

#include <string.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/params.h>

#define BLK EIP93_SKC_BLK

void *eip93_skc_newctx(void *provctx, int cbc, size_t ks)
{
	struct skc_ctx *ctx = OPENSSL_zalloc(sizeof(*ctx));

	if (ctx == NULL)
		return NULL;
	ctx->cbc = cbc;
	ctx->sh.known = 1;
	ctx->sh.pad = 1;
	eip93_engine_key_init(&ctx->dek);
	if (!eip93_cctx_init(&ctx->base, provctx,
			     cbc ? &eip93_cipher_aes_cbc : &eip93_cipher_aes_ctr, ks)) {
		eip93_cctx_free(&ctx->base);
		OPENSSL_free(ctx);
		return NULL;
	}
	return ctx;
}

void eip93_skc_freectx(void *vctx)
{
	struct skc_ctx *ctx = vctx;

	if (ctx == NULL)
		return;
	eip93_key_forget(&ctx->base);
	eip93_cctx_free(&ctx->base);
	eip93_skc_tls_forget(ctx);
	OPENSSL_clear_free(ctx, sizeof(*ctx));
}

/* The shadow and the key bytes; never the engine keys (the copy opens its own). */
void *eip93_skc_dupctx(void *vctx)
{
	const struct skc_ctx *src = vctx;
	struct skc_ctx *dst;

	if (src->base.sw->dupctx == NULL)
		return NULL;
	dst = OPENSSL_zalloc(sizeof(*dst));
	if (dst == NULL)
		return NULL;
	dst->cbc = src->cbc;
	dst->sh = src->sh;
	if (src->mac_ours && src->maclen > 0) { /* the last record's MAC, its own copy */
		dst->mac = OPENSSL_memdup(src->mac, src->maclen);
		if (dst->mac == NULL) {
			OPENSSL_free(dst);
			return NULL;
		}
		dst->maclen = src->maclen;
	}
	dst->mac_ours = src->mac_ours;
	eip93_engine_key_init(&dst->dek);
	if (!eip93_cctx_dup(&dst->base, &src->base)) {
		eip93_cctx_free(&dst->base);
		OPENSSL_clear_free(dst, sizeof(*dst));
		return NULL;
	}
	return dst;
}

/*
 * The parameters the delegate took, as they change its state (the first of
 * each key), in the order it applies them (padding, TLS version, MAC size,
 * num: ossl_cipher_generic_set_ctx_params()), stopping where it stops: at
 * the first it cannot read or refuses, after the ones before it took.
 */
static void follow_params(struct skc_ctx *ctx, const OSSL_PARAM params[])
{
	struct eip93_skc_shadow *sh = &ctx->sh;
	const OSSL_PARAM *p;
	unsigned int v;
	size_t sz;

	if (params == NULL)
		return;
	p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_PADDING);
	if (p != NULL) {
		if (!OSSL_PARAM_get_uint(p, &v))
			return;
		sh->pad = v != 0;
	}
	p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_TLS_VERSION);
	if (p != NULL) {
		if (!OSSL_PARAM_get_uint(p, &v))
			return;
		/*
		 * Records leave the delegate's CBC buffer alone, but the engine's
		 * re-init after one empties it: only an empty one may meet the engine.
		 */
		if (v > 0 && !sh->tls)
			sh->tls_buf0 = sh->known && sh->bufsz == 0;
		sh->tls = v > 0; /* records: the buffer is not followed (until the next IV) */
		sh->tlsver = v;
		if (sh->tls)
			sh->known = 0;
	}
	p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_TLS_MAC_SIZE);
	if (p != NULL) {
		if (!OSSL_PARAM_get_size_t(p, &sz))
			return;
		sh->tlsmacsize = sz;
	}
	p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_NUM);
	if (p != NULL && OSSL_PARAM_get_uint(p, &v) && v < (ctx->cbc ? BLK : 1u)) {
		if (ctx->cbc)
			sh->cbcnum = v; /* unused by CBC, but kept and answered */
		else
			eip93_skc_reset(sh, v); /* CTR's position in its block */
	}
}

/* The delegate's key length (its cipher's), for a failed init's post-mortem; 0 if unknown. */
static size_t delegate_keylen(struct skc_ctx *ctx)
{
	size_t n = 0;
	OSSL_PARAM p[2] = { OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_KEYLEN, &n),
			    OSSL_PARAM_construct_end() };

	ERR_set_mark();
	if (!ctx->base.sw->get_ctx_params(ctx->base.swctx, p))
		n = 0;
	ERR_pop_to_mark();
	return n;
}

static int skc_init(struct skc_ctx *ctx, int enc, const unsigned char *key, size_t keylen,
		    const unsigned char *iv, size_t ivlen, const OSSL_PARAM params[])
{
	const struct eip93_sw_impl *sw = ctx->base.sw;
	struct eip93_skc_shadow *sh = &ctx->sh;
	int ok, iv_ok, key_ok;

	/*
	 * CBC without an IV starts again from the original IV (OpenSSL 1.1.1's
	 * rule, kept by 3.x): after an engine message the delegate's own is
	 * the one that message ended on, so it is handed the original.
	 */
	if (iv == NULL && ctx->cbc && sh->iv_set && sh->oiv_stale) {
		iv = sh->oiv;
		ivlen = BLK;
	}
	if (enc)
		ok = sw->einit(ctx->base.swctx, key, keylen, iv, ivlen, params);
	else
		ok = sw->dinit(ctx->base.swctx, key, keylen, iv, ivlen, params);
	/*
	 * What the delegate took, in its order (cipher_generic_init_internal()):
	 * the direction, buffer and num reset first; the IV; the key (its
	 * length is the cipher's); the parameters.  A failure stops it there.
	 */
	sh->enc = enc;
	sh->cbcnum = 0;
	sh->tls_buf0 = 1; /* every init empties the buffer first */
	eip93_skc_reset(sh, 0);
	iv_ok = iv == NULL || ivlen == BLK;
	key_ok = iv_ok && (key == NULL || ok || keylen == delegate_keylen(ctx));
	if (iv != NULL && iv_ok) {
		memmove(sh->oiv, iv, BLK); /* may be sh->oiv itself */
		memcpy(sh->iv, sh->oiv, BLK);
		sh->iv_set = 1;
		sh->oiv_stale = 0;
		sh->stale = 0;
		sh->known = 1;
	} else if (iv == NULL && ctx->cbc && sh->iv_set) {
		memcpy(sh->iv, sh->oiv, BLK);
		sh->stale = 0;
	}
	if (key != NULL && key_ok) {
		eip93_key_take(&ctx->base, key, keylen);
		sh->key_enc = enc; /* CBC's key schedule is this direction's */
	} else if (key != NULL) {
		eip93_key_forget(&ctx->base);
	}
	if (iv_ok && key_ok)
		follow_params(ctx, params);
	if (!ok)
		sh->known = 0;
	return ok;
}

int eip93_skc_einit(void *vctx, const unsigned char *key, size_t keylen, const unsigned char *iv,
		    size_t ivlen, const OSSL_PARAM params[])
{
	return skc_init(vctx, 1, key, keylen, iv, ivlen, params);
}

int eip93_skc_dinit(void *vctx, const unsigned char *key, size_t keylen, const unsigned char *iv,
		    size_t ivlen, const OSSL_PARAM params[])
{
	return skc_init(vctx, 0, key, keylen, iv, ivlen, params);
}

int eip93_skc_update(void *vctx, unsigned char *out, size_t *outl, size_t outsize,
		     const unsigned char *in, size_t inl)
{
	struct skc_ctx *ctx = vctx;
	int ok;

	if (ctx->sh.tls) /* an empty record too: encrypting, the delegate pads and enciphers it */
		return eip93_skc_tls_record(ctx, out, outl, outsize, in, inl);
	if (in != NULL && out != NULL && inl > 0)
		return eip93_skc_data(ctx, 0, out, outl, outsize, in, inl);
	ok = ctx->base.sw->update(ctx->base.swctx, out, outl, outsize, in, inl);
	/* No data (nothing moves), or data with no output: not followed. */
	eip93_skc_followed(ctx, 0, ok && (in == NULL || inl == 0), in, 0);
	return ok;
}

int eip93_skc_final(void *vctx, unsigned char *out, size_t *outl, size_t outsize)
{
	struct skc_ctx *ctx = vctx;
	int ok = ctx->base.sw->final(ctx->base.swctx, out, outl, outsize);

	if (!ok) {
		/* A failed final may have deciphered the held block first (bad padding). */
		ctx->sh.known = 0;
		ctx->sh.stale = 1;
	} else if (ctx->cbc) {
		ctx->sh.stale = 1; /* the last block went through the chain */
		ctx->sh.bufsz = 0;
	}
	return ok;
}

int eip93_skc_cipher(void *vctx, unsigned char *out, size_t *outl, size_t outsize,
		     const unsigned char *in, size_t inl)
{
	struct skc_ctx *ctx = vctx;
	int ok;

	if (ctx->base.sw->cipher == NULL)
		return 0;
	if (in != NULL && out != NULL && inl > 0)
		return eip93_skc_data(ctx, 1, out, outl, outsize, in, inl);
	ok = ctx->base.sw->cipher(ctx->base.swctx, out, outl, outsize, in, inl);
	eip93_skc_followed(ctx, 1, ok && (in == NULL || inl == 0), in, 0);
	return ok;
}

int eip93_skc_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
	struct skc_ctx *ctx = vctx;
	OSSL_PARAM *p;

	if (!ctx->base.sw->get_ctx_params(ctx->base.swctx, params) ||
	    !eip93_skc_tls_mac(ctx, params))
		return 0;
	/* The delegate's original IV is an engine message's last: the original is ours. */
	/* (Either type, as the delegate; a setter of the wrong type queues an error from 3.5 on.) */
	if (ctx->sh.oiv_stale && (p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_IV)) != NULL &&
	    !(p->data_type == OSSL_PARAM_OCTET_PTR
		      ? OSSL_PARAM_set_octet_ptr(p, ctx->sh.oiv, BLK)
		      : OSSL_PARAM_set_octet_string(p, ctx->sh.oiv, BLK)))
		return 0; /* not reached: the delegate answered the same parameter */
	return 1;
}

int eip93_skc_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
	struct skc_ctx *ctx = vctx;

	if (!ctx->base.sw->set_ctx_params(ctx->base.swctx, params)) {
		follow_params(ctx, params); /* it applies them one by one: some took */
		ctx->sh.known = 0;
		return 0;
	}
	follow_params(ctx, params);
	return 1;
}
