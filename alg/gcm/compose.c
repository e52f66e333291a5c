// SPDX-License-Identifier: Apache-2.0
/*
 * The composition: how one engine message is computed from backend requests.
 *
 *   ctr(aes-eip93) (CTR-only): the engine computes the AES-CTR keystream of
 *     the payload's whole blocks, one request from the counter block
 *     IV || 2 (J0 + 1).  GHASH over the AAD and the ciphertext, the tag mask
 *     E_K(J0) and the last partial block are computed here with libcrypto's
 *     GCM128 code and the key's own software AES (the AES-ECB context the
 *     integrity check holds).  Sealing, the tag is computed over the
 *     ciphertext the engine wrote, so it is right for whatever is released;
 *     opening, the tag is checked (in constant time) over the caller's
 *     ciphertext before the engine is asked anything, so whether a message
 *     authenticates never depends on the engine, and a refused message
 *     leaves the output untouched.
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
#include "../verify.h"

#include <errno.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/modes.h>

#define BLK 16

/*
 * GCM128 hands its key back as const void *, and its no-stream decryption
 * takes an output it never writes: the same object, without the const
 * (copied, not cast through an integer).
 */
static void *unconst(const void *p)
{
	void *q;

	memcpy(&q, &p, sizeof(q));
	return q;
}

/* GCM128's block function: one AES block with the key's AES-ECB context. */
static void aes_block(const unsigned char in[BLK], unsigned char out[BLK], const void *key)
{
	EVP_CIPHER_CTX *ecb = unconst(key); /* EVP_Cipher() takes a non-const context */

	(void)EVP_Cipher(ecb, out, in, BLK);
}

/*
 * GCM128's stream function for the whole blocks: they are already what it
 * would compute (the engine wrote them, or are only hashed), so nothing to do.
 */
static void no_stream(const unsigned char *in, unsigned char *out, size_t blocks, const void *key,
		      const unsigned char ivec[BLK])
{
	(void)in;
	(void)out;
	(void)blocks;
	(void)key;
	(void)ivec;
}

int eip93_compose_key_init(struct eip93_cctx *c)
{
	struct gcm_ctx *ctx = gcm_of(c);

	eip93_compose_key_free(c);
	if (ctx->base.key.ecb == NULL)
		return -ENOMEM;
	ctx->gcm128 = CRYPTO_gcm128_new(ctx->base.key.ecb, aes_block);
	ctx->tag_checks = 0;
	return ctx->gcm128 != NULL ? 0 : -ENOMEM;
}

void eip93_compose_key_free(struct eip93_cctx *c)
{
	struct gcm_ctx *ctx = gcm_of(c);

	CRYPTO_gcm128_release(ctx->gcm128); /* cleanses H and its tables */
	ctx->gcm128 = NULL;
}

/* GCM128 set up for a message: IV (J0, the tag mask) and AAD hashed. */
static int start(struct gcm_ctx *ctx, const unsigned char *iv, const unsigned char *aad,
		 size_t aadlen)
{
	GCM128_CONTEXT *g = ctx->gcm128;

	if (g == NULL)
		return -ENOMEM;
	CRYPTO_gcm128_setiv(g, iv, EIP93_ENGINE_IVLEN);
	return aadlen == 0 || CRYPTO_gcm128_aad(g, aad, aadlen) == 0 ? 0 : -EINVAL;
}

/*
 * The software tag of ciphertext @ct (@len bytes) under @iv and @aad into
 * @tag, GHASH and E_K(J0) in libcrypto; nothing is written anywhere else.
 */
static int software_tag(struct gcm_ctx *ctx, const unsigned char *iv, const unsigned char *aad,
			size_t aadlen, const unsigned char *ct, size_t len, unsigned char *tag)
{
	GCM128_CONTEXT *g = ctx->gcm128;
	size_t whole = len & ~(size_t)(BLK - 1);
	unsigned char part[BLK];
	int r = start(ctx, iv, aad, aadlen);

	/* Decrypting with no stream only hashes the whole blocks (the output is never written). */
	if (r == 0 &&
	    (CRYPTO_gcm128_decrypt_ctr32(g, ct, unconst(ct), whole, no_stream) != 0 ||
	     CRYPTO_gcm128_decrypt_ctr32(g, ct + whole, part, len - whole, no_stream) != 0))
		r = -EINVAL;
	if (r == 0)
		CRYPTO_gcm128_tag(g, tag, EIP93_ENGINE_TAGLEN);
	OPENSSL_cleanse(part, sizeof(part));
	return r;
}

/* One engine AES-CTR request over @whole bytes from the counter block IV || 2. */
static int ctr_request(struct gcm_ctx *ctx, int enc, const unsigned char *iv,
		       const unsigned char *in, unsigned char *out, size_t whole,
		       struct eip93_engine_pages *pg)
{
	static const unsigned char two[4] = { 0, 0, 0, 2 };
	unsigned char cb[EIP93_ENGINE_CTRBLK];
	struct eip93_engine_msg m = { cb, NULL, 0, in, out, whole, NULL, pg };

	if (whole == 0)
		return 0;
	memcpy(cb, iv, EIP93_ENGINE_IVLEN);
	memcpy(cb + EIP93_ENGINE_IVLEN, two, sizeof(two));
	return ctx->base.env->engine->skc(&ctx->base.key.ek, &m, enc);
}

static int ctr_seal(struct gcm_ctx *ctx, const struct eip93_engine_msg *m)
{
	size_t whole = m->len & ~(size_t)(BLK - 1);
	int r = ctr_request(ctx, 1, m->iv, m->in, m->out, whole, m->pages);

	if (r == 0)
		r = start(ctx, m->iv, m->aad, m->aadlen);
	/*
	 * With no stream the whole blocks stay the engine's and are hashed as
	 * released; the partial last block is encrypted here (its plaintext is
	 * still in m->in: the engine's request ended before it).
	 */
	if (r == 0 &&
	    CRYPTO_gcm128_encrypt_ctr32(ctx->gcm128, m->in, m->out, m->len, no_stream) != 0)
		r = -EINVAL;
	if (r == 0)
		CRYPTO_gcm128_tag(ctx->gcm128, m->tag, EIP93_ENGINE_TAGLEN);
	return r;
}

static int ctr_open(struct gcm_ctx *ctx, const struct eip93_engine_msg *m)
{
	GCM128_CONTEXT *g = ctx->gcm128;
	size_t whole = m->len & ~(size_t)(BLK - 1), n = m->len - whole;
	unsigned char part[BLK];
	int r = start(ctx, m->iv, m->aad, m->aadlen);

	if (r == 0 &&
	    (CRYPTO_gcm128_decrypt_ctr32(g, m->in, unconst(m->in), whole, no_stream) != 0 ||
	     CRYPTO_gcm128_decrypt_ctr32(g, m->in + whole, part, n, no_stream) != 0))
		r = -EINVAL;
	if (r == 0 && CRYPTO_gcm128_finish(g, m->tag, EIP93_ENGINE_TAGLEN) != 0)
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

	if (ctx->base.key.ek.is_ctr)
		return enc ? ctr_seal(ctx, &m) : ctr_open(ctx, &m);
	return kernel_aead(ctx, enc, &m);
}

int eip93_engine_checked(struct gcm_ctx *ctx, int enc, const unsigned char *iv,
			 const unsigned char *aad, size_t aadlen, const unsigned char *in,
			 const unsigned char *orig, unsigned char *out, size_t len,
			 unsigned char *tag)
{
	struct eip93_engine_pages pg = { 0, { 0 } };
	int r = eip93_engine_message(ctx, enc, iv, aad, aadlen, in, len, out, tag, &pg);

	if (r == 0 && ctx->base.env->verify &&
	    (eip93_verify_written(orig, out, len) != 0 ||
	     eip93_verify_keystream(&ctx->base, iv, &pg, orig, out, len) != 0))
		r = EIP93_ENGINE_WRONG;
	return r;
}
