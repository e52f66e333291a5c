// SPDX-License-Identifier: Apache-2.0
/*
 * An engine message.  Its first data runs as one engine operation; the
 * delegate has seen the IV, the AAD and the parameters, but not the data.
 * The context keeps the message's ciphertext so that, if anything follows
 * that one operation cannot express (more data, AAD after data, a parameter
 * change), the message leaves the engine by a replay: the delegate processes
 * that ciphertext and reaches exactly the state software alone would have.
 * Every engine result is verified (../verify.c) before it is released; errors,
 * wrong results and refused tags restore the input and give the message to
 * the delegate, so a caller sees exactly the default provider's behaviour.
 */
#include "offload.h"
#include "compose.h"
#include "../pipeline.h"

#include <errno.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/params.h>

/* OWE_TAG: the delegate's tag buffer gets the engine's tag, as its own final would have left it. */
static int pay_tag(struct gcm_ctx *ctx)
{
	const struct eip93_sw_impl *sw = ctx->base.sw;
	OSSL_PARAM p[2];
	int ok, back;

	/* Only decrypt mode takes a tag; the direction is restored whatever happens. */
	p[0] = OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, ctx->owed_tag,
						 EIP93_ENGINE_TAGLEN);
	p[1] = OSSL_PARAM_construct_end();
	ERR_set_mark();
	ok = sw->dinit(ctx->base.swctx, NULL, 0, NULL, 0, NULL) &&
	     sw->set_ctx_params(ctx->base.swctx, p);
	back = sw->einit(ctx->base.swctx, NULL, 0, NULL, 0, NULL);
	ERR_pop_to_mark();
	return ok && back;
}

/*
 * OWE_IV_USED: after a final the default provider refuses more data until a
 * new IV.  Changing the IV length and back marks the delegate's IV used and
 * touches nothing else.
 */
static void pay_iv_used(struct gcm_ctx *ctx)
{
	OSSL_PARAM p[2];
	size_t other = EIP93_ROUTE_IVLEN + 4, same = EIP93_ROUTE_IVLEN;

	p[1] = OSSL_PARAM_construct_end();
	p[0] = OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, &other);
	(void)ctx->base.sw->set_ctx_params(ctx->base.swctx, p);
	p[0] = OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, &same);
	(void)ctx->base.sw->set_ctx_params(ctx->base.swctx, p);
}

/*
 * An engine message under way leaves the engine: the delegate processes its
 * ciphertext and reaches exactly the state software alone would have.
 */
static int replay(struct gcm_ctx *ctx)
{
	const struct eip93_sw_impl *sw = ctx->base.sw;
	size_t n = 0;
	int ok, back = 1;

	/*
	 * An encryption replays in decrypt mode over its ciphertext (GHASH
	 * covers the ciphertext either way and the counter advances the same),
	 * then returns to encrypt mode even when the middle step failed.
	 */
	if (ctx->sh.enc) {
		ok = sw->dinit(ctx->base.swctx, NULL, 0, NULL, 0, NULL) &&
		     sw->update(ctx->base.swctx, ctx->base.ct, &n, ctx->base.ctlen, ctx->base.ct,
				ctx->base.ctlen);
		back = sw->einit(ctx->base.swctx, NULL, 0, NULL, 0, NULL);
	} else {
		ok = sw->update(ctx->base.swctx, ctx->base.ct, &n, ctx->base.ctlen, ctx->base.ct,
				ctx->base.ctlen);
	}
	eip93_count_replay(&ctx->base, ctx->base.ctlen);
	eip93_cctx_release(&ctx->base, 1); /* it holds plaintext now */
	eip93_shadow_ev(ctx, EIP93_EV_REPLAY, NULL, 0);
	return ok && back;
}

int eip93_offload_settle_slow(struct gcm_ctx *ctx, unsigned int keep)
{
	unsigned int pay = ctx->owed & ~keep;
	int ok = 1;

	if (ctx->sh.msg == EIP93_MSG_ENGINE)
		ok = replay(ctx);
	if (pay & EIP93_OWE_TAG)
		ok = pay_tag(ctx) && ok;
	if (pay & EIP93_OWE_IV_USED)
		pay_iv_used(ctx);
	ctx->owed &= ~pay;
	return ok;
}

/*
 * One engine operation over the first data of a message, verified.  Keeps
 * the ciphertext for a replay.  Unless it returns 0, the caller's input is
 * as it was, nothing the engine wrote is in a place the caller will read
 * from, and the delegate has seen nothing of the data.
 * The engine always writes into a buffer that already holds a copy of its
 * input (eip93_engine_checked(): a block it skips or leaves unencrypted is
 * then its input, and caught): sealing, the message buffer, so the
 * plaintext survives anything; opening, the caller's output.
 * Return: 0, EIP93_ENGINE_WRONG, or -errno (-EBADMSG: the engine refused the tag).
 */
static int engine_data(struct gcm_ctx *ctx, unsigned char *out, const unsigned char *in, size_t len)
{
	const unsigned char *iv = ctx->sh.iv;
	unsigned char *ct = eip93_cctx_scratch(&ctx->base, len);
	int r;

	if (ct == NULL)
		return -ENOMEM;
	memcpy(ct, in, len);
	if (ctx->sh.enc) {
		r = eip93_engine_checked(ctx, 1, iv, ctx->sh.aad, ctx->sh.aadlen, in, in, ct, len,
					 ctx->mtag);
		if (r != 0) {
			eip93_cctx_release(&ctx->base, 1); /* holds plaintext, or part of it */
			return r;
		}
		memcpy(out, ct, len);
	} else {
		if (out != in)
			memcpy(out, in, len);
		r = eip93_engine_checked(ctx, 0, iv, ctx->sh.aad, ctx->sh.aadlen, in,
					 in == out ? ct : in, out, len, ctx->sh.tag);
		if (r != 0) {
			memcpy(out, ct, len);		   /* unverified plaintext never stays */
			eip93_cctx_release(&ctx->base, 0); /* the copy: ciphertext only */
			return r;
		}
	}
	ctx->base.ctlen = len;
	return 0;
}

/* The routing facts of a generic message whose first data is @in/@out. */
static void route_facts(const struct gcm_ctx *ctx, struct eip93_route_msg *m,
			const unsigned char *out, size_t outsize, const unsigned char *in,
			size_t inl)
{
	*m = (struct eip93_route_msg){
		.iv_usable = eip93_shadow_iv_usable(&ctx->sh),
		.taglen = ctx->sh.taglen,
		.aadlen = ctx->sh.aadlen,
		.len = inl,
		.room = outsize >= inl, /* the delegate reports a short buffer itself */
		.in = in,
		.out = out,
		.enc = ctx->sh.enc,
		.ivlen = ctx->sh.ivlen,
	};
	eip93_pipeline_facts(&ctx->base, m);
}

/* The reason a message without data ends in software (counted at its final). */
enum eip93_sw_reason eip93_offload_reason_empty(const struct gcm_ctx *ctx)
{
	struct eip93_route_msg m;

	route_facts(ctx, &m, NULL, 0, NULL, 0);
	return eip93_route(&ctx->base.env->limits[EIP93_EMODE_AEAD], &m);
}

/* The generic shape's engine step: the whole first data as one engine operation. */
static int generic_engine(struct eip93_cctx *c, struct eip93_pipe_io *io, size_t len)
{
	int e = engine_data(gcm_of(c), io->out, io->in, len);

	if (e == 0)
		*io->outl = len;
	return e;
}

/* The shadow follows: the engine took the data, or the delegate did (or refused it). */
static inline __attribute__((always_inline)) void generic_moved(struct eip93_cctx *c, int engine,
								size_t len)
{
	eip93_shadow_ev(gcm_of(c), engine ? EIP93_EV_ENGINE : EIP93_EV_DATA, NULL, len);
}

static const struct eip93_pipe_shape generic_shape = {
	.where = "data",
	.engine = generic_engine,
	.moved = generic_moved,
};

int eip93_offload_first_data(struct gcm_ctx *ctx, eip93_sw_op_fn sw_op, unsigned char *out,
			     size_t *outl, size_t outsize, const unsigned char *in, size_t inl)
{
	struct eip93_pipe_io io = {
		.sw_op = sw_op, .out = out, .outl = outl, .outsize = outsize, .in = in, .inl = inl
	};
	struct eip93_route_msg m;

	route_facts(ctx, &m, out, outsize, in, inl);
	return eip93_pipeline_run(&ctx->base, &generic_shape, &m, &io);
}

int eip93_offload_final(struct gcm_ctx *ctx, unsigned char *out, size_t *outl, size_t outsize)
{
	int ok;

	/* The delegate's final moves its state machine on; its tag saw no data. */
	ERR_set_mark();
	ok = ctx->base.sw->final(ctx->base.swctx, out, outl, outsize);
	ERR_pop_to_mark();
	if (ctx->sh.enc && ok) {
		/* Its tag buffer owes the engine's tag (until its next final overwrites it). */
		memcpy(ctx->owed_tag, ctx->mtag, sizeof(ctx->owed_tag));
		ctx->owed |= EIP93_OWE_TAG;
	} else if (!ctx->sh.enc) {
		/* Its final failed (it saw no data): its IV is owed "used". */
		ctx->owed |= EIP93_OWE_IV_USED;
		ok = 1; /* decrypting, the engine verified the tag */
	}
	*outl = 0;
	eip93_cctx_release(&ctx->base, 0);
	eip93_shadow_ev(ctx, EIP93_EV_FINAL, NULL, 0);
	return ok;
}
