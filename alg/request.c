// SPDX-License-Identifier: Apache-2.0
/* One backend request on the context's engine key (request.h). */
#include "request.h"

int eip93_engine_request(struct eip93_cctx *ctx, int enc, const unsigned char *iv,
			 const unsigned char *aad, size_t aadlen, const unsigned char *in,
			 size_t len, unsigned char *out, unsigned char *tag)
{
	const struct eip93_engine_ops *e = ctx->env->engine;
	struct eip93_engine_msg m = { iv, aad, aadlen, in, out, len, tag, NULL };

	return enc ? e->seal(&ctx->key.ek, &m) : e->unseal(&ctx->key.ek, &m);
}

int eip93_engine_ctr(struct eip93_cctx *ctx, const unsigned char *ctrblk, const unsigned char *in,
		     unsigned char *out, size_t len)
{
	struct eip93_engine_msg m = { ctrblk, NULL, 0, in, out, len, NULL, NULL };

	return ctx->env->engine->skc(&ctx->key.ek, &m, 1);
}

int eip93_engine_skc(struct eip93_cctx *ctx, struct eip93_engine_key *k, int enc,
		     const unsigned char *iv, const unsigned char *in, unsigned char *out,
		     size_t len, struct eip93_engine_pages *pages)
{
	struct eip93_engine_msg m = { iv, NULL, 0, in, out, len, NULL, pages };

	return ctx->env->engine->skc(k, &m, enc);
}
