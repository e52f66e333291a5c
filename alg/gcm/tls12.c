// SPDX-License-Identifier: Apache-2.0
/*
 * A TLS 1.2 GCM record on the engine: explicit IV (8) || payload || tag (16),
 * in place, after EVP_CTRL_AEAD_TLS1_AAD, through one update or the
 * one-shot EVP_Cipher.  The delegate keeps doing what its own record path
 * does to its state: it hands out the explicit IV (encrypting) or takes it
 * (decrypting), and ends the pending record; the engine does the payload.
 * The engine's result is verified before it is released.
 */
#include "tls12.h"
#include "compose.h"
#include "kat.h"
#include "../pipeline.h"

#include <errno.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/params.h>

#define EIV 8
#define TAG 16

/*
 * The delegate runs its own record path over an empty record (explicit IV ||
 * 16 tag bytes), through the same call (@sw_op) as the real record:
 * encrypting it hands out the explicit IV and counts on, decrypting it takes
 * @rec's explicit IV; either way it sets its tag length, finishes the IV and
 * ends the pending record, exactly as the real record would have (an empty
 * record's tag is refused when decrypting: its state is the same; the record
 * AAD in its buffer is only read).  Whether it refuses a record does not
 * depend on the payload.  Returns the delegate's answer; encrypting, @rec
 * gets the explicit IV.  @keep_errors: leave the delegate's errors queued.
 */
static int delegate_record(struct gcm_ctx *ctx, eip93_sw_op_fn sw_op, unsigned char *rec,
			   int keep_errors)
{
	unsigned char dummy[EIV + TAG] = { 0 };
	size_t n = 0;
	int ok;

	if (!ctx->sh.enc)
		memcpy(dummy, rec, EIV);
	ERR_set_mark();
	ok = sw_op(ctx->base.swctx, dummy, &n, sizeof(dummy), dummy, sizeof(dummy));
	if (keep_errors)
		ERR_clear_last_mark();
	else
		ERR_pop_to_mark();
	if (ctx->sh.enc && ok)
		memcpy(rec, dummy, EIV);
	return ok;
}

/*
 * A record's payload sealed by the delegate's own implementation in a
 * context of its own (the key, @iv, the corrected record AAD): the bytes its
 * record path would have written, for a record whose engine operation
 * failed after the delegate had already handed out its explicit IV.
 */
static int software_seal(struct gcm_ctx *ctx, const unsigned char *iv, unsigned char *body,
			 size_t len)
{
	return eip93_key_sw_seal(&ctx->base, iv, ctx->sh.tls_aad, sizeof(ctx->sh.tls_aad), body,
				 len, body, body + len);
}

/*
 * Engine encryption of a record in place.  The delegate's empty record runs
 * first, on the delegate itself: it hands out the explicit IV and its state
 * moves exactly as for the real record.  The engine then seals the payload
 * into the scratch buffer; only a verified result is copied into the
 * record.  Returns 0 (engine), REFUSED (the delegate refused the record: its
 * errors are queued and the caller's record is untouched), SEALED (the
 * engine failed, *@e says how, and the payload was sealed in software
 * instead), or -ENOMEM (that failed too: the record cannot be made).
 */
#define REFUSED 2
#define SEALED 3
static int record_seal(struct gcm_ctx *ctx, eip93_sw_op_fn sw_op, unsigned char *rec, size_t len,
		       int *e)
{
	unsigned char iv[EIP93_ENGINE_IVLEN], tag[TAG], *body = rec + EIV, *buf;
	int r;

	if (!delegate_record(ctx, sw_op, rec, 1))
		return REFUSED;
	r = EIP93_RECORD_UNFIT; /* the route checked the fixed IV is known: not reached */
	buf = eip93_cctx_scratch(&ctx->base, len);
	if (buf == NULL) {
		r = -ENOMEM;
	} else if (eip93_shadow_tls_iv(&ctx->sh, rec, iv) == 0) {
		memcpy(buf, body, len); /* the engine writes over a copy of its input */
		r = eip93_engine_checked(ctx, 1, iv, ctx->sh.tls_aad, sizeof(ctx->sh.tls_aad), body,
					 body, buf, len, tag);
	}
	if (r == 0) {
		memcpy(body, buf, len);
		memcpy(body + len, tag, TAG);
		eip93_cctx_release(&ctx->base, 0); /* ciphertext */
		return 0;
	}
	eip93_cctx_release(&ctx->base, 1); /* may hold plaintext ("wrote nothing") */
	*e = r;
	if (eip93_shadow_tls_iv(&ctx->sh, rec, iv) < 0 || !software_seal(ctx, iv, body, len))
		return -ENOMEM;
	return SEALED;
}

/* Engine decryption of a record in place; 0, WRONG, UNFIT or -errno (then the record is restored). */
static int record_open(struct gcm_ctx *ctx, unsigned char *rec, size_t len)
{
	unsigned char iv[EIP93_ENGINE_IVLEN], *body = rec + EIV, *copy;
	int r;

	if (eip93_shadow_tls_iv(&ctx->sh, rec, iv) < 0)
		return EIP93_RECORD_UNFIT;
	copy = eip93_cctx_scratch(&ctx->base, len);
	if (copy == NULL)
		return -ENOMEM;
	memcpy(copy, body, len);
	r = eip93_engine_checked(ctx, 0, iv, ctx->sh.tls_aad, sizeof(ctx->sh.tls_aad), body, copy,
				 body, len, body + len);
	/*
	 * The empty record's tag is refused, as planned: the state is a real
	 * record's.  Through the one-shot call, which raises no error for it.
	 */
	if (r == 0)
		(void)delegate_record(ctx, ctx->base.sw->cipher, rec, 0);
	else
		memcpy(body, copy, len);
	eip93_cctx_release(&ctx->base, 0); /* the copy: ciphertext only */
	return r;
}

/*
 * The record shape's engine step.  Encrypting, a failure after the delegate
 * handed out the explicit IV ends the record here (io->done): refused by the
 * delegate (EIP93_RECORD_UNFIT, its errors queued, the record untouched), or
 * sealed in software (the engine's error returned for the accounting: a
 * backend's -EINVAL counts as an engine error like any other).
 */
static int record_engine(struct eip93_cctx *c, struct eip93_pipe_io *io, size_t len)
{
	struct gcm_ctx *ctx = gcm_of(c);
	int e, failed = 0;

	if (!ctx->sh.enc) {
		e = record_open(ctx, io->out, len);
		if (e == 0)
			*io->outl = io->oneshot ? io->inl : len;
		return e;
	}
	e = record_seal(ctx, io->sw_op, io->out, len, &failed);
	if (e == 0) {
		*io->outl = io->inl;
		return 0;
	}
	io->done = 1;
	if (e == REFUSED) {
		io->ret = 0; /* as the delegate refuses the real record, with its errors */
		return EIP93_RECORD_UNFIT;
	}
	io->ret = e == SEALED;
	*io->outl = e == SEALED ? io->inl : 0;
	return failed;
}

/* The shadow follows: a record ended, whichever path it took (its length says nothing). */
static inline __attribute__((always_inline)) void record_moved(struct eip93_cctx *c, int engine,
							       size_t len)
{
	(void)engine;
	(void)len;
	eip93_shadow_ev(gcm_of(c), EIP93_EV_TLS_RECORD, NULL, 0);
}

static const struct eip93_pipe_shape record_shape = {
	.where = "tls record",
	.refused_fault = "a TLS record tag the engine refused and software accepted",
	.engine = record_engine,
	.moved = record_moved,
};

int eip93_tls12_record(struct gcm_ctx *ctx, eip93_sw_op_fn sw_op, int oneshot, unsigned char *out,
		       size_t *outl, size_t outsize, const unsigned char *in, size_t inl)
{
	struct eip93_pipe_io io = { .sw_op = sw_op,
				    .out = out,
				    .outl = outl,
				    .outsize = outsize,
				    .in = in,
				    .inl = inl,
				    .oneshot = oneshot };
	unsigned char probe_iv[EIP93_ENGINE_IVLEN];
	struct eip93_route_msg m = {
		.tls = 1,
		/* The delegate hands out or takes the explicit IV only with IV generation on. */
		.tls_ok = ctx->sh.tls == EIP93_TLS_SET && in == out && in != NULL &&
			  inl >= EIV + TAG && eip93_shadow_tls_iv(&ctx->sh, in, probe_iv) == 0 &&
			  ctx->sh.gen,
		.taglen = TAG,
		.aadlen = sizeof(ctx->sh.tls_aad),
		.len = inl >= EIV + TAG ? inl - EIV - TAG : 0,
		.room = outsize >= inl,
		.enc = ctx->sh.enc,
		.ivlen = ctx->sh.ivlen,
	};

	eip93_pipeline_facts(&ctx->base, &m);
	return eip93_pipeline_run(&ctx->base, &record_shape, &m, &io);
}
