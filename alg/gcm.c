// SPDX-License-Identifier: Apache-2.0
/*
 * AES-GCM cipher context.
 *
 * The context wraps the software delegate's context and keeps a small shadow
 * of the message state (IV length, AAD length, decrypt tag, TLS 1.2 record
 * pending) so that the one routing decision can be taken at the first data
 * update.  The delegate owns all GCM semantics (IV state machine, tag rules,
 * TLS record handling, error behaviour): a message routed to software is
 * processed exactly as the default provider would process it.
 */
#include "gcm.h"

#include <string.h>

#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>

/* TLS 1.2 GCM record: 8-byte explicit IV, payload, 16-byte tag. */
#define TLS12_EXPLICIT_IV 8
#define TLS12_TAG 16

struct gcm_ctx {
	const struct eip93_alg_env *env;
	const struct eip93_sw_impl *sw;
	void *swctx;
	int enc;
	size_t ivlen;		/* IV length the next init will use */
	size_t taglen_set;	/* decrypt: tag bytes set before any data */
	size_t aadlen;		/* AAD bytes of the current message */
	size_t tls_aad_len;	/* TLS 1.2: record AAD pending, 0 if none */
	int routed;		/* the current message has its routing answer */
	enum eip93_sw_reason reason;
};

static OSSL_FUNC_cipher_newctx_fn gcm_newctx128, gcm_newctx192, gcm_newctx256;
static OSSL_FUNC_cipher_freectx_fn gcm_freectx;
static OSSL_FUNC_cipher_dupctx_fn gcm_dupctx;
static OSSL_FUNC_cipher_encrypt_init_fn gcm_einit;
static OSSL_FUNC_cipher_decrypt_init_fn gcm_dinit;
static OSSL_FUNC_cipher_update_fn gcm_update;
static OSSL_FUNC_cipher_final_fn gcm_final;
static OSSL_FUNC_cipher_cipher_fn gcm_cipher;
static OSSL_FUNC_cipher_get_params_fn gcm_get_params128, gcm_get_params192, gcm_get_params256;
static OSSL_FUNC_cipher_gettable_params_fn gcm_gettable_params;
static OSSL_FUNC_cipher_get_ctx_params_fn gcm_get_ctx_params;
static OSSL_FUNC_cipher_set_ctx_params_fn gcm_set_ctx_params;
static OSSL_FUNC_cipher_gettable_ctx_params_fn gcm_gettable_ctx_params;
static OSSL_FUNC_cipher_settable_ctx_params_fn gcm_settable_ctx_params;

static void *gcm_newctx(void *provctx, enum eip93_keysize ks)
{
	const struct eip93_alg_env *env = provctx;
	struct gcm_ctx *ctx;

	ctx = OPENSSL_zalloc(sizeof(*ctx));
	if (ctx == NULL)
		return NULL;
	ctx->env = env;
	ctx->sw = &env->sw[ks];
	ctx->ivlen = EIP93_ROUTE_IVLEN;
	ctx->swctx = ctx->sw->newctx(ctx->sw->provctx);
	if (ctx->swctx == NULL) {
		OPENSSL_free(ctx);
		return NULL;
	}
	return ctx;
}

static void *gcm_newctx128(void *provctx) { return gcm_newctx(provctx, EIP93_AES128); }
static void *gcm_newctx192(void *provctx) { return gcm_newctx(provctx, EIP93_AES192); }
static void *gcm_newctx256(void *provctx) { return gcm_newctx(provctx, EIP93_AES256); }

static void gcm_freectx(void *vctx)
{
	struct gcm_ctx *ctx = vctx;

	if (ctx == NULL)
		return;
	ctx->sw->freectx(ctx->swctx);
	OPENSSL_clear_free(ctx, sizeof(*ctx));
}

static void *gcm_dupctx(void *vctx)
{
	const struct gcm_ctx *src = vctx;
	struct gcm_ctx *dst;

	if (src->sw->dupctx == NULL)
		return NULL;
	dst = OPENSSL_malloc(sizeof(*dst));
	if (dst == NULL)
		return NULL;
	*dst = *src;
	dst->swctx = src->sw->dupctx(src->swctx);
	if (dst->swctx == NULL) {
		OPENSSL_clear_free(dst, sizeof(*dst));
		return NULL;
	}
	return dst;
}

/* A new message starts: forget what the previous one routed. */
static void msg_reset(struct gcm_ctx *ctx)
{
	ctx->routed = 0;
	ctx->aadlen = 0;
	ctx->taglen_set = 0;
	ctx->tls_aad_len = 0;
}

/* Shadow the parameters that matter for routing, once the delegate took them. */
static void shadow_params(struct gcm_ctx *ctx, const OSSL_PARAM params[])
{
	const OSSL_PARAM *p;
	size_t sz;

	if (params == NULL)
		return;
	p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_AEAD_IVLEN);
	if (p != NULL && OSSL_PARAM_get_size_t(p, &sz))
		ctx->ivlen = sz;
	p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_AEAD_TAG);
	if (p != NULL && p->data_type == OSSL_PARAM_OCTET_STRING && p->data != NULL && !ctx->enc)
		ctx->taglen_set = p->data_size;
	p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_AEAD_TLS1_AAD);
	if (p != NULL && p->data_type == OSSL_PARAM_OCTET_STRING)
		ctx->tls_aad_len = p->data_size;
}

static int gcm_init(struct gcm_ctx *ctx, int enc, const unsigned char *key, size_t keylen,
		    const unsigned char *iv, size_t ivlen, const OSSL_PARAM params[])
{
	int ok;

	if (enc)
		ok = ctx->sw->einit(ctx->swctx, key, keylen, iv, ivlen, params);
	else
		ok = ctx->sw->dinit(ctx->swctx, key, keylen, iv, ivlen, params);
	ctx->enc = enc;
	msg_reset(ctx);
	if (iv != NULL)
		ctx->ivlen = ivlen;
	if (ok)
		shadow_params(ctx, params);
	return ok;
}

static int gcm_einit(void *vctx, const unsigned char *key, size_t keylen,
		     const unsigned char *iv, size_t ivlen, const OSSL_PARAM params[])
{
	return gcm_init(vctx, 1, key, keylen, iv, ivlen, params);
}

static int gcm_dinit(void *vctx, const unsigned char *key, size_t keylen,
		     const unsigned char *iv, size_t ivlen, const OSSL_PARAM params[])
{
	return gcm_init(vctx, 0, key, keylen, iv, ivlen, params);
}

/* Take and count the routing decision for one message. */
static void route_msg(struct gcm_ctx *ctx, struct eip93_route_msg *m)
{
	struct eip93_stats *st = ctx->env->stats;

	m->engine_available = ctx->env->engine_available;
	m->enc = ctx->enc;
	ctx->reason = eip93_route(&ctx->env->limits, m);
	ctx->routed = 1;
	/*
	 * No engine backend is wired in yet: an eligible message is still
	 * processed by the delegate, and counted as software for the gate.
	 */
	if (ctx->reason == EIP93_SW_NONE)
		ctx->reason = EIP93_SW_GATE;
	eip93_stat_add(&st->sw_messages, 1);
	eip93_stat_add(&st->sw_by_reason[ctx->reason], 1);
}

/* Route a TLS 1.2 record (explicit IV || payload || tag) about to be processed. */
static void route_tls12(struct gcm_ctx *ctx, const unsigned char *in, unsigned char *out,
			size_t inl)
{
	struct eip93_route_msg m = { 0 };

	m.ivlen = EIP93_ROUTE_IVLEN;
	m.taglen = TLS12_TAG;
	m.aadlen = ctx->tls_aad_len;
	m.len = inl >= TLS12_EXPLICIT_IV + TLS12_TAG ? inl - TLS12_EXPLICIT_IV - TLS12_TAG : 0;
	m.in = in != NULL ? in + TLS12_EXPLICIT_IV : NULL;
	m.out = out != NULL ? out + TLS12_EXPLICIT_IV : NULL;
	route_msg(ctx, &m);
	/* The delegate consumes the record AAD with this call. */
	ctx->tls_aad_len = 0;
	ctx->routed = 0;
}

/* Track an update (AAD or data) before the delegate sees it. */
static void track_update(struct gcm_ctx *ctx, unsigned char *out, const unsigned char *in,
			 size_t inl)
{
	struct eip93_route_msg m = { 0 };

	if (ctx->tls_aad_len != 0) {
		route_tls12(ctx, in, out, inl);
		return;
	}
	if (in == NULL)
		return;
	if (out == NULL) {
		ctx->aadlen += inl;
		return;
	}
	if (ctx->routed)
		return;
	m.ivlen = ctx->ivlen;
	m.taglen = ctx->taglen_set;
	m.aadlen = ctx->aadlen;
	m.len = inl;
	m.in = in;
	m.out = out;
	route_msg(ctx, &m);
}

/* The message ends (final): count it if it carried no data, then forget it. */
static void track_final(struct gcm_ctx *ctx)
{
	if (!ctx->routed) {
		struct eip93_route_msg m = { 0 };

		m.ivlen = ctx->ivlen;
		m.taglen = ctx->taglen_set;
		m.aadlen = ctx->aadlen;
		route_msg(ctx, &m);
	}
	msg_reset(ctx);
}

static int gcm_update(void *vctx, unsigned char *out, size_t *outl, size_t outsize,
		      const unsigned char *in, size_t inl)
{
	struct gcm_ctx *ctx = vctx;

	track_update(ctx, out, in, inl);
	return ctx->sw->update(ctx->swctx, out, outl, outsize, in, inl);
}

static int gcm_final(void *vctx, unsigned char *out, size_t *outl, size_t outsize)
{
	struct gcm_ctx *ctx = vctx;

	track_final(ctx);
	return ctx->sw->final(ctx->swctx, out, outl, outsize);
}

static int gcm_cipher(void *vctx, unsigned char *out, size_t *outl, size_t outsize,
		      const unsigned char *in, size_t inl)
{
	struct gcm_ctx *ctx = vctx;

	if (ctx->sw->cipher == NULL)
		return 0;
	if (in == NULL && ctx->tls_aad_len == 0)
		track_final(ctx);
	else
		track_update(ctx, out, in, inl);
	return ctx->sw->cipher(ctx->swctx, out, outl, outsize, in, inl);
}

static int gcm_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
	struct gcm_ctx *ctx = vctx;

	return ctx->sw->get_ctx_params(ctx->swctx, params);
}

static int gcm_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
	struct gcm_ctx *ctx = vctx;

	if (!ctx->sw->set_ctx_params(ctx->swctx, params))
		return 0;
	shadow_params(ctx, params);
	return 1;
}

static const OSSL_PARAM *gcm_gettable_ctx_params(void *vctx, void *provctx)
{
	const struct eip93_alg_env *env = provctx;
	const struct gcm_ctx *ctx = vctx;
	const struct eip93_sw_impl *sw = ctx != NULL ? ctx->sw : &env->sw[EIP93_AES128];

	if (sw->gettable_ctx_params == NULL)
		return NULL;
	return sw->gettable_ctx_params(ctx != NULL ? ctx->swctx : NULL, sw->provctx);
}

static const OSSL_PARAM *gcm_settable_ctx_params(void *vctx, void *provctx)
{
	const struct eip93_alg_env *env = provctx;
	const struct gcm_ctx *ctx = vctx;
	const struct eip93_sw_impl *sw = ctx != NULL ? ctx->sw : &env->sw[EIP93_AES128];

	if (sw->settable_ctx_params == NULL)
		return NULL;
	return sw->settable_ctx_params(ctx != NULL ? ctx->swctx : NULL, sw->provctx);
}

/*
 * Cipher-level parameters.  OpenSSL gives this call no provider context, so
 * the values are stated here; they are those of every AES-GCM: GCM mode,
 * AEAD with a custom IV, stream (block size 1), 96-bit default IV.
 */
static const OSSL_PARAM gcm_known_gettable_params[] = {
	OSSL_PARAM_uint(OSSL_CIPHER_PARAM_MODE, NULL),
	OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
	OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),
	OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_BLOCK_SIZE, NULL),
	OSSL_PARAM_int(OSSL_CIPHER_PARAM_AEAD, NULL),
	OSSL_PARAM_int(OSSL_CIPHER_PARAM_CUSTOM_IV, NULL),
	OSSL_PARAM_int(OSSL_CIPHER_PARAM_CTS, NULL),
	OSSL_PARAM_int(OSSL_CIPHER_PARAM_TLS1_MULTIBLOCK, NULL),
	OSSL_PARAM_int(OSSL_CIPHER_PARAM_HAS_RAND_KEY, NULL),
	OSSL_PARAM_END
};

static int set_uint(OSSL_PARAM params[], const char *key, unsigned int v)
{
	OSSL_PARAM *p = OSSL_PARAM_locate(params, key);

	return p == NULL || OSSL_PARAM_set_uint(p, v);
}

static int set_int(OSSL_PARAM params[], const char *key, int v)
{
	OSSL_PARAM *p = OSSL_PARAM_locate(params, key);

	return p == NULL || OSSL_PARAM_set_int(p, v);
}

static int set_size(OSSL_PARAM params[], const char *key, size_t v)
{
	OSSL_PARAM *p = OSSL_PARAM_locate(params, key);

	return p == NULL || OSSL_PARAM_set_size_t(p, v);
}

static int gcm_get_params(OSSL_PARAM params[], size_t keylen)
{
	return set_uint(params, OSSL_CIPHER_PARAM_MODE, EVP_CIPH_GCM_MODE) &&
	       set_size(params, OSSL_CIPHER_PARAM_KEYLEN, keylen) &&
	       set_size(params, OSSL_CIPHER_PARAM_IVLEN, EIP93_ROUTE_IVLEN) &&
	       set_size(params, OSSL_CIPHER_PARAM_BLOCK_SIZE, 1) &&
	       set_int(params, OSSL_CIPHER_PARAM_AEAD, 1) &&
	       set_int(params, OSSL_CIPHER_PARAM_CUSTOM_IV, 1) &&
	       set_int(params, OSSL_CIPHER_PARAM_CTS, 0) &&
	       set_int(params, OSSL_CIPHER_PARAM_TLS1_MULTIBLOCK, 0) &&
	       set_int(params, OSSL_CIPHER_PARAM_HAS_RAND_KEY, 0);
}

static int gcm_get_params128(OSSL_PARAM params[]) { return gcm_get_params(params, 16); }
static int gcm_get_params192(OSSL_PARAM params[]) { return gcm_get_params(params, 24); }
static int gcm_get_params256(OSSL_PARAM params[]) { return gcm_get_params(params, 32); }

static const OSSL_PARAM *gcm_gettable_params(void *provctx)
{
	(void)provctx;
	return gcm_known_gettable_params;
}

#define FN(id, f) { id, (void (*)(void))(f) }
#define GCM_TABLE(bits)                                                         \
	{                                                                       \
		FN(OSSL_FUNC_CIPHER_NEWCTX, gcm_newctx##bits),                  \
		FN(OSSL_FUNC_CIPHER_FREECTX, gcm_freectx),                      \
		FN(OSSL_FUNC_CIPHER_DUPCTX, gcm_dupctx),                        \
		FN(OSSL_FUNC_CIPHER_ENCRYPT_INIT, gcm_einit),                   \
		FN(OSSL_FUNC_CIPHER_DECRYPT_INIT, gcm_dinit),                   \
		FN(OSSL_FUNC_CIPHER_UPDATE, gcm_update),                        \
		FN(OSSL_FUNC_CIPHER_FINAL, gcm_final),                          \
		FN(OSSL_FUNC_CIPHER_CIPHER, gcm_cipher),                        \
		FN(OSSL_FUNC_CIPHER_GET_PARAMS, gcm_get_params##bits),          \
		FN(OSSL_FUNC_CIPHER_GETTABLE_PARAMS, gcm_gettable_params),      \
		FN(OSSL_FUNC_CIPHER_GET_CTX_PARAMS, gcm_get_ctx_params),        \
		FN(OSSL_FUNC_CIPHER_SET_CTX_PARAMS, gcm_set_ctx_params),        \
		FN(OSSL_FUNC_CIPHER_GETTABLE_CTX_PARAMS, gcm_gettable_ctx_params), \
		FN(OSSL_FUNC_CIPHER_SETTABLE_CTX_PARAMS, gcm_settable_ctx_params), \
		{ 0, NULL }                                                     \
	}

const OSSL_DISPATCH eip93_gcm_functions[EIP93_NKEYSIZES][24] = {
	GCM_TABLE(128), GCM_TABLE(192), GCM_TABLE(256)
};
