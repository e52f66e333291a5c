// SPDX-License-Identifier: Apache-2.0
/*
 * Keystream ahead (ahead.h).  The nonce patterns followed, in this order:
 *   XOR   the nonce is the first one since the key XOR a 64-bit big-endian
 *         number in its last 8 bytes that grows by one per message, or more
 *         (records routed to software in between): TLS 1.3 (RFC 8446 5.3);
 *   INC   the last 8 bytes grow by one: TLS 1.2's generated explicit nonce,
 *         OpenSSH's invocation counter (RFC 5647);
 *   SAME  the nonce is repeated (openssl speed).
 * The pattern followed is the one the most messages in a row have kept (a
 * tie: the order above), once two in a row have (a context that ran two
 * messages, as an encryption and its decryption, asks nothing), and one
 * more for each keystream dropped since the last one used (up to 32);
 * patterns kept as long that disagree on the next nonce ask nothing.  A keystream asked ahead is secret: used at most once, for
 * exactly its nonce and the key it was computed with (the context's engine
 * key; a new key forgets it), cleansed after use; one not used is dropped
 * (the backend cleanses it) at the next message, re-key or free.  The
 * engine's result is checked as a synchronous one is (verify.c, through
 * eip93_engine_checked()), and a block it did not write (zero) is refused
 * here: the message is then replayed in software from the input kept, so
 * nothing of it is released.
 */
#include "ahead.h"
#include "gcm_ctx.h"

#include <errno.h>
#include <string.h>

#include <openssl/crypto.h>

#define BLK 16
#define AHEAD_XOR 1u
#define AHEAD_INC 2u
#define AHEAD_SAME 4u
/*
 * Messages in a row a pattern must have kept before it is followed; each
 * keystream dropped since the last one used adds one (up to AHEAD_BACKOFF),
 * so a stream that keeps defeating the prediction costs fewer requests.
 */
#define AHEAD_RUN 2u
#define AHEAD_BACKOFF 32u
/* The largest gap of sequence numbers (software records in between) XOR still follows. */
#define AHEAD_GAP 64u

static uint64_t be64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

static void put_be64(unsigned char *p, uint64_t v)
{
	for (int i = 7; i >= 0; i--, v >>= 8)
		p[i] = (unsigned char)v;
}

/*
 * @out = @in XOR @ks over @n bytes (whole blocks), @ks zeroed as it is used
 * (it is secret: used once); one pass.  Returns 1 when a block of @ks was
 * zero (one the engine did not write: the caller refuses the message, and
 * the replay in software rewrites @out from the input it kept), else 0.
 */
static int xor_take(unsigned char *out, const unsigned char *in, unsigned char *ks, size_t n)
{
	static const uint64_t z[2];
	uint64_t a[2], k[2];
	int unwritten = 0;

	for (size_t i = 0; i < n; i += BLK) {
		memcpy(k, ks + i, BLK);
		memcpy(a, in + i, BLK);
		unwritten |= (k[0] | k[1]) == 0;
		a[0] ^= k[0];
		a[1] ^= k[1];
		memcpy(out + i, a, BLK);
		memcpy(ks + i, z, BLK);
	}
	OPENSSL_cleanse(k, sizeof(k)); /* the last keystream block, and its plaintext's XOR */
	OPENSSL_cleanse(a, sizeof(a));
	return unwritten;
}

static void dropped(struct gcm_ctx *ctx)
{
	const struct eip93_engine_ops *e = ctx->base.env->engine;

	e->ahead_drop(&ctx->base.key.ek);
	eip93_stat_add(&ctx->base.env->stats->ahead_dropped, 1);
	ctx->ahead.pending = 0;
	if (ctx->ahead.misses < AHEAD_BACKOFF)
		ctx->ahead.misses++;
}

int eip93_ahead_take(struct gcm_ctx *ctx, const unsigned char *iv, const unsigned char *in,
		     unsigned char *out, size_t whole, struct eip93_engine_pages *pg)
{
	struct eip93_ahead *a = &ctx->ahead;
	const struct eip93_engine_ops *e = ctx->base.env->engine;
	unsigned char *ks = NULL;
	int r;

	if (!a->pending)
		return EIP93_AHEAD_NONE;
	if (whole > a->len || memcmp(iv, a->next, EIP93_ENGINE_IVLEN) != 0) {
		dropped(ctx); /* mispredicted: waited for and cleansed by the backend */
		return EIP93_AHEAD_NONE;
	}
	a->pending = 0;
	r = e->ahead_wait(&ctx->base.key.ek, &ks, pg);
	if (r == -ENOENT) /* the backend has none (a forked child's key): ask now */
		return EIP93_AHEAD_NONE;
	if (r < 0)
		return r;
	if (xor_take(out, in, ks, whole))
		r = EIP93_ENGINE_WRONG; /* a block the engine did not write: refused, replayed */
	else {
		eip93_stat_add(&ctx->base.env->stats->ahead_used, 1);
		a->misses = 0;
	}
	if (a->len > whole) /* asked for more than this message: the rest is cleansed too */
		OPENSSL_cleanse(ks + whole, a->len - whole);
	return r;
}

/* Which patterns does @iv keep after the last nonce?  Moves base and seq along. */
static unsigned int learn(struct eip93_ahead *a, const unsigned char *iv)
{
	unsigned int ok = 0;
	uint64_t s = be64(iv + 4) ^ be64(a->base + 4), l = be64(a->last + 4);

	if (!a->seen) {
		memcpy(a->base, iv, EIP93_ENGINE_IVLEN);
		a->seq = 0;
		return 0;
	}
	if (memcmp(iv, a->base, 4) == 0 && s > a->seq && s - a->seq <= AHEAD_GAP) {
		ok |= AHEAD_XOR;
		a->seq = s;
	}
	if (memcmp(iv, a->last, 4) == 0 && be64(iv + 4) == l + 1)
		ok |= AHEAD_INC;
	if (memcmp(iv, a->last, EIP93_ENGINE_IVLEN) == 0)
		ok |= AHEAD_SAME;
	if (!(ok & AHEAD_XOR)) { /* a new start: this nonce is sequence number 0 */
		memcpy(a->base, iv, EIP93_ENGINE_IVLEN);
		a->seq = 0;
	}
	return ok;
}

/* The nonce pattern @i (0 XOR, 1 INC, 2 SAME) predicts after @iv, into @next. */
static void predict(const struct eip93_ahead *a, unsigned int i, const unsigned char *iv,
		    unsigned char *next)
{
	memcpy(next, iv, EIP93_ENGINE_IVLEN);
	if (1u << i == AHEAD_XOR)
		put_be64(next + 4, be64(a->base + 4) ^ (a->seq + 1));
	else if (1u << i == AHEAD_INC)
		put_be64(next + 4, be64(iv + 4) + 1);
}

void eip93_ahead_next(struct gcm_ctx *ctx, const unsigned char *iv, size_t whole, int enc)
{
	struct eip93_ahead *a = &ctx->ahead;
	const struct eip93_engine_ops *e = ctx->base.env->engine;
	unsigned char cb[EIP93_ENGINE_CTRBLK], other[EIP93_ENGINE_IVLEN];
	static const unsigned char two[4] = { 0, 0, 0, 2 };
	unsigned int ok = learn(a, iv), best = 0;

	memcpy(a->last, iv, EIP93_ENGINE_IVLEN);
	a->seen = 1;
	for (unsigned int i = 0; i < 3; i++) {
		a->run[i] = ok & (1u << i) ? a->run[i] + 1 : 0;
		if (a->run[i] > a->run[best])
			best = i;
	}
	if (a->pending)
		dropped(ctx); /* not taken (a message failed before it): never kept for another */
	if (a->run[best] < AHEAD_RUN + a->misses || whole == 0 || whole > EIP93_AHEAD_MAX)
		return;
	predict(a, best, iv, a->next);
	/* Patterns kept as long disagree on the next nonce: nothing is asked (no guess). */
	for (unsigned int i = best + 1; i < 3; i++) {
		if (a->run[i] != a->run[best])
			continue;
		predict(a, i, iv, other);
		if (memcmp(other, a->next, EIP93_ENGINE_IVLEN) != 0)
			return;
	}
	memcpy(cb, a->next, EIP93_ENGINE_IVLEN);
	memcpy(cb + EIP93_ENGINE_IVLEN, two, sizeof(two));
	if (e->ahead_start(&ctx->base.key.ek, cb, whole, enc) == 0) {
		a->pending = 1;
		a->len = whole;
	}
}

void eip93_ahead_forget(struct gcm_ctx *ctx)
{
	if (ctx->ahead.pending && ctx->base.env->engine->ahead_drop != NULL) {
		ctx->base.env->engine->ahead_drop(&ctx->base.key.ek);
		eip93_stat_add(&ctx->base.env->stats->ahead_dropped, 1);
	}
	OPENSSL_cleanse(&ctx->ahead, sizeof(ctx->ahead));
}
