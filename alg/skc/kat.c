// SPDX-License-Identifier: Apache-2.0
/*
 * AES-CTR's and AES-CBC's keys on the engine: the transforms a key opens
 * (the row's key_init and key_free) and their known-answer checks (its
 * key_check), and the workarounds of the driver's two known bugs
 * (docs/design.md "The engine's known bugs"):
 *   - the direction bug: a decryption leaves the transform's SA record
 *     inbound and an encryption never clears it, so a CBC key gets two
 *     transforms, one per direction (base.key.ek encrypts, dek decrypts);
 *   - the 32-bit counter without carry: AES-CTR requests are cut where the
 *     counter's last 32 bits wrap (offload.c).
 * Test builds can turn either off (EIP93_TEST_QUIRKS=no-dir-split,
 * no-ctr-split), to show that the tests catch what they work around.
 */
#include "skc_ctx.h"
#include "../request.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>

#define BLK EIP93_SKC_BLK
#define KAT_PAGE 4096
#define KAT_BEFORE_PAGE 48   /* the message starts this far before a page boundary */
#define KAT_BLKS ((size_t)8) /* 128 bytes, across that boundary */

#ifdef EIP93_TEST_HOOKS
static int quirk_off(const char *name)
{
	const char *v = getenv("EIP93_TEST_QUIRKS");

	return v != NULL && strstr(v, name) != NULL;
}
#endif

int eip93_skc_split_dir(void)
{
#ifdef EIP93_TEST_HOOKS
	return !quirk_off("no-dir-split");
#else
	return 1;
#endif
}

int eip93_skc_split_ctr(void)
{
#ifdef EIP93_TEST_HOOKS
	return !quirk_off("no-ctr-split");
#else
	return 1;
#endif
}

struct eip93_engine_key *eip93_skc_transform(struct skc_ctx *ctx, int enc)
{
	return ctx->cbc && !enc && ctx->split_dir ? &ctx->dek : &ctx->base.key.ek;
}

/* A CBC key's decryption transform, opened beside the one key.c opened. */
int eip93_skc_key_init(struct eip93_cctx *c)
{
	struct skc_ctx *ctx = skc_of(c);
	const struct eip93_alg_env *env = c->env;
	struct eip93_engine_cfg cfg = {
		.kalg = eip93_env_kalg(env, c->cipher->engine_mode),
		.max_sockets = env->max_sockets,
		.timeout_ms = env->timeout_ms,
		.libctx = env->libctx,
	};

	env->engine->key_close(&ctx->dek);
	ctx->split_dir = ctx->cbc && eip93_skc_split_dir();
	if (!ctx->split_dir)
		return 0;
	return env->engine->key_open(&ctx->dek, &cfg, c->key.bytes, c->key.len);
}

void eip93_skc_key_free(struct eip93_cctx *c)
{
	c->env->engine->key_close(&skc_of(c)->dek);
}

/* @n blocks of @a and @b equal?  0, or -EBADMSG. */
static int same(const unsigned char *a, const unsigned char *b, size_t n)
{
	return CRYPTO_memcmp(a, b, n * BLK) == 0 ? 0 : -EBADMSG;
}

/*
 * The key's software AES over @n blocks of @in (in place allowed), chained
 * CBC-style from @iv when @iv is not NULL.  0 or -ENOMEM.
 */
static int sw_blocks(struct eip93_cctx *c, const unsigned char *iv, const unsigned char *in,
		     unsigned char *out, size_t n)
{
	static const unsigned char zero[BLK];
	const unsigned char *prev = iv != NULL ? iv : zero; /* the chain (none: zeros) */
	unsigned char x[BLK];
	int got, ok = 1;

	for (size_t i = 0; ok && i < n; i++) {
		for (size_t j = 0; j < BLK; j++)
			x[j] = (unsigned char)(in[i * BLK + j] ^ prev[j]);
		ok = EVP_EncryptUpdate(c->key.ecb, out + i * BLK, &got, x, BLK) && got == BLK;
		if (iv != NULL)
			prev = out + i * BLK;
	}
	OPENSSL_cleanse(x, sizeof(x));
	return ok ? 0 : -ENOMEM;
}

/*
 * One request of KAT_BLKS blocks in place across a page boundary (a fault
 * of the key itself, its schedule or length in the engine, makes every block
 * wrong; every message is checked besides, check.c).  AES-CTR: over zeros,
 * the keystream of fixed counter blocks.  AES-CBC: a fixed plaintext
 * encrypted, then decrypted on the decryption transform, each against the
 * key's software AES.  0, -EBADMSG (a wrong answer) or the engine's -errno.
 */
int eip93_skc_key_check(struct eip93_cctx *c)
{
	struct skc_ctx *ctx = skc_of(c);
	unsigned char page[KAT_PAGE + KAT_BLKS * BLK], want[KAT_BLKS * BLK], plain[KAT_BLKS * BLK];
	unsigned char iv[BLK], cb[KAT_BLKS * BLK], *buf;
	uintptr_t a = (uintptr_t)page + KAT_BEFORE_PAGE;
	int r;

	buf = page + (KAT_PAGE - a % KAT_PAGE);
	for (size_t j = 0; j < BLK; j++)
		iv[j] = (unsigned char)(0xa3 ^ (j * 7));
	iv[12] = iv[13] = 0; /* CTR: far from a wrap of the last 32 bits */
	for (size_t i = 0; i < sizeof(plain); i++)
		plain[i] = ctx->cbc ? (unsigned char)(i * 29 + 5) : 0;
	memcpy(buf, plain, sizeof(plain));
	r = eip93_engine_skc(c, eip93_skc_transform(ctx, 1), 1, iv, buf, buf, sizeof(plain), NULL);
	if (r == 0 && !ctx->cbc) { /* the counter blocks iv, iv + 1, ... */
		for (size_t i = 0; i < KAT_BLKS; i++) {
			memcpy(cb + i * BLK, iv, BLK);
			cb[i * BLK + 15] = (unsigned char)(iv[15] + i);
			cb[i * BLK + 14] = (unsigned char)(iv[14] + ((iv[15] + i) >> 8));
		}
		r = sw_blocks(c, NULL, cb, want, KAT_BLKS);
	} else if (r == 0) {
		r = sw_blocks(c, iv, plain, want, KAT_BLKS);
	}
	if (r == 0)
		r = same(buf, want, KAT_BLKS);
	if (r == 0 && ctx->cbc) { /* and back, on the decryption transform */
		r = eip93_engine_skc(c, eip93_skc_transform(ctx, 0), 0, iv, buf, buf, sizeof(plain),
				     NULL);
		if (r == 0)
			r = same(buf, plain, KAT_BLKS);
	}
	OPENSSL_cleanse(page, sizeof(page));
	OPENSSL_cleanse(want, sizeof(want));
	OPENSSL_cleanse(plain, sizeof(plain));
	return r;
}
