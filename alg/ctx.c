// SPDX-License-Identifier: Apache-2.0
/*
 * The base context's lifecycle (made, copied, freed with the cipher's
 * context that embeds it first), the message buffer, and the release of
 * what the core caches in the env.
 */
#include "ctx.h"

#include <string.h>

#include <openssl/crypto.h>

int eip93_cctx_init(struct eip93_cctx *ctx, struct eip93_alg_env *env,
		    const struct eip93_cipher *cipher, size_t ks)
{
	ctx->env = env;
	ctx->cipher = cipher;
	ctx->sw = ks < cipher->nkeys ? eip93_sw_find(env->sw, cipher->names[ks]) : NULL;
	eip93_engine_key_init(&ctx->key.ek);
	if (ctx->sw == NULL)
		return 0;
	ctx->swctx = ctx->sw->newctx(ctx->sw->provctx);
	return ctx->swctx != NULL;
}

int eip93_cctx_dup(struct eip93_cctx *dst, const struct eip93_cctx *src)
{
	dst->env = src->env;
	dst->cipher = src->cipher;
	dst->sw = src->sw;
	memcpy(dst->key.bytes, src->key.bytes, sizeof(dst->key.bytes));
	dst->key.len = src->key.len;
	dst->key.set = src->key.set;
	dst->key.failed = src->key.failed;
	dst->key.verified_pid = src->key.verified_pid;
	eip93_engine_key_init(&dst->key.ek);
	/* A refusal is judged once, by the context it happened in (a missed count is benign). */
	dst->engine_rejected = 0;
	if (src->ctlen > 0) {
		dst->ct = OPENSSL_memdup(src->ct, src->ctlen);
		if (dst->ct == NULL)
			return 0;
		dst->ctcap = dst->ctlen = src->ctlen;
	}
	dst->swctx = src->sw->dupctx(src->swctx);
	return dst->swctx != NULL;
}

void eip93_cctx_free(struct eip93_cctx *ctx)
{
	eip93_cctx_release(ctx, 1);
	if (ctx->swctx != NULL)
		ctx->sw->freectx(ctx->swctx);
}

/*
 * The message buffer: allocated for one engine message or record and freed
 * when it ends (nothing is held between messages).  It holds ciphertext,
 * except after an in-place replay (@plain: cleansed first).
 */
void eip93_cctx_release(struct eip93_cctx *ctx, int plain)
{
	if (plain)
		OPENSSL_clear_free(ctx->ct, ctx->ctcap);
	else
		OPENSSL_free(ctx->ct);
	ctx->ct = NULL;
	ctx->ctcap = 0;
	ctx->ctlen = 0;
}

unsigned char *eip93_cctx_scratch(struct eip93_cctx *ctx, size_t len)
{
	eip93_cctx_release(ctx, 1);
	ctx->ct = OPENSSL_malloc(len);
	if (ctx->ct != NULL)
		ctx->ctcap = len;
	return ctx->ct;
}

void eip93_alg_env_free(struct eip93_alg_env *env)
{
	for (int i = 0; i < EIP93_AES_NKEYLENS; i++) {
		EVP_CIPHER_free(atomic_load(&env->ecb[i]));
		atomic_store(&env->ecb[i], NULL);
	}
	eip93_verdict_free(env);
}
