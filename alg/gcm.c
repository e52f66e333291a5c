// SPDX-License-Identifier: Apache-2.0
/*
 * AES-GCM cipher context.
 *
 * The context wraps the software delegate's context, which owns all GCM
 * semantics (IV state machine, tag rules, TLS record handling, errors) and
 * sees every call.  Next to it the context keeps what the engine needs for a
 * message (key, IV, AAD, decrypt tag, TLS 1.2 record AAD and fixed IV) and
 * takes the one routing decision at the first data update (or per TLS 1.2
 * record).
 *
 * An engine message runs as one AF_ALG operation.  The delegate has seen the
 * IV, the AAD and the parameters, but not the data; the context keeps a copy
 * of the message's ciphertext so that, if anything follows that one
 * operation cannot express (a second data update, AAD after data, a parameter
 * change), the message leaves the engine by a replay: the delegate processes
 * that ciphertext and reaches exactly the state software alone would have
 * reached.  Errors and authentication failures restore the input and run the
 * message through the delegate, so a caller sees exactly the default
 * provider's behaviour.
 */
#include "gcm.h"

#include <errno.h>
#include <string.h>

#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/proverr.h>

#include "engine.h"

/* TLS 1.2 GCM record: 8-byte explicit IV, payload, 16-byte tag; 13-byte AAD. */
#define TLS12_EXPLICIT_IV 8
#define TLS12_FIXED_IV 4
#define TLS12_TAG 16
#define TLS12_AAD 13

enum msg_state { MSG_IDLE = 0, MSG_SOFTWARE, MSG_ENGINE };

struct gcm_ctx {
	struct eip93_alg_env *env;
	const struct eip93_sw_impl *sw;
	void *swctx;
	int enc;

	/* Key: kept for the lazy socket open and to spot re-init with the same bytes. */
	unsigned char key[32];
	size_t keylen;
	int key_set;
	int key_failed;			/* failed its check: software for its lifetime */
	struct eip93_engine_key ek;

	/* The current message. */
	size_t ivlen;
	unsigned char iv[EIP93_ROUTE_IVLEN];
	int iv_ok;			/* iv[] is the IV the next data will use */
	unsigned char tag[EIP93_ENGINE_TAGLEN];
	size_t taglen_set;		/* decrypt: tag bytes set before any data */
	unsigned char aad[EIP93_ROUTE_MAX_AAD];
	size_t aadlen;			/* may exceed sizeof(aad): then not kept */
	enum msg_state state;
	unsigned char *ct;		/* engine message: its ciphertext, for a replay */
	size_t ctlen;
	unsigned char mtag[EIP93_ENGINE_TAGLEN];	/* engine encrypt: this message's tag */
	unsigned char etag[EIP93_ENGINE_TAGLEN];	/* the last finished engine encryption's */
	/*
	 * The delegate's tag buffer still holds the tag its final computed over
	 * no data after an engine encryption.  The default provider answers tag
	 * requests from that buffer, and a later decryption with no tag of its
	 * own checks against it: tag requests are answered from etag[], and
	 * before the context turns to decrypting the buffer is given etag[]
	 * (etag_fix()).  Cleared when the delegate writes the buffer itself.
	 */
	int etag_pending;

	/* TLS 1.2 */
	size_t tls_aad_len;		/* record AAD pending, 0 if none */
	unsigned char tls_aad[TLS12_AAD];	/* as the delegate corrects it */
	unsigned char tls_fixed[TLS12_FIXED_IV];
	int tls_fixed_ok;
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

/* One whole message through the engine backend; 0 or -errno. */
static int eng_aead(struct gcm_ctx *ctx, int enc, const unsigned char *iv,
		    const unsigned char *aad, size_t aadlen, const unsigned char *in, size_t len,
		    unsigned char *out, unsigned char *tag)
{
	const struct eip93_engine_ops *e = ctx->env->engine;
	struct eip93_engine_msg m = { iv, aad, aadlen, in, out, len, tag };

	return enc ? e->seal(&ctx->ek, &m) : e->open(&ctx->ek, &m);
}

static void *gcm_newctx(void *provctx, enum eip93_keysize ks)
{
	struct eip93_alg_env *env = provctx;
	struct gcm_ctx *ctx;

	ctx = OPENSSL_zalloc(sizeof(*ctx));
	if (ctx == NULL)
		return NULL;
	ctx->env = env;
	ctx->sw = &env->sw[ks];
	ctx->ivlen = EIP93_ROUTE_IVLEN;
	eip93_engine_key_init(&ctx->ek);
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

/*
 * Drop the engine message's copy.  It holds ciphertext, which is not
 * secret, unless a replay decrypted it in place (@plain): then it is
 * cleansed first.
 */
static void ct_free(struct gcm_ctx *ctx, int plain)
{
	if (ctx->ct != NULL) {
		if (plain)
			OPENSSL_clear_free(ctx->ct, ctx->ctlen);
		else
			OPENSSL_free(ctx->ct);
	}
	ctx->ct = NULL;
	ctx->ctlen = 0;
}

static void ct_drop(struct gcm_ctx *ctx)
{
	ct_free(ctx, 0);
}

static void gcm_freectx(void *vctx)
{
	struct gcm_ctx *ctx = vctx;

	if (ctx == NULL)
		return;
	ctx->env->engine->key_close(&ctx->ek);
	ct_drop(ctx);
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
	/* The copy opens its own sockets when it needs them. */
	eip93_engine_key_init(&dst->ek);
	dst->ct = NULL;
	if (src->ct != NULL) {
		dst->ct = OPENSSL_memdup(src->ct, src->ctlen);
		if (dst->ct == NULL) {
			OPENSSL_clear_free(dst, sizeof(*dst));
			return NULL;
		}
	}
	dst->swctx = src->sw->dupctx(src->swctx);
	if (dst->swctx == NULL) {
		ct_drop(dst);
		OPENSSL_clear_free(dst, sizeof(*dst));
		return NULL;
	}
	return dst;
}

/* A new message starts (or the last one ended): forget its routing. */
static void msg_reset(struct gcm_ctx *ctx)
{
	ct_drop(ctx);
	ctx->state = MSG_IDLE;
	ctx->aadlen = 0;
	ctx->taglen_set = 0;
}

static void count_sw(struct gcm_ctx *ctx, enum eip93_sw_reason r)
{
	struct eip93_stats *st = ctx->env->stats;

	eip93_stat_add(&st->sw_by_reason[r], 1); /* the total is their sum */
}

static void engine_ok(struct gcm_ctx *ctx, size_t len)
{
	struct eip93_stats *st = ctx->env->stats;

	atomic_store_explicit(&ctx->env->consecutive_errors, 0, memory_order_relaxed);
	eip93_stat_add(&st->engine_messages, 1);
	eip93_stat_add(&st->engine_bytes, len);
}

/* An AF_ALG error: close this context's sockets; too many in a row stop the engine. */
static void engine_error(struct gcm_ctx *ctx, int err, const char *where)
{
	struct eip93_alg_env *env = ctx->env;
	unsigned int n;

	ctx->env->engine->key_close(&ctx->ek);
	eip93_stat_add(&env->stats->engine_errors, 1);
	n = atomic_fetch_add(&env->consecutive_errors, 1) + 1;
	if (n >= EIP93_ENGINE_MAX_ERRORS && !atomic_exchange(&env->disable_claimed, 1)) {
		BIO_snprintf(env->disabled_reason, sizeof(env->disabled_reason),
			     "engine: %u consecutive AF_ALG errors (last: %s: %s); "
			     "software only for this process", n, where, strerror(-err));
		atomic_store(&env->engine_available, 0);
		atomic_store_explicit(&env->engine_disabled, 1, memory_order_release);
	}
}

/* Hold no key: close its sockets and cleanse the copy. */
static void key_forget(struct gcm_ctx *ctx)
{
	ctx->env->engine->key_close(&ctx->ek);
	OPENSSL_cleanse(ctx->key, sizeof(ctx->key));
	ctx->key_set = 0;
	ctx->key_failed = 0;
}

/* Store a new key (or notice the same bytes again). */
static void key_take(struct gcm_ctx *ctx, const unsigned char *key, size_t keylen)
{
	if (ctx->key_set && keylen == ctx->keylen && keylen <= sizeof(ctx->key) &&
	    CRYPTO_memcmp(key, ctx->key, keylen) == 0)
		return; /* same key: keep the verified sockets */
	key_forget(ctx);
	if (keylen == 16 || keylen == 24 || keylen == 32) {
		memcpy(ctx->key, key, keylen);
		ctx->keylen = keylen;
		ctx->key_set = 1;
	}
}

/*
 * Verify a freshly opened key: encrypt a known message through AF_ALG and
 * compare with the delegate, decrypt it back, and require EBADMSG for a
 * corrupted tag.  Returns 0, -EBADMSG (a wrong answer) or a syscall -errno.
 */
static int key_check(struct gcm_ctx *ctx)
{
	unsigned char pt[512], ct_e[512], ct_s[512], back[512], aad[TLS12_AAD];
	unsigned char iv[EIP93_ROUTE_IVLEN], tag_e[16], tag_s[16];
	const struct eip93_sw_impl *sw = ctx->sw;
	OSSL_PARAM p[2];
	size_t n = 0, n2 = 0;
	void *t;
	int ret, ok;

	for (size_t i = 0; i < sizeof(pt); i++)
		pt[i] = (unsigned char)(i * 7 + 3);
	for (size_t i = 0; i < sizeof(aad); i++)
		aad[i] = (unsigned char)(0xa0 + i);
	for (size_t i = 0; i < sizeof(iv); i++)
		iv[i] = (unsigned char)(0x5c ^ i);

	t = sw->newctx(sw->provctx);
	if (t == NULL)
		return -ENOMEM;
	p[0] = OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, tag_s, sizeof(tag_s));
	p[1] = OSSL_PARAM_construct_end();
	ok = sw->einit(t, ctx->key, ctx->keylen, iv, sizeof(iv), NULL) &&
	     sw->update(t, NULL, &n, sizeof(aad), aad, sizeof(aad)) &&
	     sw->update(t, ct_s, &n, sizeof(ct_s), pt, sizeof(pt)) &&
	     sw->final(t, ct_s + n, &n2, 0) && sw->get_ctx_params(t, p);
	sw->freectx(t);
	if (!ok)
		return -ENOMEM;

	ret = eng_aead(ctx, 1, iv, aad, sizeof(aad), pt, sizeof(pt), ct_e, tag_e);
	if (ret < 0)
		return ret;
	if (CRYPTO_memcmp(ct_e, ct_s, sizeof(ct_e)) != 0 ||
	    CRYPTO_memcmp(tag_e, tag_s, sizeof(tag_e)) != 0)
		return -EBADMSG;
	ret = eng_aead(ctx, 0, iv, aad, sizeof(aad), ct_e, sizeof(ct_e), back, tag_e);
	if (ret < 0)
		return ret;
	if (CRYPTO_memcmp(back, pt, sizeof(pt)) != 0)
		return -EBADMSG;
	tag_e[5] ^= 0x10;
	ret = eng_aead(ctx, 0, iv, aad, sizeof(aad), ct_e, sizeof(ct_e), back, tag_e);
	OPENSSL_cleanse(back, sizeof(back));
	if (ret == -EBADMSG)
		return 0;
	return ret < 0 ? ret : -EBADMSG;
}

/* Make sure the key has verified sockets; EIP93_SW_NONE when it does. */
static enum eip93_sw_reason key_ready(struct gcm_ctx *ctx)
{
	struct eip93_alg_env *env = ctx->env;
	struct eip93_stats *st = env->stats;
	struct eip93_engine_cfg cfg;
	int r;

	if (ctx->key_failed)
		return EIP93_SW_KEYCHECK;
	if (env->engine->key_is_open(&ctx->ek))
		return EIP93_SW_NONE;
	cfg.kalg = env->kalg;
	cfg.max_sockets = env->max_sockets;
	cfg.timeout_ms = env->timeout_ms;
	cfg.libctx = env->libctx;
	r = env->engine->key_open(&ctx->ek, &cfg, ctx->key, ctx->keylen);
	if (r == -EMFILE && env->engine->resources() + 2 > env->max_sockets)
		return EIP93_SW_SOCKCAP;
	if (r < 0) {
		engine_error(ctx, r, "open");
		return EIP93_SW_ERROR;
	}
	r = key_check(ctx);
	if (r < 0) {
		/* A wrong answer or an error: this key stays in software. */
		ctx->key_failed = 1;
		eip93_stat_add(&st->key_checks_failed, 1);
		if (r == -EBADMSG)
			ctx->env->engine->key_close(&ctx->ek);
		else
			engine_error(ctx, r, "key check");
		return EIP93_SW_KEYCHECK;
	}
	eip93_stat_add(&st->key_checks_passed, 1);
	atomic_store_explicit(&env->consecutive_errors, 0, memory_order_relaxed);
	if (env->on_first_engine != NULL && !atomic_exchange(&env->first_engine_done, 1))
		env->on_first_engine(env);
	return EIP93_SW_NONE;
}

/* A TLS 1.2 record AAD, as the delegate corrects it (explicit IV, tag). */
static void shadow_tls_aad(struct gcm_ctx *ctx, const OSSL_PARAM *p)
{
	unsigned char *b = ctx->tls_aad;
	size_t len;

	/* The delegate keeps the record AAD in its tag buffer: no tag survives it. */
	ctx->etag_pending = 0;
	ctx->taglen_set = 0;
	ctx->tls_aad_len = p->data_size;
	if (p->data_size != TLS12_AAD)
		return;
	memcpy(b, p->data, TLS12_AAD);
	len = ((size_t)b[TLS12_AAD - 2] << 8 | b[TLS12_AAD - 1]) - TLS12_EXPLICIT_IV;
	if (!ctx->enc)
		len -= TLS12_TAG;
	b[TLS12_AAD - 2] = (unsigned char)(len >> 8);
	b[TLS12_AAD - 1] = (unsigned char)(len & 0xff);
}

/* A TLS fixed IV: the message IV now lives in the delegate. */
static void shadow_tls_fixed(struct gcm_ctx *ctx, const OSSL_PARAM *p)
{
	ctx->iv_ok = 0;
	ctx->tls_fixed_ok = 0;
	if ((p->data_size == TLS12_FIXED_IV || p->data_size == (size_t)-1) &&
	    ctx->ivlen == EIP93_ROUTE_IVLEN) {
		memcpy(ctx->tls_fixed, p->data, TLS12_FIXED_IV);
		ctx->tls_fixed_ok = 1;
	}
}

/*
 * Track parameters that matter to the engine, once the delegate took them.
 * One pass over the array: this runs for every tag a TLS 1.3 reader sets.
 */
static void shadow_params(struct gcm_ctx *ctx, const OSSL_PARAM params[])
{
	const OSSL_PARAM *p;
	size_t sz;

	for (p = params; p != NULL && p->key != NULL; p++) {
		const char *k = p->key;

		if (k[0] == 't' && strcmp(k, OSSL_CIPHER_PARAM_AEAD_TAG) == 0) {
			if (p->data == NULL || ctx->enc)
				continue;
			ctx->taglen_set = 0;
			if (p->data_size == EIP93_ENGINE_TAGLEN && ctx->state == MSG_IDLE) {
				memcpy(ctx->tag, p->data, EIP93_ENGINE_TAGLEN);
				ctx->taglen_set = EIP93_ENGINE_TAGLEN;
			}
		} else if (k[0] == 'i' && strcmp(k, OSSL_CIPHER_PARAM_AEAD_IVLEN) == 0) {
			if (OSSL_PARAM_get_size_t(p, &sz) && sz != ctx->ivlen) {
				ctx->ivlen = sz;
				ctx->iv_ok = 0;
			}
		} else if (k[0] == 't' && strcmp(k, OSSL_CIPHER_PARAM_AEAD_TLS1_AAD) == 0) {
			if (p->data != NULL)
				shadow_tls_aad(ctx, p);
		} else if (k[0] == 't' && strcmp(k, OSSL_CIPHER_PARAM_AEAD_TLS1_IV_FIXED) == 0) {
			if (p->data != NULL)
				shadow_tls_fixed(ctx, p);
		} else if (k[0] == 't' && strcmp(k, OSSL_CIPHER_PARAM_AEAD_TLS1_SET_IV_INV) == 0) {
			ctx->iv_ok = 0;
		}
	}
}

static int replay(struct gcm_ctx *ctx);

/* Give the delegate's tag buffer the engine's tag: only decrypt mode takes one. */
static int etag_fix(struct gcm_ctx *ctx)
{
	const struct eip93_sw_impl *sw = ctx->sw;
	OSSL_PARAM p[2];
	int ok;

	if (!ctx->etag_pending)
		return 1;
	p[0] = OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, ctx->etag,
						 sizeof(ctx->etag));
	p[1] = OSSL_PARAM_construct_end();
	ERR_set_mark();
	ok = sw->dinit(ctx->swctx, NULL, 0, NULL, 0, NULL) && sw->set_ctx_params(ctx->swctx, p) &&
	     sw->einit(ctx->swctx, NULL, 0, NULL, 0, NULL);
	ERR_pop_to_mark();
	ctx->etag_pending = 0;
	return ok;
}

/*
 * Only an IV starts a new message.  An init without one (key only, or
 * nothing: a change of direction) continues the current message in the
 * delegate, so an engine message is replayed into it first.
 */
static int gcm_init(struct gcm_ctx *ctx, int enc, const unsigned char *key, size_t keylen,
		    const unsigned char *iv, size_t ivlen, const OSSL_PARAM params[])
{
	int ok, in_msg;

	if (ctx->state == MSG_ENGINE && !replay(ctx))
		return 0;
	if (!enc && !etag_fix(ctx))
		return 0;
	in_msg = ctx->state != MSG_IDLE || ctx->aadlen != 0;
	if (enc)
		ok = ctx->sw->einit(ctx->swctx, key, keylen, iv, ivlen, params);
	else
		ok = ctx->sw->dinit(ctx->swctx, key, keylen, iv, ivlen, params);
	if (enc != ctx->enc)
		ctx->taglen_set = 0;
	ctx->enc = enc;
	if (!ok) {
		/*
		 * The delegate may have taken the IV and the key before a
		 * parameter failed: hold neither, software until an init works.
		 */
		ctx->iv_ok = 0;
		ctx->tls_fixed_ok = 0;
		if (key != NULL)
			key_forget(ctx);
		return 0;
	}
	if (key != NULL)
		key_take(ctx, key, keylen);
	if (iv != NULL) {
		/*
		 * A decrypt tag set before this init stays: the delegate keeps
		 * it across an init too (evp_test sets the tag first).
		 */
		size_t taglen_set = ctx->taglen_set;

		msg_reset(ctx);
		ctx->taglen_set = taglen_set;
		ctx->tls_fixed_ok = 0; /* the new IV replaces the TLS fixed part in the delegate */
		ctx->ivlen = ivlen;
		ctx->iv_ok = ivlen == EIP93_ROUTE_IVLEN;
		if (ctx->iv_ok)
			memcpy(ctx->iv, iv, EIP93_ROUTE_IVLEN);
	} else if (key != NULL && in_msg) {
		ctx->iv_ok = 0; /* a key change mid-message: leave it to the delegate */
	}
	shadow_params(ctx, params);
	return 1;
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

/*
 * The message leaves the engine: the delegate processes the ciphertext the
 * engine handled, so it reaches the state software alone would have.  For an
 * encryption it runs in decrypt mode over that ciphertext (GHASH covers the
 * ciphertext either way and the counter advances the same), then returns to
 * encrypt mode; initialising without key or IV changes only the direction.
 */
static int replay(struct gcm_ctx *ctx)
{
	const struct eip93_sw_impl *sw = ctx->sw;
	size_t n = 0;
	int ok;

	if (ctx->state != MSG_ENGINE)
		return 1;
	if (ctx->enc)
		ok = sw->dinit(ctx->swctx, NULL, 0, NULL, 0, NULL) &&
		     sw->update(ctx->swctx, ctx->ct, &n, ctx->ctlen, ctx->ct, ctx->ctlen) &&
		     sw->einit(ctx->swctx, NULL, 0, NULL, 0, NULL);
	else
		ok = sw->update(ctx->swctx, ctx->ct, &n, ctx->ctlen, ctx->ct, ctx->ctlen);
	ct_free(ctx, 1); /* it holds plaintext now */
	ctx->state = MSG_SOFTWARE;
	count_sw(ctx, EIP93_SW_REPLAY);
	return ok;
}

/*
 * One engine operation over the first data of a message.  Keeps the
 * ciphertext for a replay.  On any failure the caller's input is as it was
 * and the delegate has seen nothing of the data.
 */
static int engine_data(struct gcm_ctx *ctx, unsigned char *out, const unsigned char *in,
		       size_t len)
{
	unsigned char *ct = OPENSSL_malloc(len);
	int r;

	if (ct == NULL)
		return -ENOMEM;
	if (ctx->enc) {
		/* In place, the engine writes to the copy first: the plaintext survives a failure. */
		unsigned char *dst = in == out ? ct : out;

		r = eng_aead(ctx, 1, ctx->iv, ctx->aad, ctx->aadlen, in, len, dst,
				     ctx->mtag);
		if (r == 0) {
			if (dst == ct)
				memcpy(out, ct, len);
			else
				memcpy(ct, out, len);
		}
	} else {
		memcpy(ct, in, len);
		r = eng_aead(ctx, 0, ctx->iv, ctx->aad, ctx->aadlen, in, len, out,
				     ctx->tag);
		if (r < 0 && in == out)
			memcpy(out, ct, len); /* unauthenticated or partial output never stays */
	}
	if (r < 0) {
		OPENSSL_free(ct);
		return r;
	}
	ctx->ct = ct;
	ctx->ctlen = len;
	return 0;
}

typedef int (*sw_op_fn)(void *, unsigned char *, size_t *, size_t, const unsigned char *, size_t);

/*
 * Route and, when eligible, run the first data of a message on the engine;
 * otherwise hand it to the delegate's @sw_op (update or the one-shot).
 */
static int first_data(struct gcm_ctx *ctx, sw_op_fn sw_op, unsigned char *out, size_t *outl,
		      size_t outsize, const unsigned char *in, size_t inl)
{
	struct eip93_route_msg m = { 0 };
	enum eip93_sw_reason r;
	int e;

	m.engine_available = atomic_load_explicit(&ctx->env->engine_available,
						  memory_order_relaxed) && ctx->key_set;
	m.key_failed = ctx->key_failed;
	m.enc = ctx->enc;
	m.ivlen = ctx->iv_ok ? ctx->ivlen : 0; /* an IV we do not hold is not ours to use */
	m.taglen = ctx->taglen_set;
	m.aadlen = ctx->aadlen;
	m.len = outsize >= inl ? inl : 0;   /* the delegate reports a short buffer */
	m.in = in;
	m.out = out;
	r = eip93_route(&ctx->env->limits, &m);
	if (r == EIP93_SW_NONE)
		r = key_ready(ctx);
	if (r == EIP93_SW_NONE) {
		e = engine_data(ctx, out, in, inl);
		if (e == 0) {
			engine_ok(ctx, inl);
			ctx->state = MSG_ENGINE;
			*outl = inl;
			return 1;
		}
		if (e == -EBADMSG) {
			r = EIP93_SW_REPLAY; /* the delegate decides, as it would have */
			atomic_store_explicit(&ctx->env->consecutive_errors, 0, memory_order_relaxed);
		} else {
			engine_error(ctx, e, "data");
			r = EIP93_SW_ERROR;
		}
	}
	ctx->state = MSG_SOFTWARE;
	count_sw(ctx, r);
	return sw_op(ctx->swctx, out, outl, outsize, in, inl);
}

/* Put the delegate back in the state its own record processing leaves. */
static void tls12_sync(struct gcm_ctx *ctx, const unsigned char *explicit_iv)
{
	unsigned char dummy[1] = { 0 };
	size_t n = 0;

	ERR_set_mark();
	if (!ctx->enc) {
		OSSL_PARAM p[2];

		p[0] = OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_SET_IV_INV,
							 (void *)explicit_iv, TLS12_EXPLICIT_IV);
		p[1] = OSSL_PARAM_construct_end();
		(void)ctx->sw->set_ctx_params(ctx->swctx, p);
	}
	/* A record too short to process ends the delegate's pending record, nothing else. */
	if (ctx->sw->cipher != NULL)
		(void)ctx->sw->cipher(ctx->swctx, dummy, &n, 0, dummy, 0);
	ERR_pop_to_mark();
}

/* Restore the delegate's TLS IV after an engine encrypt failed past tlsivgen. */
static void tls12_unget_iv(struct gcm_ctx *ctx, const unsigned char *full_iv)
{
	OSSL_PARAM p[2];

	p[0] = OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_IV_FIXED,
						 (void *)full_iv, (size_t)-1);
	p[1] = OSSL_PARAM_construct_end();
	ERR_set_mark();
	(void)ctx->sw->set_ctx_params(ctx->swctx, p);
	ERR_pop_to_mark();
}

/* Engine encrypt of a TLS 1.2 record in place; 0 or -errno (then nothing changed). */
static int tls12_encrypt(struct gcm_ctx *ctx, unsigned char *rec, size_t len)
{
	unsigned char iv[EIP93_ROUTE_IVLEN], tag[TLS12_TAG], *body = rec + TLS12_EXPLICIT_IV, *buf;
	OSSL_PARAM p[2];
	int r;

	buf = OPENSSL_malloc(len);
	if (buf == NULL)
		return -ENOMEM;
	/* The delegate hands out the explicit IV and advances, as in its own record path. */
	p[0] = OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_GET_IV_GEN, rec,
						 TLS12_EXPLICIT_IV);
	p[1] = OSSL_PARAM_construct_end();
	ERR_set_mark();
	if (!ctx->sw->get_ctx_params(ctx->swctx, p)) {
		ERR_pop_to_mark();
		OPENSSL_free(buf);
		return -EINVAL;
	}
	ERR_pop_to_mark();
	memcpy(iv, ctx->tls_fixed, TLS12_FIXED_IV);
	memcpy(iv + TLS12_FIXED_IV, rec, TLS12_EXPLICIT_IV);
	r = eng_aead(ctx, 1, iv, ctx->tls_aad, TLS12_AAD, body, len, buf, tag);
	if (r == 0) {
		memcpy(body, buf, len);
		memcpy(body + len, tag, TLS12_TAG);
		tls12_sync(ctx, rec);
	} else {
		tls12_unget_iv(ctx, iv);
	}
	OPENSSL_free(buf);
	return r;
}

/* Engine decrypt of a TLS 1.2 record in place; 0 or -errno (then the record is restored). */
static int tls12_decrypt(struct gcm_ctx *ctx, unsigned char *rec, size_t len)
{
	unsigned char iv[EIP93_ROUTE_IVLEN], *body = rec + TLS12_EXPLICIT_IV, *copy;
	int r;

	copy = OPENSSL_memdup(body, len);
	if (copy == NULL)
		return -ENOMEM;
	memcpy(iv, ctx->tls_fixed, TLS12_FIXED_IV);
	memcpy(iv + TLS12_FIXED_IV, rec, TLS12_EXPLICIT_IV);
	r = eng_aead(ctx, 0, iv, ctx->tls_aad, TLS12_AAD, body, len, body,
			     body + len);
	if (r == 0)
		tls12_sync(ctx, rec);
	else
		memcpy(body, copy, len);
	OPENSSL_free(copy);
	return r;
}

/* A TLS 1.2 record (explicit IV || payload || tag), through update or the one-shot. */
static int tls12_record(struct gcm_ctx *ctx, sw_op_fn sw_op, int oneshot, unsigned char *out,
			size_t *outl, size_t outsize, const unsigned char *in, size_t inl)
{
	struct eip93_route_msg m = { 0 };
	size_t len = inl >= TLS12_EXPLICIT_IV + TLS12_TAG ? inl - TLS12_EXPLICIT_IV - TLS12_TAG : 0;
	enum eip93_sw_reason r;
	int e;

	m.engine_available = atomic_load_explicit(&ctx->env->engine_available,
						  memory_order_relaxed) &&
			     ctx->key_set && ctx->tls_fixed_ok && in == out && in != NULL &&
			     inl >= TLS12_EXPLICIT_IV + TLS12_TAG && outsize >= inl &&
			     ctx->tls_aad_len == TLS12_AAD;
	m.key_failed = ctx->key_failed;
	m.enc = ctx->enc;
	m.ivlen = ctx->ivlen;
	m.taglen = TLS12_TAG;
	m.aadlen = ctx->tls_aad_len;
	m.len = len;
	r = eip93_route(&ctx->env->limits, &m);
	if (r == EIP93_SW_NONE)
		r = key_ready(ctx);
	if (r == EIP93_SW_NONE) {
		e = ctx->enc ? tls12_encrypt(ctx, out, len) : tls12_decrypt(ctx, out, len);
		if (e == 0) {
			engine_ok(ctx, len);
			ctx->tls_aad_len = 0;
			*outl = oneshot || ctx->enc ? inl : len;
			return 1;
		}
		if (e == -EBADMSG) {
			r = EIP93_SW_REPLAY;
			atomic_store_explicit(&ctx->env->consecutive_errors, 0, memory_order_relaxed);
		} else if (e == -EINVAL) {
			r = EIP93_SW_NONCE; /* the delegate refuses to generate an IV: it says so */
		} else {
			engine_error(ctx, e, "tls record");
			r = EIP93_SW_ERROR;
		}
	}
	count_sw(ctx, r);
	ctx->tls_aad_len = 0;
	return sw_op(ctx->swctx, out, outl, outsize, in, inl);
}

static int gcm_update(void *vctx, unsigned char *out, size_t *outl, size_t outsize,
		      const unsigned char *in, size_t inl)
{
	struct gcm_ctx *ctx = vctx;

	if (ctx->tls_aad_len != 0)
		return tls12_record(ctx, ctx->sw->update, 0, out, outl, outsize, in, inl);
	if (ctx->state == MSG_ENGINE && !replay(ctx))
		return 0;
	if (in != NULL && out == NULL && inl > 0) {
		if (ctx->state == MSG_IDLE && ctx->aadlen + inl <= sizeof(ctx->aad))
			memcpy(ctx->aad + ctx->aadlen, in, inl);
		ctx->aadlen += inl;
	} else if (in != NULL && out != NULL && inl > 0 && ctx->state == MSG_IDLE) {
		return first_data(ctx, ctx->sw->update, out, outl, outsize, in, inl);
	}
	return ctx->sw->update(ctx->swctx, out, outl, outsize, in, inl);
}

/* The message ends: count it if it carried no data, then forget it. */
static void msg_end(struct gcm_ctx *ctx)
{
	if (ctx->state == MSG_IDLE)
		count_sw(ctx, atomic_load_explicit(&ctx->env->engine_available, memory_order_relaxed)
				      ? EIP93_SW_SIZE : EIP93_SW_GATE);
	ctx->iv_ok = 0; /* GCM never reuses an IV: a new one must come first */
}

static int engine_final(struct gcm_ctx *ctx, unsigned char *out, size_t *outl, size_t outsize)
{
	int ok;

	/* The delegate's final moves its state machine on; its tag saw no data. */
	ERR_set_mark();
	ok = ctx->sw->final(ctx->swctx, out, outl, outsize);
	ERR_pop_to_mark();
	if (ctx->enc && ok) {
		memcpy(ctx->etag, ctx->mtag, sizeof(ctx->etag));
		ctx->etag_pending = 1;
	} else if (!ctx->enc) {
		/*
		 * Its final failed (it saw no data), which leaves its IV usable;
		 * after a final the default provider refuses more data until a
		 * new IV.  Changing the IV length and back marks the IV used
		 * and touches nothing else.
		 */
		OSSL_PARAM p[2];
		size_t other = EIP93_ROUTE_IVLEN + 4, same = EIP93_ROUTE_IVLEN;

		p[1] = OSSL_PARAM_construct_end();
		p[0] = OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, &other);
		(void)ctx->sw->set_ctx_params(ctx->swctx, p);
		p[0] = OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, &same);
		(void)ctx->sw->set_ctx_params(ctx->swctx, p);
	}
	*outl = 0;
	ct_drop(ctx);
	ctx->state = MSG_IDLE;
	ctx->iv_ok = 0;
	ctx->aadlen = 0;
	ctx->taglen_set = 0;
	return ctx->enc ? ok : 1; /* decrypting, the kernel verified the tag */
}

static int gcm_final(void *vctx, unsigned char *out, size_t *outl, size_t outsize)
{
	struct gcm_ctx *ctx = vctx;
	int ok;

	if (ctx->state == MSG_ENGINE)
		return engine_final(ctx, out, outl, outsize);
	msg_end(ctx);
	ok = ctx->sw->final(ctx->swctx, out, outl, outsize);
	if (ok && ctx->enc)
		ctx->etag_pending = 0; /* the delegate wrote its own tag */
	msg_reset(ctx);
	ctx->tls_aad_len = 0; /* a pending record AAD ends with final too */
	return ok;
}

static int gcm_cipher(void *vctx, unsigned char *out, size_t *outl, size_t outsize,
		      const unsigned char *in, size_t inl)
{
	struct gcm_ctx *ctx = vctx;
	int ok;

	if (ctx->sw->cipher == NULL)
		return 0;
	if (ctx->tls_aad_len != 0)
		return tls12_record(ctx, ctx->sw->cipher, 1, out, outl, outsize, in, inl);
	if (in == NULL) {
		if (ctx->state == MSG_ENGINE) {
			ok = engine_final(ctx, out, outl, outsize);
			if (ok)
				*outl = 0;
			return ok;
		}
		msg_end(ctx);
		ok = ctx->sw->cipher(ctx->swctx, out, outl, outsize, in, inl);
		if (ok && ctx->enc)
			ctx->etag_pending = 0;
		msg_reset(ctx);
		return ok;
	}
	/* One-shot data or AAD: the delegate's rules (and outl = inl) apply. */
	if (ctx->state == MSG_ENGINE && !replay(ctx))
		return 0;
	if (out == NULL) {
		if (ctx->state == MSG_IDLE && ctx->aadlen + inl <= sizeof(ctx->aad))
			memcpy(ctx->aad + ctx->aadlen, in, inl);
		ctx->aadlen += inl;
	} else if (ctx->state == MSG_IDLE && inl > 0) {
		return first_data(ctx, ctx->sw->cipher, out, outl, outsize, in, inl);
	}
	return ctx->sw->cipher(ctx->swctx, out, outl, outsize, in, inl);
}

static int gcm_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
	struct gcm_ctx *ctx = vctx;

	/* Generating an IV restarts the delegate's GCM state: bring it up to date first. */
	if (ctx->state == MSG_ENGINE &&
	    OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_AEAD_TLS1_GET_IV_GEN) != NULL &&
	    !replay(ctx))
		return 0;

	if (!ctx->sw->get_ctx_params(ctx->swctx, params))
		return 0;
	for (OSSL_PARAM *p = params; p != NULL && p->key != NULL; p++) {
		if (p->key[0] != 't')
			continue;
		/* After an engine encryption the tag is the engine's; the delegate judged the request. */
		if (ctx->etag_pending && strcmp(p->key, OSSL_CIPHER_PARAM_AEAD_TAG) == 0 &&
		    p->data != NULL && p->data_size <= sizeof(ctx->etag))
			memcpy(p->data, ctx->etag, p->data_size);
		else if (strcmp(p->key, OSSL_CIPHER_PARAM_AEAD_TLS1_GET_IV_GEN) == 0)
			ctx->iv_ok = 0; /* the delegate now holds the message IV */
	}
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
	return p != NULL && p->data_size != (size_t)-1 && p->data_size > ctx->ivlen;
}

static int gcm_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
	struct gcm_ctx *ctx = vctx;

	if (fixed_iv_too_long(ctx, params)) {
		ERR_raise(ERR_LIB_PROV, PROV_R_INVALID_IV_LENGTH);
		return 0;
	}

	if (params != NULL && params[0].key != NULL && ctx->state == MSG_ENGINE && !replay(ctx))
		return 0;
	if (!ctx->sw->set_ctx_params(ctx->swctx, params)) {
		/* The delegate applies parameters one by one: some may have taken. */
		ctx->iv_ok = 0;
		ctx->tls_fixed_ok = 0;
		return 0;
	}
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
