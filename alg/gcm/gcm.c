// SPDX-License-Identifier: Apache-2.0
/*
 * AES-GCM cipher context: the dispatch functions OpenSSL calls.
 *
 * The context wraps the software delegate's context, which owns all GCM
 * semantics (IV state machine, tag rules, TLS record handling, errors) and
 * sees every call.  After each delegate call the shadow state (shadow.c)
 * moves, so the context always knows what the delegate holds; at the first
 * data of a message (or per TLS 1.2 record) the routing rule (../route.c)
 * decides whether the engine does the data (offload.c, tls12.c).
 */
#include "gcm.h"
#include "gcm_ctx.h"
#include "../account.h"
#include "../key.h"
#include "offload.h"
#include "tls12.h"

#include <string.h>

#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/params.h>
#include <openssl/proverr.h>

void *eip93_gcm_newctx(void *provctx, size_t ks)
{
	struct gcm_ctx *ctx;

	ctx = OPENSSL_zalloc(sizeof(*ctx));
	if (ctx == NULL)
		return NULL;
	eip93_shadow_init(&ctx->sh);
	if (!eip93_cctx_init(&ctx->base, provctx, &eip93_cipher_aes_gcm, ks)) {
		OPENSSL_free(ctx); /* nothing else made */
		return NULL;
	}
	return ctx;
}

void eip93_gcm_freectx(void *vctx)
{
	struct gcm_ctx *ctx = vctx;

	if (ctx == NULL)
		return;
	eip93_key_forget(&ctx->base);
	eip93_cctx_free(&ctx->base);
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

	if (src->base.sw->dupctx == NULL)
		return NULL;
	dst = OPENSSL_zalloc(sizeof(*dst));
	if (dst == NULL)
		return NULL;
	dst->sh = src->sh;
	memcpy(dst->mtag, src->mtag, sizeof(dst->mtag));
	dst->owed = src->owed;
	memcpy(dst->owed_tag, src->owed_tag, sizeof(dst->owed_tag));
	if (!eip93_cctx_dup(&dst->base, &src->base)) {
		eip93_cctx_free(&dst->base);
		OPENSSL_clear_free(dst, sizeof(*dst));
		return NULL;
	}
	return dst;
}

/* After a refused call: the delegate's IV length is whatever it took; ask it. */
static void resync_ivlen(struct gcm_ctx *ctx)
{
	size_t ivlen = 0;
	OSSL_PARAM p[2];

	p[0] = OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, &ivlen);
	p[1] = OSSL_PARAM_construct_end();
	ERR_set_mark();
	if (ctx->base.sw->get_ctx_params(ctx->base.swctx, p) && ivlen != 0)
		eip93_shadow_ev(ctx, EIP93_EV_IVLEN, NULL, ivlen);
	ERR_pop_to_mark();
}

/*
 * The keys of a parameter list the context follows, each its first
 * occurrence (as OSSL_PARAM_locate() finds it), in one pass: a key is
 * compared in full only when its first letter matches.
 */
struct param_scan {
	const OSSL_PARAM *tag, *ivlen, *tls_aad, *iv_fixed, *iv_inv, *iv_gen;
	int other; /* a key other than these, ivlen, keylen and taglen */
};

static int key_is(const char *k, const char *name)
{
	return strcmp(k, name) == 0;
}

/* Where the key @k goes in @s: NULL for the keys a query may always ask (lengths). */
static const OSSL_PARAM **param_slot(struct param_scan *s, const char *k, int *other)
{
	switch (k[0]) { /* the first letters of the OSSL_CIPHER_PARAM_* names below */
	case 't':
		if (key_is(k, OSSL_CIPHER_PARAM_AEAD_TAG))
			return &s->tag;
		if (key_is(k, OSSL_CIPHER_PARAM_AEAD_TLS1_AAD))
			return &s->tls_aad;
		if (key_is(k, OSSL_CIPHER_PARAM_AEAD_TLS1_IV_FIXED))
			return &s->iv_fixed;
		if (key_is(k, OSSL_CIPHER_PARAM_AEAD_TLS1_SET_IV_INV))
			return &s->iv_inv;
		if (key_is(k, OSSL_CIPHER_PARAM_AEAD_TLS1_GET_IV_GEN))
			return &s->iv_gen;
		if (key_is(k, OSSL_CIPHER_PARAM_AEAD_TAGLEN))
			return NULL;
		break;
	case 'i':
		if (key_is(k, OSSL_CIPHER_PARAM_AEAD_IVLEN))
			return &s->ivlen;
		break;
	case 'k':
		if (key_is(k, OSSL_CIPHER_PARAM_KEYLEN))
			return NULL;
		break;
	default:
		break;
	}
	*other = 1;
	return NULL;
}

/*
 * Does a parameter call ask another question than the message whose tag the
 * engine refused?  A new tag; a record AAD (the delegate's next call is a
 * record, and its final too: the message is never finished); a fixed IV or an
 * invocation field (the delegate sets its GCM state up again).  Then software
 * answers alone, even where the call fails midway (some may have taken).
 */
static int params_new_question(const struct param_scan *s)
{
	return s->tag != NULL || s->tls_aad != NULL || s->iv_fixed != NULL || s->iv_inv != NULL;
}

static void scan_params(const OSSL_PARAM params[], struct param_scan *s)
{
	*s = (struct param_scan){ 0 };
	for (const OSSL_PARAM *p = params; p != NULL && p->key != NULL; p++) {
		const OSSL_PARAM **slot = param_slot(s, p->key, &s->other);

		if (slot != NULL && *slot == NULL)
			*slot = p;
	}
	if (s->tls_aad != NULL || s->iv_fixed != NULL || s->iv_inv != NULL || s->iv_gen != NULL)
		s->other = 1;
}

/*
 * Does the delegate apply a call's parameters in the order of the list?
 * OpenSSL 3.5's GCM does; 3.0's applies them in a fixed order (tag, IV
 * length, record AAD, fixed IV, invocation field), and so do 3.6's and
 * 4.0's, whose generated decoders read the whole list first (and refuse a
 * repeated key).
 */
static int delegate_list_order(void)
{
	unsigned long v = OpenSSL_version_num();

	return v >= 0x30500000L && v < 0x30600000L;
}

/* The delegate accepted the parameters: move the shadow state in the order it applied them. */
static void shadow_param(struct gcm_ctx *ctx, const OSSL_PARAM *p, enum eip93_shadow_event ev)
{
	size_t sz;

	if (ev == EIP93_EV_IVLEN) {
		if (OSSL_PARAM_get_size_t(p, &sz))
			eip93_shadow_ev(ctx, EIP93_EV_IVLEN, NULL, sz);
	} else if (p->data != NULL) {
		eip93_shadow_ev(ctx, ev, p->data, p->data_size);
	}
}

static void shadow_params(struct gcm_ctx *ctx, const struct param_scan *ps)
{
	const OSSL_PARAM *p[5] = { ps->tag, ps->ivlen, ps->tls_aad, ps->iv_fixed, ps->iv_inv };
	enum eip93_shadow_event ev[5] = { EIP93_EV_TAG, EIP93_EV_IVLEN, EIP93_EV_TLS_AAD,
					  EIP93_EV_IV_FIXED, EIP93_EV_IV_INV };
	size_t n = 0;

	for (size_t i = 0; i < 5; i++)
		if (p[i] != NULL) {
			p[n] = p[i];
			ev[n++] = ev[i];
		}
	/* Several at once under 3.5: in list order (insertion sort of at most five). */
	if (n > 1 && delegate_list_order())
		for (size_t i = 1; i < n; i++)
			for (size_t j = i; j > 0 && p[j] < p[j - 1]; j--) {
				const OSSL_PARAM *tp = p[j];
				enum eip93_shadow_event te = ev[j];

				p[j] = p[j - 1];
				ev[j] = ev[j - 1];
				p[j - 1] = tp;
				ev[j - 1] = te;
			}
	for (size_t i = 0; i < n; i++)
		shadow_param(ctx, p[i], ev[i]);
}

/*
 * A call that makes the delegate write @len bytes at the end of its IV
 * buffer (IV_GEN, SET_IV_INV) with a shorter IV writes before the buffer,
 * over its own state and flags: whatever is owed is paid first, as nothing
 * can be paid into that state afterwards (the shadow then keeps the context
 * in software for good).  Returns what such a call may leave owed.
 */
#define INVOCATION 8 /* the bytes IV_GEN and a TLS record hand out or take */

static unsigned int poison_keep(const struct gcm_ctx *ctx, size_t len)
{
	return ctx->sh.ivlen < len ? 0 : EIP93_OWE_TAG;
}

/*
 * What a parameter call may leave owed unpaid: a tag or a record AAD writes
 * the delegate's tag buffer, so the engine's tag must be there first; the
 * IV's state every parameter may depend on; and nothing before an
 * invocation field that may write outside the IV.
 */
static unsigned int params_keep(const struct gcm_ctx *ctx, const struct param_scan *ps)
{
	if (ps->tag != NULL || ps->tls_aad != NULL)
		return 0;
	if (ps->iv_inv != NULL && (ps->ivlen != NULL || ps->iv_inv->data_size > ctx->sh.ivlen))
		return 0;
	return poison_keep(ctx, 0);
}

/* The default provider's GCM IV buffer (GCM_IV_MAX_SIZE, OpenSSL 3.0 to 4.0). */
#define DELEGATE_IV_MAX 128

/*
 * A TLS fixed IV longer than the IV: the default provider's GCM (OpenSSL
 * 3.0.22, 3.5.7 and 4.0.2 alike) tests the invocation
 * field's length as (ivlen - len) in unsigned arithmetic, so it accepts any
 * longer fixed part, copies it into its 128-byte IV buffer (past the
 * buffer's end, over the rest of its context, when longer than that) and,
 * encrypting, fills "the rest" with ivlen - len = about 2^64 random bytes
 * from the end of the fixed part on: it writes over the heap until the
 * process dies (SIGSEGV).  Where it would, eip93 refuses the call (invalid
 * IV length) before the delegate sees it; everything else goes through
 * (decrypting, a fixed part up to the buffer's size is only copied).
 * @enc and @ivlen: the direction and IV length the fixed IV meets.  The
 * call's own IV length counts if the delegate applies it first: in its fixed
 * order the IV length comes before the fixed IV (delegate_list_order()).
 * Returns 1: refuse.
 */
static int fixed_iv_corrupts(const struct param_scan *ps, int enc, size_t ivlen)
{
	const OSSL_PARAM *p = ps->iv_fixed;
	size_t len, sz;

	if (p->data_type != OSSL_PARAM_OCTET_STRING || p->data_size == (size_t)-1)
		return 0;
	if (ps->ivlen != NULL && (!delegate_list_order() || ps->ivlen < p)) {
		if (!OSSL_PARAM_get_size_t(ps->ivlen, &sz) || sz == 0 || sz > DELEGATE_IV_MAX)
			return 0; /* the delegate refuses the call there, first */
		ivlen = sz;
	}
	len = p->data_size;
	return len > ivlen && (enc || len > DELEGATE_IV_MAX);
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
	struct param_scan ps = { 0 };
	unsigned int keep = 0;
	int ok;

	if (params != NULL)
		scan_params(params, &ps);
	/* The init's own IV comes first (an invalid one fails the init before its parameters). */
	if (ps.iv_fixed != NULL &&
	    fixed_iv_corrupts(&ps, enc, iv == NULL ? ctx->sh.ivlen : ivlen) &&
	    (iv == NULL || (ivlen > 0 && ivlen <= DELEGATE_IV_MAX))) {
		ERR_raise(ERR_LIB_PROV, PROV_R_INVALID_IV_LENGTH);
		return 0;
	}
	/* Encrypt mode never reads the tag buffer; a 12-byte IV resets the IV's state. */
	if (enc && ctx->sh.enc)
		keep |= params_keep(ctx, &ps);
	if (iv != NULL && ivlen == EIP93_ROUTE_IVLEN)
		keep |= EIP93_OWE_IV_USED;
	if (!eip93_offload_settle(ctx, keep))
		return 0;
	/*
	 * A tag the engine refused is judged on the same message, tag and
	 * direction only: a new IV, key or tag, a record AAD, a fixed IV or
	 * invocation field (params_new_question()), or the other direction
	 * (which the delegate takes even when the init fails), is another
	 * question, which software answers alone.
	 */
	if (iv != NULL || key != NULL || params_new_question(&ps) || enc != ctx->sh.enc)
		ctx->base.engine_rejected = 0;
	if (enc)
		ok = ctx->base.sw->einit(ctx->base.swctx, key, keylen, iv, ivlen, params);
	else
		ok = ctx->base.sw->dinit(ctx->base.swctx, key, keylen, iv, ivlen, params);
	ctx->owed &= ~(keep & EIP93_OWE_IV_USED); /* the delegate set the IV first */
	if (!ok) {
		/* The delegate may have taken the IV and the key before a parameter failed. */
		e.ev = EIP93_EV_INIT_FAILED;
		e.may_tls = ps.tls_aad != NULL;
		e.may_tag = ps.tag != NULL;
		eip93_shadow_move(&ctx->sh, &e);
		resync_ivlen(ctx);
		if (key != NULL)
			eip93_key_forget(&ctx->base);
		return 0;
	}
	if (key != NULL)
		eip93_key_take(&ctx->base, key, keylen);
	e.ev = EIP93_EV_INIT;
	e.has_key = key != NULL;
	eip93_shadow_move(&ctx->sh, &e);
	if (params != NULL)
		shadow_params(ctx, &ps);
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

/*
 * A message ends in software: count one without data, check a refused
 * engine tag.  A successful encryption final wrote the delegate's tag buffer.
 */
static int sw_ended(struct gcm_ctx *ctx, int ok)
{
	if (ok && ctx->sh.enc)
		ctx->owed &= ~EIP93_OWE_TAG;
	if (ctx->sh.msg == EIP93_MSG_IDLE && ctx->sh.tls == EIP93_TLS_NONE)
		eip93_count_sw(&ctx->base, eip93_offload_reason_empty(ctx));
	if (ok && ctx->base.engine_rejected)
		eip93_account_fault(&ctx->base, "a tag the engine refused and software accepted");
	ctx->base.engine_rejected = 0;
	eip93_shadow_ev(ctx, EIP93_EV_FINAL, NULL, 0);
	return ok;
}

/*
 * The delegate processed AAD (@out NULL) or data in software, successfully
 * or not: the shadow follows; more data means the engine's refused tag, if
 * any, was another message's.
 */
static inline __attribute__((always_inline)) int sw_moved(struct gcm_ctx *ctx, int ok,
							  const unsigned char *out,
							  const unsigned char *in, size_t inl)
{
	if (out != NULL && inl > 0)
		ctx->base.engine_rejected = 0;
	if (ok)
		eip93_shadow_ev(ctx, out == NULL ? EIP93_EV_AAD : EIP93_EV_DATA, in, inl);
	else if (out != NULL)
		eip93_shadow_ev(ctx, EIP93_EV_DATA, NULL, inl);
	return ok;
}

int eip93_gcm_update(void *vctx, unsigned char *out, size_t *outl, size_t outsize,
		     const unsigned char *in, size_t inl)
{
	struct gcm_ctx *ctx = vctx;
	int ok;

	/* The delegate ignores an empty update entirely, a pending record AAD included. */
	if (inl == 0)
		return ctx->base.sw->update(ctx->base.swctx, out, outl, outsize, in, inl);
	if (ctx->sh.tls != EIP93_TLS_NONE)
		return eip93_tls12_record(ctx, ctx->base.sw->update, 0, out, outl, outsize, in,
					  inl);
	/* Encrypt mode's data and AAD never touch the tag buffer. */
	if (!eip93_offload_settle(ctx, EIP93_OWE_TAG))
		return 0;
	if (in != NULL && out != NULL && ctx->sh.msg == EIP93_MSG_IDLE)
		return eip93_offload_first_data(ctx, ctx->base.sw->update, out, outl, outsize, in,
						inl);
	ok = ctx->base.sw->update(ctx->base.swctx, out, outl, outsize, in, inl);
	if (in == NULL)
		return sw_ended(ctx, ok); /* the delegate takes no input as its final */
	return sw_moved(ctx, ok, out, in, inl);
}

int eip93_gcm_final(void *vctx, unsigned char *out, size_t *outl, size_t outsize)
{
	struct gcm_ctx *ctx = vctx;

	if (ctx->sh.msg == EIP93_MSG_ENGINE)
		return eip93_offload_final(ctx, out, outl, outsize);
	/* An encryption final that fails leaves the tag buffer as it was. */
	if (!eip93_offload_settle(ctx, EIP93_OWE_TAG))
		return 0;
	return sw_ended(ctx, ctx->base.sw->final(ctx->base.swctx, out, outl, outsize));
}

int eip93_gcm_cipher(void *vctx, unsigned char *out, size_t *outl, size_t outsize,
		     const unsigned char *in, size_t inl)
{
	struct gcm_ctx *ctx = vctx;
	int ok;

	if (ctx->base.sw->cipher == NULL)
		return 0;
	if (ctx->sh.tls != EIP93_TLS_NONE)
		return eip93_tls12_record(ctx, ctx->base.sw->cipher, 1, out, outl, outsize, in,
					  inl);
	if (in == NULL) {
		if (ctx->sh.msg == EIP93_MSG_ENGINE) {
			/* The delegate's one-shot final: its size check first, and outl = inl. */
			if (outsize < inl) {
				ERR_raise(ERR_LIB_PROV, PROV_R_OUTPUT_BUFFER_TOO_SMALL);
				return 0;
			}
			ok = eip93_offload_final(ctx, out, outl, outsize);
			if (ok)
				*outl = inl;
			return ok;
		}
		if (!eip93_offload_settle(ctx, EIP93_OWE_TAG))
			return 0;
		return sw_ended(ctx,
				ctx->base.sw->cipher(ctx->base.swctx, out, outl, outsize, in, inl));
	}
	/* One-shot data or AAD: the delegate's rules (and outl = inl) apply. */
	if (!eip93_offload_settle(ctx, EIP93_OWE_TAG))
		return 0;
	if (out != NULL && ctx->sh.msg == EIP93_MSG_IDLE && inl > 0)
		return eip93_offload_first_data(ctx, ctx->base.sw->cipher, out, outl, outsize, in,
						inl);
	ok = ctx->base.sw->cipher(ctx->base.swctx, out, outl, outsize, in, inl);
	return sw_moved(ctx, ok, out, in, inl);
}

/* The first IV_GEN request in @params (the key every caller but OpenSSH's never asks). */
static const OSSL_PARAM *find_iv_gen(const OSSL_PARAM params[])
{
	for (const OSSL_PARAM *p = params; p != NULL && p->key != NULL; p++)
		if (p->key[0] == 't' && key_is(p->key, OSSL_CIPHER_PARAM_AEAD_TLS1_GET_IV_GEN))
			return p;
	return NULL;
}

int eip93_gcm_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
	struct gcm_ctx *ctx = vctx;
	struct param_scan ps = { 0 };
	const OSSL_PARAM *gen;

	if (ctx->owed != 0)
		scan_params(params, &ps);
	else
		ps.iv_gen = find_iv_gen(params);
	gen = ps.iv_gen;
	/*
	 * Generating an IV restarts the delegate's GCM state: bring it up to
	 * date first; so must anything the IV's state may answer (lengths and
	 * the tag do not depend on it).
	 */
	if ((gen != NULL || (ps.other && (ctx->owed & EIP93_OWE_IV_USED))) &&
	    !eip93_offload_settle(ctx, gen != NULL ? poison_keep(ctx, INVOCATION) : EIP93_OWE_TAG))
		return 0;
	/*
	 * A refused tag is judged by a final that follows its data directly:
	 * IV_GEN starts another message in the delegate, and any query between
	 * them ends the judgement too (a missed count is benign; one store).
	 */
	ctx->base.engine_rejected = 0;
	if (!ctx->base.sw->get_ctx_params(ctx->base.swctx, params)) {
		if (gen != NULL)
			eip93_shadow_ev(ctx, EIP93_EV_PARAMS_FAILED, NULL, 0);
		return 0;
	}
	/* The tag the delegate owes: what it handed out is its empty message's. */
	if (ps.tag != NULL && (ctx->owed & EIP93_OWE_TAG) && ps.tag->data != NULL) {
		size_t n = ps.tag->return_size < sizeof(ctx->owed_tag) ? ps.tag->return_size
								       : sizeof(ctx->owed_tag);

		memcpy(ps.tag->data, ctx->owed_tag, n);
	}
	if (gen != NULL && gen->data != NULL)
		eip93_shadow_ev(ctx, EIP93_EV_IV_GEN, gen->data, gen->data_size);
	return 1;
}

int eip93_gcm_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
	struct gcm_ctx *ctx = vctx;
	struct eip93_shadow_ev e = { .ev = EIP93_EV_PARAMS_FAILED };
	struct param_scan ps;

	scan_params(params, &ps);
	if (ps.iv_fixed != NULL && fixed_iv_corrupts(&ps, ctx->sh.enc, ctx->sh.ivlen)) {
		ERR_raise(ERR_LIB_PROV, PROV_R_INVALID_IV_LENGTH);
		return 0;
	}
	if (params != NULL && params[0].key != NULL &&
	    !eip93_offload_settle(ctx, params_keep(ctx, &ps)))
		return 0;
	/*
	 * Any parameter call ends the judgement of a refused tag (a tag, record
	 * AAD, fixed IV or invocation field asks another question; the rest
	 * come between a message's data and its final only in odd callers, and
	 * a missed count is benign), taken or not (some may have taken).
	 */
	ctx->base.engine_rejected = 0;
	if (!ctx->base.sw->set_ctx_params(ctx->base.swctx, params)) {
		/* The delegate applies parameters one by one: some may have taken. */
		e.may_tls = ps.tls_aad != NULL;
		e.may_tag = ps.tag != NULL;
		eip93_shadow_move(&ctx->sh, &e);
		resync_ivlen(ctx);
		return 0;
	}
	shadow_params(ctx, &ps);
	return 1;
}
