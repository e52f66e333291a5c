// SPDX-License-Identifier: Apache-2.0
/*
 * The one engine message pipeline: route → adaptive estimate → key ready →
 * the engine step → its outcome → counting → (otherwise) the software op.
 * AES-GCM's generic messages (gcm/offload.c: every message of TLS 1.3,
 * OpenSSH packets, any EVP caller) and TLS 1.2 records (gcm/tls12.c) run
 * through it; what differs between them is data and two callbacks, struct
 * eip93_pipe_shape.  It works on the base context (ctx.h): what the cipher
 * keeps of its own (AES-GCM: the shadow) follows through the shape's
 * moved() callback.
 *
 * Every reason a message goes to software comes from route.h: the routing
 * reasons from eip93_route() over the message's facts, the runtime outcomes
 * from eip93_route_outcome() (via eip93_key_ready(), key.c, and
 * eip93_account_outcome(), account.c, which also do the accounting).
 *
 * Always inlined, and given a constant shape by each caller, so the
 * compiler specialises it per shape (the callbacks become direct calls,
 * inlined where they are always_inline, the data constants): the pipeline costs what the two hand-written copies it
 * replaced cost (test/icount holds the budget).
 */
#ifndef EIP93_PIPELINE_H
#define EIP93_PIPELINE_H

#include "account.h"
#include "adapt_route.h"
#include "key.h"

/* One message's buffers and what the engine step reports back. */
struct eip93_pipe_io {
	eip93_sw_op_fn sw_op; /* the delegate's own call for the whole message */
	unsigned char *out;
	size_t *outl;
	size_t outsize;
	const unsigned char *in;
	size_t inl;
	int oneshot; /* through EVP_Cipher (TLS 1.2: the answer's length) */
	/* Set by a failing engine step that ended the message itself: no software op. */
	int done;
	int ret; /* ... and the call's answer then */
};

struct eip93_pipe_shape {
	const char *where; /* the step, in error texts */
	int fixed;	   /* 1: never adaptive routing (its estimates are AES-GCM's) */
	/*
	 * Software's verdict on a tag the engine refused is known when the op
	 * returns (a whole record): an accepted one is an engine fault, named so.
	 */
	const char *refused_fault;
	/*
	 * The engine step over an eligible message whose key is ready: 0 with
	 * *io->outl set, EIP93_ENGINE_WRONG or -errno; it may set io->done and
	 * io->ret when it ended the message without the software op.
	 */
	int (*engine)(struct eip93_cctx *ctx, struct eip93_pipe_io *io, size_t len);
	/*
	 * The message ended on the engine (@engine) or not, its payload @len:
	 * the cipher's own state follows (AES-GCM: the shadow's event).  Keep
	 * it static inline and always_inline: it runs on every message.
	 */
	void (*moved)(struct eip93_cctx *ctx, int engine, size_t len);
};

/* The facts every cipher shares (the rest, direction and IV length included, are the shape's). */
static inline void eip93_pipeline_facts(const struct eip93_cctx *ctx, struct eip93_route_msg *m)
{
	m->engine_available =
		atomic_load_explicit(&ctx->env->engine_available, memory_order_relaxed);
	m->key_set = ctx->key.set;
	m->key_failed = ctx->key.failed;
}

/**
 * eip93_pipeline_run() - one message of @shape, routed by @m's facts.
 * @m: the facts (eip93_pipeline_facts() plus the shape's); m->len is the
 *     payload the engine would take
 *
 * Return: the call's answer (1 or 0), as the default provider's would be.
 */
static inline __attribute__((always_inline)) int eip93_pipeline_run(
	struct eip93_cctx *ctx, const struct eip93_pipe_shape *shape, struct eip93_route_msg *m,
	struct eip93_pipe_io *io)
{
	struct eip93_adapt_tok at = { 0 };
	enum eip93_sw_reason r;
	int e, ok;

	r = eip93_route(&ctx->env->limits[ctx->cipher->engine_mode], m);
	/* adaptive routing: the estimate is the rule's last fact, asked of eligible ones only */
	if (r == EIP93_SW_NONE && !shape->fixed && eip93_adapt_begin(ctx, m->len, &at)) {
		m->adapt_sw = 1;
		r = eip93_route(&ctx->env->limits[ctx->cipher->engine_mode], m);
	}
	if (r == EIP93_SW_NONE)
		r = eip93_key_ready(ctx);
	if (r == EIP93_SW_NONE) {
		eip93_adapt_clock(&at); /* adaptive routing */
		e = shape->engine(ctx, io, m->len);
		eip93_adapt_end(&at, e == 0); /* adaptive routing */
		if (e == 0) {
			eip93_count_engine(ctx, m->len);
			shape->moved(ctx, 1, m->len);
			return 1;
		}
		r = eip93_account_outcome(ctx, e, shape->where);
		if (io->done) {
			eip93_count_sw(ctx, r);
			shape->moved(ctx, 0, m->len);
			return io->ret;
		}
	}
	eip93_count_sw(ctx, r);
	if (r == EIP93_SW_ADAPT)
		eip93_adapt_clock(&at); /* adaptive routing: a software sample */
	ok = io->sw_op(ctx->swctx, io->out, io->outl, io->outsize, io->in, io->inl);
	if (r == EIP93_SW_ADAPT)
		eip93_adapt_end(&at, ok);
	if (shape->refused_fault != NULL) {
		if (ok && ctx->engine_rejected)
			eip93_account_fault(ctx, shape->refused_fault);
		ctx->engine_rejected = 0;
	}
	shape->moved(ctx, 0, m->len);
	return ok;
}

#endif /* EIP93_PIPELINE_H */
