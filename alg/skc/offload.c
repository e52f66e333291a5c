// SPDX-License-Identifier: Apache-2.0
/*
 * AES-CTR and AES-CBC data: one update or EVP_Cipher call, routed.  The
 * delegate (the default provider's cipher) sees every call but an engine
 * message's data; it holds the whole state (the running IV or counter, the
 * buffered bytes, padding, the TLS rules), and the context follows it in its
 * shadow.  A message goes to the engine when that state is one the engine
 * can continue: an IV set, nothing buffered (CTR: at a block boundary; CBC
 * decryption with padding: at most the one block the delegate holds back),
 * whole blocks, no TLS record, inside the window.  The engine's result is
 * checked (check.c) before anything is released; then the delegate is
 * brought where software alone would be: an init with the running IV the
 * message ended on (its own "original IV" then differs, which the context
 * answers itself: skc.c), and, decrypting CBC with padding, the last block
 * fed to it to hold back as it would have.  What goes where, and why, is in
 * docs/design.md "AES-CTR and AES-CBC".
 */
#include "skc_ctx.h"
#include "../pipeline.h"
#include "../request.h"

#include <errno.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/params.h>

#define BLK EIP93_SKC_BLK

void eip93_skc_reset(struct eip93_skc_shadow *sh, unsigned int num)
{
	sh->fed = 0;
	sh->num0 = num;
	sh->bufsz = 0;
}

/* CBC: the bytes the delegate buffers. */
static size_t cbc_bufsz(const struct eip93_skc_shadow *sh)
{
	return sh->bufsz;
}

/* The delegate's running IV into the shadow (the lazy half of following it); 1 or 0. */
static int ask_iv(struct skc_ctx *ctx)
{
	OSSL_PARAM p[2];
	int ok;

	p[0] = OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_UPDATED_IV, ctx->sh.iv, BLK);
	p[1] = OSSL_PARAM_construct_end();
	ERR_set_mark();
	ok = ctx->base.sw->get_ctx_params(ctx->base.swctx, p) && p[0].return_size == BLK;
	ERR_pop_to_mark();
	if (ok)
		ctx->sh.stale = 0;
	return ok;
}

int eip93_skc_iv_now(struct skc_ctx *ctx)
{
	return !ctx->sh.stale || ask_iv(ctx);
}

void eip93_skc_followed(struct skc_ctx *ctx, int oneshot, int ok, const unsigned char *in,
			size_t inl)
{
	struct eip93_skc_shadow *sh = &ctx->sh;
	size_t k; /* the bytes of @in: the last min(@inl, 16) the call took */

	if (!ok) {
		sh->known = 0; /* a refused call may have moved some of its state */
		sh->stale = 1; /* the running IV too: ask it */
		return;
	}
	if (inl == 0 || in == NULL)
		return;
	sh->stale = 1;
	if (ctx->cbc && oneshot)
		return; /* EVP_Cipher's CBC: the chain moves, the buffer does not */
	sh->fed += inl;
	if (!ctx->cbc)
		return;
	/*
	 * ossl_cipher_generic_block_update(): whole blocks go through, the rest
	 * is buffered; decrypting with padding, a last whole block is held back.
	 */
	k = (sh->bufsz + inl) % BLK;
	sh->bufsz = k != 0 ? k : !sh->enc && sh->pad ? BLK : 0;
	k = inl < BLK ? inl : BLK;
	memmove(sh->tail, sh->tail + k, BLK - k);
	memcpy(sh->tail + BLK - k, in, k);
}

/* @iv plus @n blocks, as a 128-bit big-endian counter (CTR's, both OpenSSL's and the kernel's). */
static void ctr_add(unsigned char iv[BLK], size_t n)
{
	unsigned int carry = 0;
	size_t v = n;

	for (int i = BLK - 1; i >= 0; i--) {
		unsigned int s = iv[i] + (unsigned int)(v & 0xff) + carry;

		iv[i] = (unsigned char)s;
		carry = s >> 8;
		v >>= 8;
		if (v == 0 && carry == 0)
			break;
	}
}

/*
 * The engine's requests for @len bytes of @src into @dst from @iv, on the
 * transform of the direction the delegate is in.  AES-CTR is cut where the
 * counter's last 32 bits wrap (the engine's counter has no carry), unless a
 * test turned that workaround off.  Pages as the backend reported them.
 */
static int requests(struct skc_ctx *ctx, const unsigned char *iv, const unsigned char *src,
		    unsigned char *dst, size_t len, struct eip93_engine_pages *pg)
{
	struct eip93_engine_key *k = eip93_skc_transform(ctx, ctx->sh.enc);
	struct eip93_engine_pages pg2 = { 0 };
	unsigned char iv2[BLK];
	uint64_t low, first = len;
	int r;

	if (!ctx->cbc && eip93_skc_split_ctr()) {
		low = (uint64_t)iv[12] << 24 | (uint64_t)iv[13] << 16 | (uint64_t)iv[14] << 8 |
		      iv[15];
		if (((uint64_t)1 << 32) - low < len / BLK)
			first = (((uint64_t)1 << 32) - low) * BLK;
	}
	r = eip93_engine_skc(&ctx->base, k, ctx->sh.enc, iv, src, dst, (size_t)first, pg);
	if (r != 0 || first == len)
		return r;
	memcpy(iv2, iv, BLK);
	ctr_add(iv2, (size_t)first / BLK);
	r = eip93_engine_skc(&ctx->base, k, ctx->sh.enc, iv2, src + first, dst + first,
			     len - (size_t)first, &pg2);
	for (unsigned int i = 0; r == 0 && i < pg2.n; i++) /* its phases, as payload offsets */
		eip93_engine_pages_add(pg, pg2.q[i] + (size_t)first);
	OPENSSL_cleanse(iv2, sizeof(iv2));
	return r;
}

int eip93_skc_run(struct skc_ctx *ctx, const unsigned char *src, unsigned char *dst, size_t len)
{
	struct eip93_engine_pages pg = { 0 };
	int r = requests(ctx, ctx->sh.iv, src, dst, len, &pg);

	if (r == 0)
		r = eip93_skc_check(&ctx->base, ctx->cbc, ctx->sh.enc, ctx->sh.iv, &pg, src, dst,
				    len);
	return r == -EBADMSG ? EIP93_ENGINE_WRONG : r;
}

/*
 * The delegate where software alone would be after the engine's @len bytes:
 * an init (same direction, no key) with the IV @next, and the block @hold
 * fed to it to hold back (CBC decryption with padding; NULL: none).
 */
int eip93_skc_sync(struct skc_ctx *ctx, const unsigned char *next, const unsigned char *hold)
{
	const struct eip93_sw_impl *sw = ctx->base.sw;
	struct eip93_skc_shadow *sh = &ctx->sh;
	unsigned char none[BLK];
	size_t n = 0;
	int ok;

	ERR_set_mark();
	ok = sh->enc ? sw->einit(ctx->base.swctx, NULL, 0, next, BLK, NULL)
		     : sw->dinit(ctx->base.swctx, NULL, 0, next, BLK, NULL);
	if (ok && hold != NULL)
		ok = sw->update(ctx->base.swctx, none, &n, sizeof(none), hold, BLK) && n == 0;
	ERR_pop_to_mark();
	memcpy(sh->iv, next, BLK);
	sh->stale = 0;
	sh->oiv_stale = 1;
	eip93_skc_reset(sh, 0);
	if (hold != NULL) {
		memcpy(sh->tail, hold, BLK);
		sh->fed = BLK;
		sh->bufsz = BLK;
	}
	if (ok && ctx->cbc && sh->cbcnum != 0) { /* the init reset the num it keeps */
		OSSL_PARAM p[2] = { OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_NUM, &sh->cbcnum),
				    OSSL_PARAM_construct_end() };

		ERR_set_mark();
		ok = sw->set_ctx_params(ctx->base.swctx, p);
		ERR_pop_to_mark();
	}
	if (!ok)
		sh->known = 0;
	return ok;
}

/*
 * The engine step: the message (the held block, if any, then the input)
 * from a copy into a buffer that holds that copy (a block the engine skips
 * or leaves as it was is then its input, and caught), checked, synced,
 * released.  0, EIP93_ENGINE_WRONG, or -errno (nothing released: the
 * delegate has seen none of it and takes the message).
 */
static int skc_engine(struct eip93_cctx *c, struct eip93_pipe_io *io, size_t len)
{
	struct skc_ctx *ctx = skc_of(c);
	struct eip93_skc_shadow *sh = &ctx->sh;
	size_t held = ctx->cbc && !io->oneshot ? cbc_bufsz(sh) : 0, total = held + io->inl;
	int keep = ctx->cbc && !io->oneshot && !sh->enc && sh->pad; /* the last block stays */
	const unsigned char *src = io->in, *next;
	unsigned char *buf, *dst;
	int r, direct;

	/*
	 * Out of place (the route allows no partial overlap), the caller's
	 * output is the engine's destination; in place, or after a held block,
	 * a buffer of the context's.
	 */
	direct = held == 0 && io->out != io->in;
	buf = direct ? NULL : eip93_cctx_scratch(c, held != 0 ? 2 * total : len);
	if (!direct && buf == NULL)
		return -ENOMEM;
	if (held != 0) { /* the held block, then the input: one message */
		memcpy(buf, sh->tail, BLK);
		memcpy(buf + BLK, io->in, io->inl);
		src = buf;
	}
	dst = direct ? io->out : held != 0 ? buf + total : buf;
	memcpy(dst, src, len);
	r = eip93_skc_run(ctx, src, dst, len);
	if (r != 0) {
		if (direct) /* nothing of it stays: software writes the output again */
			OPENSSL_cleanse(dst, len);
		eip93_cctx_release(c, 1);
		return r;
	}
	if (!ctx->cbc) {
		unsigned char ctr[BLK];

		memcpy(ctr, sh->iv, BLK);
		ctr_add(ctr, len / BLK);
		r = eip93_skc_sync(ctx, ctr, NULL);
		OPENSSL_cleanse(ctr, sizeof(ctr));
	} else {
		/* The chain: the last ciphertext block the engine read or wrote. */
		next = sh->enc ? dst + len - BLK : src + len - BLK;
		r = eip93_skc_sync(ctx, next, keep ? src + len : NULL);
	}
	if (r) {
		if (!direct)
			memcpy(io->out, dst, len);
		*io->outl = len;
	} else { /* the delegate refused the IV it just had: the call fails, as it would have */
		io->done = 1;
		io->ret = 0;
	}
	eip93_cctx_release(c, 1);
	return r ? 0 : -EIO;
}

/* The pipeline's record of where the message went (eip93_skc_data() follows software). */
static inline __attribute__((always_inline)) void skc_moved(struct eip93_cctx *c, int engine,
							    size_t len)
{
	(void)len;
	skc_of(c)->engine_msg = engine;
}

static const struct eip93_pipe_shape skc_shape = {
	.where = "data",
	.fixed = 1,
	.engine = skc_engine,
	.moved = skc_moved,
};

/*
 * Could the engine continue the delegate's state with @inl bytes (@oneshot:
 * EVP_Cipher)?  The engine's part of the message into *@len, the block the
 * delegate holds back before it into *@held (0 or 16).
 */
static int continuable(struct skc_ctx *ctx, int oneshot, size_t inl, size_t *len, size_t *held)
{
	const struct eip93_skc_shadow *sh = &ctx->sh;

	*len = inl;
	*held = 0;
	if (!sh->known || !sh->iv_set || sh->tls || inl % BLK != 0)
		return 0;
	if (!ctx->cbc)
		return (sh->num0 + sh->fed) % BLK == 0;
	*held = cbc_bufsz(sh);
	if (sh->enc != sh->key_enc) /* the delegate's key schedule is the other direction's */
		return 0;
	if (oneshot || sh->enc || !sh->pad) /* EVP_Cipher too: the sync empties the buffer */
		return *held == 0;
	/* Decrypting with padding: the delegate holds the last block back. */
	if (*held != 0 && *held != BLK)
		return 0;
	*len = *held + inl - BLK;
	return *len >= BLK;
}

int eip93_skc_data(struct skc_ctx *ctx, int oneshot, unsigned char *out, size_t *outl,
		   size_t outsize, const unsigned char *in, size_t inl)
{
	const struct eip93_sw_impl *sw = ctx->base.sw;
	struct eip93_pipe_io io = { .sw_op = oneshot ? sw->cipher : sw->update,
				    .out = out,
				    .outl = outl,
				    .outsize = outsize,
				    .in = in,
				    .inl = inl,
				    .oneshot = oneshot };
	struct eip93_route_msg m = { 0 };
	const struct eip93_route_limits *lim = &ctx->base.env->limits[ctx->base.cipher->engine_mode];
	size_t len, held;
	int ok;

	m.iv_usable = continuable(ctx, oneshot, inl, &len, &held);
	/* The running IV, asked only of a message the engine could take. */
	if (m.iv_usable && ctx->sh.stale &&
	    (len < lim->min_size || len > lim->max_size || !ask_iv(ctx)))
		m.iv_usable = 0;
	m.enc = 1;		     /* no tag */
	m.ivlen = EIP93_ROUTE_IVLEN; /* the IV's length is the shadow's question here */
	m.len = len;
	m.room = outsize >= len;
	m.in = in;
	/*
	 * After a held block the delegate writes its output 16 bytes ahead of
	 * the input it reads: in place, it reads blocks it has already written
	 * over, and the engine must not give another answer (an overlap).
	 */
	m.out = out + held;
	eip93_pipeline_facts(&ctx->base, &m);
	if (eip93_env_kalg(ctx->base.env, ctx->base.cipher->engine_mode)[0] == '\0')
		m.engine_available = 0; /* the engine's driver has no such mode on this road */
	ctx->engine_msg = 0;
	ok = eip93_pipeline_run(&ctx->base, &skc_shape, &m, &io);
	if (!ctx->engine_msg)
		eip93_skc_followed(ctx, oneshot, ok, in + inl - (inl < BLK ? inl : BLK), inl);
	return ok;
}
