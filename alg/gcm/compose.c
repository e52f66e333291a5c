// SPDX-License-Identifier: Apache-2.0
/*
 * The composition: how one engine message is computed from backend requests.
 *
 *   ctr(aes-eip93) (CTR-only): the engine computes the AES-CTR keystream of
 *     the payload's whole blocks, one request from the counter block
 *     IV || 2 (J0 + 1).  GHASH over the AAD and the ciphertext, the tag mask
 *     E_K(J0) and the last partial block are computed here with libcrypto's
 *     exported GCM128 functions (route.c, on any build of them) and the
 *     key's own software AES (the AES-ECB context the integrity check
 *     holds).  Sealing, the tag is computed over the
 *     ciphertext the engine wrote, so it is right for whatever is released;
 *     opening, the tag is checked (in constant time) over the caller's
 *     ciphertext before the engine is asked anything, so whether a message
 *     authenticates never depends on the engine, and a refused message
 *     leaves the output untouched.
 *   ecb(aes-eip93) (ECB, for engines without AES-CTR): as CTR-only, but the
 *     engine computes the keystream as AES-ECB of the counter blocks
 *     (IV || 2, IV || 3, ..., written here into a private buffer; one
 *     request, in place) and it is XORed into the payload here; a block the
 *     engine left unwritten is refused before anything is released.
 *   gcm_base(...) (a kernel AES-GCM): one backend AEAD request.  The kernel
 *     takes the tag mask from the engine's first keystream block, which the
 *     keystream check (verify.c) does not see, so the tag of the first
 *     EIP93_TAG_CHECK_FIRST messages of each key and of one in
 *     env->tag_check after that is recomputed here before release.
 *
 * Either way the backend reports the page phases of the buffers the engine
 * touched (m->pages), and eip93_engine_checked() then checks (../verify.c)
 * that every whole block was written and the keystream of sampled blocks;
 * the caller (offload.c, tls12.c) accounts the outcome (../account.c).
 */
#include "compose.h"
#include "ahead.h"
#include "../verify.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/modes.h>

#define BLK 16

/* The route's AES block function: one block with the key's AES-ECB context. */
static void aes_block(const unsigned char in[BLK], unsigned char out[BLK], const void *key)
{
	void *ecb; /* EVP_Cipher() takes a non-const context: the key without its const */

	memcpy(&ecb, &key, sizeof(ecb));
	(void)EVP_Cipher(ecb, out, in, BLK);
}

int eip93_compose_key_init(struct eip93_cctx *c)
{
	struct gcm_ctx *ctx = gcm_of(c);

	eip93_compose_key_free(c);
	ctx->tag_checks = 0;
	eip93_ahead_forget(ctx); /* the engine key is new: nothing of the last one's */
	if (ctx->base.key.ecb == NULL)
		return -ENOMEM;
	return eip93_route_init(&ctx->route, aes_block, ctx->base.key.ecb);
}

void eip93_compose_key_free(struct eip93_cctx *c)
{
	eip93_ahead_forget(gcm_of(c));
	eip93_route_free(&gcm_of(c)->route);
}

/*
 * The software tag of ciphertext @ct (@len bytes) under @iv and @aad into
 * @tag, GHASH and E_K(J0) in libcrypto; nothing is written anywhere else.
 */
static int software_tag(struct gcm_ctx *ctx, const unsigned char *iv, const unsigned char *aad,
			size_t aadlen, const unsigned char *ct, size_t len, unsigned char *tag)
{
	struct eip93_gcm_route *rt = &ctx->route;
	size_t whole = len & ~(size_t)(BLK - 1);
	unsigned char part[BLK];
	int r = eip93_route_start(rt, iv, EIP93_ENGINE_IVLEN, aad, aadlen);

	if (r == 0)
		r = eip93_route_hash(rt, ct, whole);
	if (r == 0)
		r = eip93_route_last(rt, 0, ct + whole, part, len - whole);
	if (r == 0)
		CRYPTO_gcm128_tag(rt->g, tag, EIP93_ENGINE_TAGLEN);
	OPENSSL_cleanse(part, sizeof(part));
	return r;
}

/* Counter block @i of a message (from J0 + 1 = IV || 2) into @cb: inc32, wrapping mod 2^32. */
static void counter_block(unsigned char cb[BLK], const unsigned char *iv, size_t i)
{
	uint32_t c = (uint32_t)(2 + i);

	memcpy(cb, iv, EIP93_ENGINE_IVLEN);
	cb[12] = (unsigned char)(c >> 24);
	cb[13] = (unsigned char)(c >> 16);
	cb[14] = (unsigned char)(c >> 8);
	cb[15] = (unsigned char)c;
}

/*
 * The ECB composition's request: the counter blocks of @whole bytes into a
 * private buffer, one engine AES-ECB request over them in place, then @out =
 * @in XOR the keystream here.  A block the engine did not write still holds
 * its counter block (never stale memory, never the payload): it is refused
 * (EIP93_ENGINE_WRONG), and nothing is written to @out.  The page phases are
 * the private buffer's, whose offsets are the payload's.
 */
static int ecb_request(struct gcm_ctx *ctx, int enc, const unsigned char *iv,
		       const unsigned char *in, unsigned char *out, size_t whole,
		       struct eip93_engine_pages *pg)
{
	struct eip93_engine_msg m = { NULL, NULL, 0, NULL, NULL, whole, NULL, pg };
	size_t alloc = whole + BLK;
	unsigned char *raw, *ks, cb[BLK];
	int r;

	if (whole == 0)
		return 0;
	raw = OPENSSL_malloc(alloc);
	if (raw == NULL)
		return -ENOMEM;
	ks = raw + (BLK - (uintptr_t)raw % BLK) % BLK; /* the engine's alignment: no bounce */
	for (size_t i = 0; i < whole / BLK; i++)
		counter_block(ks + i * BLK, iv, i);
	m.in = ks;
	m.out = ks;
	r = ctx->base.env->engine->skc(&ctx->base.key.ek, &m, enc);
	for (size_t i = 0; r == 0 && i < whole / BLK; i++) {
		counter_block(cb, iv, i);
		if (CRYPTO_memcmp(ks + i * BLK, cb, BLK) == 0)
			r = EIP93_ENGINE_WRONG; /* unwritten: not a keystream */
	}
	for (size_t i = 0; r == 0 && i < whole; i++)
		out[i] = in[i] ^ ks[i];
	OPENSSL_cleanse(cb, sizeof(cb));
	OPENSSL_clear_free(raw, alloc);
	return r;
}

/*
 * One engine AES-CTR request over @whole bytes from the counter block IV ||
 * 2: the keystream asked ahead for this nonce (ahead.c) when there is one,
 * else a request now; then, a message's, the next nonce's keystream is
 * asked ahead (after this one's buffer was used: the backend keeps one).
 */
static int ctr_request(struct gcm_ctx *ctx, int enc, const unsigned char *iv,
		       const unsigned char *in, unsigned char *out, size_t whole,
		       struct eip93_engine_pages *pg)
{
	static const unsigned char two[4] = { 0, 0, 0, 2 };
	unsigned char cb[EIP93_ENGINE_CTRBLK];
	struct eip93_engine_msg m = { cb, NULL, 0, in, out, whole, NULL, pg };
	int r = EIP93_AHEAD_NONE;

	if (ctx->base.key.ek.mode == EIP93_EMODE_ECB)
		return ecb_request(ctx, enc, iv, in, out, whole, pg);
	if (whole == 0)
		return 0;
	if (ctx->ahead.armed)
		r = eip93_ahead_take(ctx, iv, in, out, whole, pg);
	if (r == EIP93_AHEAD_NONE) {
		memcpy(cb, iv, EIP93_ENGINE_IVLEN);
		memcpy(cb + EIP93_ENGINE_IVLEN, two, sizeof(two));
		r = ctx->base.env->engine->skc(&ctx->base.key.ek, &m, enc);
	}
	if (r == 0 && ctx->ahead.armed)
		eip93_ahead_next(ctx, iv, whole, enc);
	return r;
}

static int ctr_seal(struct gcm_ctx *ctx, const struct eip93_engine_msg *m)
{
	struct eip93_gcm_route *rt = &ctx->route;
	size_t whole = m->len & ~(size_t)(BLK - 1);
	int r = ctr_request(ctx, 1, m->iv, m->in, m->out, whole, m->pages);

	if (r == 0)
		r = eip93_route_start(rt, m->iv, EIP93_ENGINE_IVLEN, m->aad, m->aadlen);
	/*
	 * The whole blocks are the engine's, hashed as released; the partial
	 * last block is encrypted here (its plaintext is still in m->in: the
	 * engine's request ended before it).
	 */
	if (r == 0)
		r = eip93_route_hash(rt, m->out, whole);
	if (r == 0)
		r = eip93_route_last(rt, 1, m->in + whole, m->out + whole, m->len - whole);
	if (r == 0)
		CRYPTO_gcm128_tag(rt->g, m->tag, EIP93_ENGINE_TAGLEN);
	return r;
}

static int ctr_open(struct gcm_ctx *ctx, const struct eip93_engine_msg *m)
{
	struct eip93_gcm_route *rt = &ctx->route;
	size_t whole = m->len & ~(size_t)(BLK - 1), n = m->len - whole;
	unsigned char part[BLK];
	int r = eip93_route_start(rt, m->iv, EIP93_ENGINE_IVLEN, m->aad, m->aadlen);

	if (r == 0)
		r = eip93_route_hash(rt, m->in, whole);
	if (r == 0)
		r = eip93_route_last(rt, 0, m->in + whole, part, n);
	if (r == 0 && CRYPTO_gcm128_finish(rt->g, m->tag, EIP93_ENGINE_TAGLEN) != 0)
		r = -EBADMSG; /* nothing written: the engine was not asked */
	if (r == 0)
		r = ctr_request(ctx, 0, m->iv, m->in, m->out, whole, m->pages);
	if (r == 0)
		memcpy(m->out + whole, part, n);
	OPENSSL_cleanse(part, sizeof(part));
	return r;
}

/* Is this kernel AES-GCM message's tag to be recomputed?  The first ones of a key, then 1 in N. */
static int tag_due(struct gcm_ctx *ctx)
{
	unsigned int n = ctx->base.env->tag_check;

	if (n == 0)
		return 0;
	if (ctx->tag_checks < EIP93_TAG_CHECK_FIRST) {
		ctx->tag_checks++;
		return 1;
	}
	return n == 1 || eip93_verify_rand(&ctx->base) % n == 0;
}

/* A kernel AES-GCM request, its tag sampled. */
static const unsigned char zero_tag[EIP93_ENGINE_TAGLEN];

static int kernel_aead(struct gcm_ctx *ctx, int enc, const struct eip93_engine_msg *m)
{
	const struct eip93_engine_ops *e = ctx->base.env->engine;
	unsigned char want[EIP93_ENGINE_TAGLEN];
	int r, due = tag_due(ctx);

	/* Opening may be in place: the ciphertext is hashed before the engine overwrites it. */
	if (due && !enc && software_tag(ctx, m->iv, m->aad, m->aadlen, m->in, m->len, want) != 0)
		due = 0;
	if (enc) /* a tag the engine does not write is zero, never what the buffer held */
		memset(m->tag, 0, EIP93_ENGINE_TAGLEN);
	r = enc ? e->seal(&ctx->base.key.ek, m) : e->unseal(&ctx->base.key.ek, m);
	if (r == 0 && enc && CRYPTO_memcmp(m->tag, zero_tag, EIP93_ENGINE_TAGLEN) == 0)
		r = EIP93_ENGINE_WRONG; /* unwritten (a right tag is zero with probability 2^-128) */
	/*
	 * Sealing, the engine's tag must be the one over its ciphertext;
	 * opening, it accepted the caller's tag, which must then be right.
	 */
	if (r == 0 && due &&
	    (!enc || software_tag(ctx, m->iv, m->aad, m->aadlen, m->out, m->len, want) == 0) &&
	    CRYPTO_memcmp(want, m->tag, EIP93_ENGINE_TAGLEN) != 0)
		r = EIP93_ENGINE_WRONG;
	OPENSSL_cleanse(want, sizeof(want));
	return r;
}

int eip93_engine_message(struct gcm_ctx *ctx, int enc, const unsigned char *iv,
			 const unsigned char *aad, size_t aadlen, const unsigned char *in,
			 size_t len, unsigned char *out, unsigned char *tag,
			 struct eip93_engine_pages *pg)
{
	struct eip93_engine_msg m = { iv, aad, aadlen, in, out, len, tag, pg };

	if (ctx->base.key.ek.mode != EIP93_EMODE_AEAD) /* CTR-only, or ECB */
		return enc ? ctr_seal(ctx, &m) : ctr_open(ctx, &m);
	return kernel_aead(ctx, enc, &m);
}

int eip93_engine_checked(struct gcm_ctx *ctx, int enc, const unsigned char *iv,
			 const unsigned char *aad, size_t aadlen, const unsigned char *in,
			 const unsigned char *orig, unsigned char *out, size_t len,
			 unsigned char *tag)
{
	struct eip93_engine_pages pg = { 0, { 0 } };
	const struct eip93_alg_env *env = ctx->base.env;
	int r;

	/* A message's (not a key check's): its keystream may come ahead, and the next one's */
	ctx->ahead.armed = env->ahead && env->engine->ahead_start != NULL &&
			   ctx->base.key.ek.mode == EIP93_EMODE_CTR;
	r = eip93_engine_message(ctx, enc, iv, aad, aadlen, in, len, out, tag, &pg);
	ctx->ahead.armed = 0;

	if (r == 0 && ctx->base.env->verify &&
	    (eip93_verify_written(orig, out, len) != 0 ||
	     eip93_verify_keystream(&ctx->base, iv, &pg, orig, out, len) != 0))
		r = EIP93_ENGINE_WRONG;
	return r;
}
